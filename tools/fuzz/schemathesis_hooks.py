"""Schemathesis hooks for the API (tools/fuzz/schemathesis.toml names this file).

The API allows 60 requests a minute per token (CONTRACT 1), so each request takes the next of the
tokens in CMSG_FUZZ_TOKENS (comma-separated, all of one business) in turn. When CMSG_FUZZ_ANSWERS
names a file, every answer is appended to it as a JSON line (operation, method sent, whether the
token was sent, status, and the catalog `code` of an error answer): the suite reads which
operations served or refused a request with the token past its authentication.
"""
import itertools
import json
import os

import schemathesis

_TOKENS = [token for token in os.environ.get("CMSG_FUZZ_TOKENS", "").split(",") if token]
if not _TOKENS:
    raise RuntimeError("CMSG_FUZZ_TOKENS names no API token")
_NEXT_TOKEN = itertools.cycle(_TOKENS)


# refresh_interval=None: get() for every request, not once per 300 s.
@schemathesis.auth(refresh_interval=None)
class RotatingBearerToken:
    def get(self, case, ctx):
        return next(_NEXT_TOKEN)

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


_ANSWERS = os.environ.get("CMSG_FUZZ_ANSWERS")


@schemathesis.hook
def after_call(context, case, response):
    if _ANSWERS:
        with open(_ANSWERS, "a", encoding="utf-8") as answers:
            answers.write(
                json.dumps(
                    {
                        "operation": case.operation.label,
                        "method": (case.method or case.operation.method).upper(),
                        "with_token": "Authorization" in (case.headers or {}),
                        "status": response.status_code,
                        "code": _error_code(response),
                    }
                )
                + "\n"
            )


def _error_code(response):
    """The `code` of an error answer's {code, message} body, or None."""
    if response.status_code < 400:
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, str) else None
