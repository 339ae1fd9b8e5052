#!/usr/bin/env bash
# npm stop: SIGTERM the apps started by start.sh (pidfiles in .run/), then the infrastructure.
#   npm stop -- --apps-only   stops the apps and leaves the servers running (restart after a build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
case ${1:-} in
  '') stop_infra=true ;;
  --apps-only) stop_infra=false ;;
  *)
    echo "usage: bash tools/scripts/stop.sh [--apps-only]" >&2
    exit 2
    ;;
esac
# shellcheck source=tools/scripts/lib.sh
source tools/scripts/lib.sh

# Above the apps' default SHUTDOWN_GRACE_MS (25 s): they drain before we insist.
GRACE_S=35

declare -A running=()
for ((i = ${#APPS[@]} - 1; i >= 0; i--)); do
  app=${APPS[i]}
  if pid=$(app_pid "$app"); then
    kill -TERM "$pid" 2>/dev/null || true
    running[$app]=$pid
    log "stopping $app (pid $pid)"
  fi
done

deadline=$((SECONDS + GRACE_S))
while ((${#running[@]} > 0)); do
  for app in "${!running[@]}"; do
    kill -0 "${running[$app]}" 2>/dev/null || { unset "running[$app]"; rm -f "$RUN_DIR/$app.pid"; }
  done
  ((${#running[@]} == 0)) && break
  if ((SECONDS >= deadline)); then
    for app in "${!running[@]}"; do
      log "$app did not stop within ${GRACE_S}s: SIGKILL"
      kill -KILL "${running[$app]}" 2>/dev/null || true
      rm -f "$RUN_DIR/$app.pid"
    done
    break
  fi
  sleep 0.5
done

if [[ $stop_infra == true ]]; then bash tools/infra/infra.sh down; fi
log "stopped"
