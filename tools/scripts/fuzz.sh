#!/usr/bin/env bash
# npm run fuzz: the long run of the fuzz specs (the suite runs them with a fixed seed and few cases).
# CMSG_FUZZ_RUNS requests over every documented operation against a real stack, CMSG_AGREEMENT_RUNS
# bodies per operation for the document/validation agreement, CMSG_SCHEMATHESIS_SECONDS of Schemathesis
# (tools/fuzz); CMSG_FUZZ_SEED picks another seed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=tools/scripts/lib.sh
source tools/scripts/lib.sh

export CMSG_MONGO_BACKEND=${CMSG_MONGO_BACKEND:-memory}
export CMSG_FUZZ_RUNS=${CMSG_FUZZ_RUNS:-5000}
export CMSG_AGREEMENT_RUNS=${CMSG_AGREEMENT_RUNS:-5000}
export CMSG_FUZZ_SEED=${CMSG_FUZZ_SEED:-$RANDOM}
export CMSG_SCHEMATHESIS_SECONDS=${CMSG_SCHEMATHESIS_SECONDS:-900}
ensure_node_modules
ensure_schemathesis
infra_up
build_projects
log "fuzzing with seed $CMSG_FUZZ_SEED: $CMSG_FUZZ_RUNS requests, $CMSG_AGREEMENT_RUNS bodies per operation, Schemathesis for $CMSG_SCHEMATHESIS_SECONDS s"
status=0
npx jest -c jest.config.js libs/testing/src/fuzz || status=1
npx jest -c jest.integration.config.js apps/gateway-e2e/src/fuzz --testTimeout=1800000 || status=1
exit $status
