#!/usr/bin/env bash
# The contract checks of npm test: `buf lint` of the .proto files and `buf breaking` against the
# last published set (libs/proto/published), so removing or renumbering a field, changing its
# type, or renaming anything a caller uses fails the suite. buf comes from the @bufbuild/buf
# npm package (its binary ships inside it; nothing is downloaded at run time).
# Usage: check-contract.sh [module dir]   (default libs/proto; tests pass a modified copy)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
module="$(cd "${1:-$root/libs/proto}" && pwd)"
buf="$root/node_modules/.bin/buf"
cd "$module"
"$buf" lint
"$buf" breaking --against "$root/libs/proto/published"
echo "proto: buf lint and buf breaking passed against libs/proto/published"
