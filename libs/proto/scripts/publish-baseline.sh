#!/usr/bin/env bash
# Run when a version of the gRPC surface is released: the current .proto files become the
# baseline that `buf breaking` compares every later change with (docs/grpc.md, "Versioning").
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
rm -rf "$root/libs/proto/published/proto"
cp -r "$root/libs/proto/proto" "$root/libs/proto/published/proto"
echo "libs/proto/published now holds the current .proto files; commit it with the release"
