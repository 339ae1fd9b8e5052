#!/usr/bin/env bash
# Fails when the committed generated code differs from what the .proto files produce now.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
bash "$root/libs/proto/scripts/generate.sh" "$fresh"
if ! diff -r "$fresh" "$root/libs/proto/src/generated" >/dev/null; then
  echo "libs/proto/src/generated is stale: run 'npx nx run proto:generate' and commit the result" >&2
  diff -r "$fresh" "$root/libs/proto/src/generated" | head -40 >&2
  exit 1
fi
echo "proto: generated code is current"
