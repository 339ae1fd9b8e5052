#!/usr/bin/env bash
# npm test (and .ci/run): dependencies (and the lock file's checks), infrastructure, generated-code
# drift (proto, the OpenAPI document and the client's types), proto contract (buf lint, buf breaking), typecheck, lint, deployment checks (Kubernetes manifests, Dockerfile lint, image build
# stages: beside the unit tests as well), build, unit tests, integration tests, the index-shape check of the query shapes the apps
# sent during that run, then the fault tests. Exits non-zero when anything fails and ends with one plain line:
# "summary: N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=tools/scripts/lib.sh
source tools/scripts/lib.sh

# Tests run on the memory backend of the local MongoDB (its own port, beside a demo stack's H2 one).
export CMSG_MONGO_BACKEND=${CMSG_MONGO_BACKEND:-memory}

RESULTS_DIR=$RUN_DIR/test-results
failed_steps=()
passed_tests=0
failed_tests=0
infra_was_up=false
# The infrastructure addresses the caller set itself (infra_up exports its own).
caller_infra_env=()
for name in MONGODB_URI KAFKA_BROKERS REDIS_URL; do
  if [[ -n ${!name+set} ]]; then caller_infra_env+=("$name=${!name}"); fi
done
stage=setup

finish() {
  local status=$?
  # Installs or checks still going in the background when an early step failed.
  jobs -pr | xargs -r kill 2>/dev/null || true
  # infra_up exported the addresses of what it started, and infra.sh leaves alone what such an
  # address names: stop with the caller's own values only.
  if [[ ${CI:-} == true && $infra_was_up == false ]]; then env -u MONGODB_URI -u KAFKA_BROKERS -u REDIS_URL "${caller_infra_env[@]}" bash tools/infra/infra.sh down >/dev/null 2>&1 || true; fi
  if ((status != 0)) && ((${#failed_steps[@]} == 0)); then failed_steps+=("$stage"); fi
  if ((${#failed_steps[@]} > 0)); then
    node tools/scripts/failed-tests.mjs "$RESULTS_DIR"/*.json || true
    log "FAILED: ${failed_steps[*]}"
  fi
  printf 'summary: %d passed, %d failed\n' "$passed_tests" "$failed_tests"
  if ((${#failed_steps[@]} > 0)); then exit 1; fi
}
trap finish EXIT

# Runs a step with its output in a log file, shown only when it fails; later steps still run.
check() {
  local name=$1
  shift
  local logfile
  logfile="$LOG_DIR/test-${name// /-}.log"
  log "$name"
  if ! "$@" >"$logfile" 2>&1; then
    cat "$logfile" >&2
    failed_steps+=("$name")
  fi
}

# Starts a step like check, in the background: the static checks are mostly single-threaded, so
# on two cores the long ones (typecheck, the image stages) overlap the others. join_checks waits.
background_pids=()
background_names=()
check_beside() {
  local name=$1
  shift
  log "$name (beside the next steps)"
  "$@" >"$LOG_DIR/test-${name// /-}.log" 2>&1 &
  background_pids+=($!)
  background_names+=("$name")
}

# Waits for the background checks named (all of them when none is named).
join_checks() {
  local index name wanted waited pids=() names=()
  for index in "${!background_pids[@]}"; do
    name=${background_names[$index]}
    waited=$(( $# == 0 ))
    for wanted in "$@"; do [[ $wanted == "$name" ]] && waited=1; done
    if ((!waited)); then
      pids+=("${background_pids[$index]}")
      names+=("$name")
      continue
    fi
    if ! wait "${background_pids[$index]}"; then
      cat "$LOG_DIR/test-${name// /-}.log" >&2
      failed_steps+=("$name")
    fi
    log "$name done"
  done
  background_pids=("${pids[@]}")
  background_names=("${names[@]}")
}

# Runs one jest configuration in the foreground and adds its counts to the summary.
run_jest() {
  local name=$1 config=$2
  shift 2
  local report="$RESULTS_DIR/$name.json"
  rm -f "$report"
  log "$name tests"
  npx jest -c "$config" --json --outputFile="$PWD/$report" "$@" || failed_steps+=("$name tests")
  if [[ -f $report ]]; then
    local counts
    counts=$(node -e 'const r = require(process.argv[1]); console.log(r.numPassedTests, r.numFailedTests + r.numRuntimeErrorTestSuites)' "$PWD/$report")
    passed_tests=$((passed_tests + ${counts% *}))
    failed_tests=$((failed_tests + ${counts#* }))
  fi
}

# Fails when the dependency step changed package-lock.json (it must only ever read it).
lock_unchanged() {
  local before=$1
  if [[ $(sha256sum <package-lock.json) != "$before" ]]; then
    echo "package-lock.json changed during the dependency step:"
    git --no-pager diff --stat -- package-lock.json
    return 1
  fi
  echo "package-lock.json unchanged by the dependency step"
}

# @nx/enforce-module-boundaries reads the cached project graph and skips itself (a warning, not an
# error) when there is none, as on a fresh clone: compute it first.
lint_with_project_graph() {
  npx nx show projects >/dev/null
  npx eslint apps libs tools
}

mkdir -p "$LOG_DIR" "$RESULTS_DIR"
if bash tools/infra/infra.sh status 2>/dev/null | grep -q ' running ' && ! bash tools/infra/infra.sh status 2>/dev/null | grep -q ' stopped '; then
  infra_was_up=true
fi
stage=dependencies
lock_before=$(sha256sum <package-lock.json)
# On a fresh machine the tools of the deployment checks (two Go builds) and Schemathesis (pip) take
# minutes: they install beside npm ci and the apt installs, which mostly wait on the network.
# ensure_deploy_tools (under its lock) and ensure_schemathesis are asked again where they are used.
log "installing the deployment checks' tools and Schemathesis (beside the next steps)"
(source tools/deploy/deploy-tools.sh && ensure_deploy_tools) >"$LOG_DIR/deploy-tools-install.log" 2>&1 &
deploy_tools_pid=$!
(ensure_schemathesis) >"$LOG_DIR/schemathesis-install.log" 2>&1 &
schemathesis_pid=$!
ensure_node_modules
ensure_protoc
ensure_chromium
# A failed background install shows its log; the foreground call below (or the check that needs the
# tools) tries again and fails the run with its own message.
wait "$schemathesis_pid" || cat "$LOG_DIR/schemathesis-install.log" >&2
ensure_schemathesis
check "lock file complete" node tools/scripts/check-lockfile.mjs
check "lock file unchanged" lock_unchanged "$lock_before"
stage=infrastructure
infra_up
check "proto drift" bash libs/proto/scripts/check-generated.sh
check "proto contract (buf lint, buf breaking)" bash libs/proto/scripts/check-contract.sh
check "OpenAPI document and client drift" bash libs/client/scripts/check-generated.sh
# One program and one lint run over every project (the nx targets do the same project by project).
check_beside "typecheck" npx tsc -p tsconfig.typecheck.json --noEmit
# The image stages mostly wait on the registry (two npm installs of their own on a machine that
# has not cached them): they go on beside the unit tests too.
check_beside "image build stages" node tools/deploy/run-image-stages.mjs
check "lint" lint_with_project_graph
wait "$deploy_tools_pid" || cat "$LOG_DIR/deploy-tools-install.log" >&2
check "kubernetes manifests" bash tools/deploy/validate-manifests.sh
check "dockerfile lint" bash tools/deploy/lint-dockerfile.sh
check "client package build" npx nx run client:build --outputStyle=static
join_checks typecheck
stage=build
build_projects
run_jest unit jest.config.js
join_checks
run_jest integration jest.integration.config.js
run_jest index-shapes jest.index-shapes.config.js
# Last: the fault specs stop, pause and kill servers and apps (their own), two at a time, then the
# one that measures a pace.
run_jest faults jest.faults.config.js
run_jest faults-alone jest.faults-alone.config.js
