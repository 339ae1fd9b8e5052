#!/usr/bin/env bash
# Local infrastructure on loopback: Redis, Kafka (KRaft) and mongo-java-server (the MongoDB wire
# protocol), installed from package registries and started idempotently.
#
#   bash tools/infra/infra.sh up|down|status|env
#   eval "$(bash tools/infra/infra.sh env)"
#
# See tools/infra/README.md.
set -euo pipefail

INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# shellcheck source=lib/common.sh
source "$INFRA_DIR/lib/common.sh"
# shellcheck source=lib/redis.sh
source "$INFRA_DIR/lib/redis.sh"
# shellcheck source=lib/kafka.sh
source "$INFRA_DIR/lib/kafka.sh"
# shellcheck source=lib/mongo.sh
source "$INFRA_DIR/lib/mongo.sh"

usage() {
  cat >&2 <<EOF
usage: bash tools/infra/infra.sh <command>

  up      install what is missing, start Redis, Kafka and mongo-java-server; idempotent
  down    stop what 'up' started: every mongo-java-server of this cache (both backends), Kafka, Redis
  mongo-up, mongo-down
          start or stop only the MongoDB of CMSG_MONGO_BACKEND on CMSG_MONGO_PORT (benchmarks)
  kafka-up, kafka-down, kafka-restart
          start, stop, or stop and start again only Kafka (the fault tests, on CMSG_KAFKA_PORT and
          CMSG_KAFKA_DIR: producers and consumers must ride out a restart)
  status  one line per server
  env     print the exports for the servers: eval "\$(bash tools/infra/infra.sh env)"

Cache: $INFRA_HOME   state: $INFRA_RUN   (set CMSG_INFRA_HOME to move both)
Overrides: MONGODB_URI, KAFKA_BROKERS, REDIS_URL skip the matching server.
CMSG_MONGO_BACKEND=h2|memory (default h2, port 27117; memory: port 27118), CMSG_MONGO_PORT,
CMSG_MONGO_DIR (its pid, log and H2 file; default under the state directory).
CMSG_KAFKA_PORT (default 19092; its controller on the next port), CMSG_KAFKA_DIR (its pid, logs and data).
EOF
}

# Serialises up/down between concurrent callers sharing the same cache (e.g. two clones).
take_lock() {
  mkdir -p "$INFRA_HOME" "$INFRA_RUN"
  exec 9>"$INFRA_HOME/.lock"
  if ! flock -n 9; then
    log "waiting for another infra.sh run to finish (lock $INFRA_HOME/.lock)"
    flock -w 900 9 || die "timed out waiting for $INFRA_HOME/.lock"
  fi
}

cmd_up() {
  take_lock
  local start=$SECONDS
  # Kafka is the slowest to start: launch it first, wait for it last.
  kafka_start
  redis_up
  mongo_up
  kafka_wait
  log "all up in $((SECONDS - start))s"
  cmd_status >&2
}

cmd_down() {
  take_lock
  mongo_down_all
  kafka_down
  redis_down
}

cmd_mongo_up() {
  take_lock
  mongo_up
  mongo_status >&2
}

cmd_mongo_down() {
  take_lock
  mongo_down
}

cmd_kafka_up() {
  take_lock
  kafka_start
  kafka_wait
}

cmd_kafka_down() {
  take_lock
  kafka_down
}

cmd_kafka_restart() {
  take_lock
  kafka_down
  kafka_start
  kafka_wait
}

cmd_status() {
  mongo_status
  kafka_status
  redis_status
}

# Prints `export NAME=value`, single-quoting the value unless it is plainly safe (sh-compatible).
print_export() {
  local name=$1 value=$2 q="'"
  if [[ $value =~ ^[A-Za-z0-9_./:@,+=%-]*$ ]]; then
    printf 'export %s=%s\n' "$name" "$value"
  else
    printf "export %s='%s'\n" "$name" "${value//$q/$q\\$q$q}"
  fi
}

cmd_env() {
  print_export MONGODB_URI "$(mongodb_uri)"
  print_export KAFKA_BROKERS "$(kafka_brokers)"
  print_export REDIS_URL "$(redis_url)"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  mongo-up) cmd_mongo_up ;;
  mongo-down) cmd_mongo_down ;;
  kafka-up) cmd_kafka_up ;;
  kafka-down) cmd_kafka_down ;;
  kafka-restart) cmd_kafka_restart ;;
  status) cmd_status ;;
  env) cmd_env ;;
  -h | --help | help) usage ;;
  *)
    usage
    exit 2
    ;;
esac
