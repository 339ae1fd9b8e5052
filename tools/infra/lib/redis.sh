# shellcheck shell=bash
# Redis from Debian's redis-server package, our own instance (not the system service).

REDIS_PORT=16379
REDIS_DIR="$INFRA_RUN/redis"
REDIS_PIDFILE="$REDIS_DIR/redis.pid"
REDIS_LOG="$REDIS_DIR/redis.log"
REDIS_DEFAULT_URL="redis://$LOOPBACK:$REDIS_PORT"

redis_ping() {
  [[ $(timeout 3 redis-cli -h "$LOOPBACK" -p "$REDIS_PORT" ping 2>/dev/null) == PONG ]]
}

redis_install() {
  if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    apt_install redis-server
  fi
}

redis_up() {
  if [[ -n ${REDIS_URL:-} ]]; then
    log "redis: REDIS_URL is set ($REDIS_URL), not starting Redis"
    return 0
  fi
  redis_install
  local pid
  if pid=$(pid_from_file "$REDIS_PIDFILE" redis-server); then
    wait_for 30 "Redis (pid $pid)" "$REDIS_LOG" redis_ping
    log "redis: already running (pid $pid) on $LOOPBACK:$REDIS_PORT"
    return 0
  fi
  if port_open "$REDIS_PORT"; then
    redis_ping || die "port $REDIS_PORT is taken by something that is not Redis"
    log "redis: reusing the Redis already answering on $LOOPBACK:$REDIS_PORT (not started by us)"
    return 0
  fi
  log "redis: starting on $LOOPBACK:$REDIS_PORT"
  mkdir -p "$REDIS_DIR/data"
  exec_clean redis-server \
    --bind "$LOOPBACK" --port "$REDIS_PORT" --protected-mode yes \
    --daemonize yes --pidfile "$REDIS_PIDFILE" --logfile "$REDIS_LOG" \
    --dir "$REDIS_DIR/data" \
    --appendonly yes --appendfsync everysec \
    </dev/null >>"$REDIS_LOG" 2>&1 ||
    {
      show_log_tail "$REDIS_LOG"
      die "redis-server failed to start"
    }
  wait_for 30 "Redis" "$REDIS_LOG" redis_ping
  log "redis: ready"
}

redis_down() {
  [[ -n ${REDIS_URL:-} ]] && return 0
  stop_pid redis "$REDIS_PIDFILE" redis-server 30
}

redis_status() {
  local pid
  if [[ -n ${REDIS_URL:-} ]]; then
    printf '%-10s %-8s %s\n' redis external "$REDIS_URL (REDIS_URL override)"
  elif pid=$(pid_from_file "$REDIS_PIDFILE" redis-server 2>/dev/null) && redis_ping; then
    printf '%-10s %-8s %s\n' redis running "$REDIS_DEFAULT_URL (pid $pid)"
  elif command -v redis-cli >/dev/null 2>&1 && redis_ping; then
    printf '%-10s %-8s %s\n' redis running "$REDIS_DEFAULT_URL (not started by us)"
  else
    printf '%-10s %-8s %s\n' redis stopped "$REDIS_DEFAULT_URL"
  fi
}

redis_url() { printf '%s\n' "${REDIS_URL:-$REDIS_DEFAULT_URL}"; }
