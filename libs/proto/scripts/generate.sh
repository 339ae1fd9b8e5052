#!/usr/bin/env bash
# Generates the ts-proto output of every .proto under libs/proto/proto, offline:
# protoc from Debian's protobuf-compiler plus the ts-proto plugin from node_modules.
# Usage: generate.sh [out_dir]   (default libs/proto/src/generated)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="${1:-$root/libs/proto/src/generated}"
if ! command -v protoc >/dev/null; then
  echo "protoc missing: apt-get install -y protobuf-compiler" >&2
  exit 1
fi
include_dir="$(dirname "$(dirname "$(command -v protoc)")")/include"
[ -f "$include_dir/google/protobuf/any.proto" ] || include_dir=/usr/include
rm -rf "$out" && mkdir -p "$out"
cd "$root/libs/proto/proto"
mapfile -t protos < <(find . -name '*.proto' | sort)
protoc \
  --plugin=protoc-gen-ts_proto="$root/node_modules/.bin/protoc-gen-ts_proto" \
  --ts_proto_out="$out" \
  --ts_proto_opt=outputServices=grpc-js,env=node,useOptionals=none,snakeToCamel=false,esModuleInterop=true,forceLong=number,useExactTypes=false,outputJsonMethods=false,exportCommonSymbols=false,unrecognizedEnum=false \
  -I . -I "$include_dir" \
  "${protos[@]}"
