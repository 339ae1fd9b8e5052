#!/usr/bin/env bash
# Writes the OpenAPI document built from libs/api-schemas (no gateway needed) and the client's
# TypeScript types generated from it by openapi-typescript; both are committed.
# Usage: generate.sh [out_dir]   (default libs/client: <out>/openapi.json, <out>/src/generated/openapi.ts)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="${1:-$root/libs/client}"
mkdir -p "$out/src/generated"
cd "$root"
node libs/client/scripts/write-openapi-document.mjs "$out/openapi.json"
npx --no-install openapi-typescript "$out/openapi.json" --output "$out/src/generated/openapi.ts" --silent
