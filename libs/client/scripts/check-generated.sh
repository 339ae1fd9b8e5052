#!/usr/bin/env bash
# Fails when the committed OpenAPI document or the client's generated types differ from what the
# zod schemas of libs/api-schemas produce now (a schema change that was not regenerated).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
bash "$root/libs/client/scripts/generate.sh" "$fresh"
stale=0
for file in openapi.json src/generated/openapi.ts; do
  if ! diff -q "$fresh/$file" "$root/libs/client/$file" >/dev/null; then
    echo "libs/client/$file is stale: run 'npx nx run client:generate' and commit the result" >&2
    diff "$fresh/$file" "$root/libs/client/$file" | head -40 >&2 || true
    stale=1
  fi
done
((stale == 0)) || exit 1
echo "client: OpenAPI document and generated types are current"
