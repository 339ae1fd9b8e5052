#!/usr/bin/env bash
# npm start: infrastructure, build, the four apps on loopback, and the demo business.
# Apps already running (pidfiles in .run/) are reused; `npm stop` stops everything.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=tools/scripts/lib.sh
source tools/scripts/lib.sh

PORT=${PORT:-8080}
BASE_URL="http://127.0.0.1:$PORT"
READY_TIMEOUT_S=90

infra_up
ensure_node_modules
build_projects

# Every app gets the same environment; anything else (CHAT_*, AI_*, RATE_LIMIT_PER_MINUTE, ...)
# is inherited from the caller, with the apps' own defaults.
MONGODB_URI=$(mongo_uri_with_default_db "$MONGODB_URI" cmsg)
export MONGODB_URI KAFKA_BROKERS REDIS_URL
export CONVERSATIONS_GRPC_ADDRESS=${CONVERSATIONS_GRPC_ADDRESS:-127.0.0.1:15051}
export SCHEDULER_GRPC_ADDRESS=${SCHEDULER_GRPC_ADDRESS:-127.0.0.1:15052}
export ACTIONS_GRPC_ADDRESS=${ACTIONS_GRPC_ADDRESS:-127.0.0.1:15053}
export SIGNING_SECRET=${SIGNING_SECRET:-dev-only-signing-secret-change-me}
export PUBLIC_BASE_URL=${PUBLIC_BASE_URL:-$BASE_URL}
export KAFKAJS_NO_PARTITIONER_WARNING=1
# Local use: gRPC in plaintext without caller credentials (production refuses to start like this;
# docs/grpc.md). Set GRPC_TLS_* or GRPC_AUTH_TOKENS/GRPC_CLIENT_TOKEN and GRPC_ALLOW_INSECURE=false to try them.
export GRPC_ALLOW_INSECURE=${GRPC_ALLOW_INSECURE:-true}
# Local demos: webhook endpoints on this machine (http, loopback) are accepted (docs/webhooks.md).
export WEBHOOK_ALLOW_PRIVATE_URLS=${WEBHOOK_ALLOW_PRIVATE_URLS:-true}

start_app() {
  local app=$1 pid
  local -a app_env=()
  if pid=$(app_pid "$app"); then
    log "$app already running (pid $pid); npm stop first to run a new build"
    return 0
  fi
  case $app in
    conversations) app_env=("GRPC_ADDRESS=$CONVERSATIONS_GRPC_ADDRESS") ;;
    scheduler) app_env=("GRPC_ADDRESS=$SCHEDULER_GRPC_ADDRESS") ;;
    actions-runner) app_env=("GRPC_ADDRESS=$ACTIONS_GRPC_ADDRESS") ;;
    gateway)
      port_open "$PORT" && die "port $PORT is in use by another process (set PORT to use another one)"
      app_env=("PORT=$PORT")
      ;;
  esac
  nohup env "${app_env[@]}" node "dist/apps/$app/main.js" >"$LOG_DIR/$app.log" 2>&1 &
  printf '%s\n' "$!" >"$RUN_DIR/$app.pid"
  log "$app started (pid $!, log $LOG_DIR/$app.log)"
}

wait_until_ready() {
  local deadline=$((SECONDS + READY_TIMEOUT_S)) app
  until curl -fsS -o /dev/null --max-time 2 "$BASE_URL/readyz" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      for app in "${started[@]}"; do show_tail "$LOG_DIR/$app.log" 20; done
      die "the gateway was not ready at $BASE_URL/readyz within ${READY_TIMEOUT_S}s (npm stop cleans up)"
    fi
    for app in "${started[@]}"; do
      if ! app_pid "$app" >/dev/null; then
        show_tail "$LOG_DIR/$app.log" 40
        die "$app exited during start-up"
      fi
    done
    sleep 1
  done
}

mkdir -p "$LOG_DIR"
mapfile -t started < <(existing_apps)
for app in "${started[@]}"; do start_app "$app"; done
if [[ " ${started[*]} " != *" gateway "* ]]; then
  log "no gateway project yet: started ${started[*]:-nothing}; skipping the demo seed"
  exit 0
fi
wait_until_ready
node dist/tools/admin/main.js seed tools/seed/demo.json >"$LOG_DIR/seed.log" || {
  cat "$LOG_DIR/seed.log" >&2
  die "loading tools/seed/demo.json failed"
}

token=$(node -p "require('./tools/seed/demo.json').businesses[0].api_tokens[0].token")
cat <<INFO

cmsg is up at $BASE_URL (OpenAPI: $BASE_URL/v1/openapi.json, logs: $LOG_DIR/, data: $MONGODB_URI)
Demo business "demo" loaded. Try (the token is the public demo token, local only):

  curl -s -X POST $BASE_URL/v1/demo/conversation/status -H 'Authorization: Bearer $token' -H 'Content-Type: application/json' -d '{"conversation":{"phone":"+52 1 55 1234 5678"}}'

API reference and guides in a browser: $BASE_URL/docs (Authorize with the token above to try requests)

Stop everything: npm stop
INFO
