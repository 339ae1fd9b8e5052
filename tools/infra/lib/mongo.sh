# shellcheck shell=bash
# The local MongoDB: mongo-java-server (Maven Central) on Java 17, run by our own launcher.
#
# CMSG_MONGO_BACKEND picks the storage: h2 (default: data survives down/up, one MVStore file) or
# memory (nothing survives a stop; faster, what the tests and benchmarks use). Each backend has
# its own default port, so a demo stack and a test run can share the machine:
#   h2      mongodb://127.0.0.1:27117/   (CMSG_MONGO_PORT overrides)
#   memory  mongodb://127.0.0.1:27118/

MONGO_SERVER_VERSION=1.47.0
MONGO_BACKEND=${CMSG_MONGO_BACKEND:-h2}
case $MONGO_BACKEND in
  h2) MONGO_DEFAULT_PORT=27117 ;;
  memory) MONGO_DEFAULT_PORT=27118 ;;
  *) die "CMSG_MONGO_BACKEND must be h2 or memory (got '$MONGO_BACKEND')" ;;
esac
MONGO_PORT=${CMSG_MONGO_PORT:-$MONGO_DEFAULT_PORT}
# Bounded: without -Xmx the JVM takes a quarter of the machine. The memory backend holds every
# document on the heap, so it gets more room.
MONGO_HEAP=${CMSG_MONGO_HEAP:-$([[ $MONGO_BACKEND == memory ]] && echo 3g || echo 1g)}
MONGO_LIBS="$INFRA_HOME/mongo-java-server-$MONGO_SERVER_VERSION/libs"
# CMSG_MONGO_DIR puts the pid, log and H2 file elsewhere (a benchmark's throwaway server).
MONGO_DIR="${CMSG_MONGO_DIR:-$INFRA_RUN/mongo-$MONGO_BACKEND-$MONGO_PORT}"
MONGO_PIDFILE="$MONGO_DIR/mongo.pid"
MONGO_LOG="$MONGO_DIR/mongo.log"
MONGO_H2_FILE="$MONGO_DIR/data.mv"
MONGO_DEFAULT_URI="mongodb://$LOOPBACK:$MONGO_PORT/"
MONGO_PATTERN="MongoLauncher.java $MONGO_BACKEND $LOOPBACK $MONGO_PORT"

# Sends an OP_MSG {ping: 1, $db: "admin"} and succeeds on a reply to it with ok: 1.0.
mongo_ping_ok() {
  # shellcheck disable=SC2016
  timeout 5 bash -c '
    exec 3<>"/dev/tcp/$1/$2" || exit 1
    # header: length=51 requestID=42 responseTo=0 opCode=2013 | flags=0 | kind 0 | BSON doc
    printf "\x33\x00\x00\x00\x2a\x00\x00\x00\x00\x00\x00\x00\xdd\x07\x00\x00\x00\x00\x00\x00\x00" >&3
    printf "\x1e\x00\x00\x00\x10ping\x00\x01\x00\x00\x00\x02\x24db\x00\x06\x00\x00\x00admin\x00\x00" >&3
    hdr=$(head -c 16 <&3 | od -An -v -tx1 | tr -d " \n")
    [[ ${#hdr} -eq 32 && ${hdr:16:8} == 2a000000 && ${hdr:24:8} == dd070000 ]] || exit 1
    len=$((16#${hdr:6:2}${hdr:4:2}${hdr:2:2}${hdr:0:2}))
    ((len > 16 && len < 65536)) || exit 1
    body=$(head -c $((len - 16)) <&3 | od -An -v -tx1 | tr -d " \n")
    # element: double "ok" = 1.0
    [[ $body == *016f6b00000000000000f03f* ]]' _ "$LOOPBACK" "$MONGO_PORT" 2>/dev/null
}

_MONGO_PID=
mongo_ready_or_dead() {
  if [[ -n $_MONGO_PID ]] && ! kill -0 "$_MONGO_PID" 2>/dev/null; then
    show_log_tail "$MONGO_LOG"
    die "mongo-java-server exited during startup"
  fi
  mongo_ping_ok
}

mongo_install() {
  if ! command -v java >/dev/null 2>&1; then
    apt_install openjdk-17-jre-headless
  fi
  if [[ -f "$MONGO_LIBS/.complete" && -f "$MONGO_LIBS/mongo-java-server-core-$MONGO_SERVER_VERSION.jar" ]]; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || apt_install maven
  log "mongo: fetching mongo-java-server $MONGO_SERVER_VERSION jars from Maven Central into $MONGO_LIBS"
  local tmp="$MONGO_LIBS.tmp.$$" mvnlog="$INFRA_HOME/mongo-java-server-$MONGO_SERVER_VERSION/mvn.log"
  mkdir -p "$(dirname "$MONGO_LIBS")"
  rm -rf "$tmp"
  if ! mvn -B -q -f "$INFRA_DIR/mongo/pom.xml" -Dmongo-java-server.version="$MONGO_SERVER_VERSION" \
    dependency:copy-dependencies -DoutputDirectory="$tmp" -DincludeScope=runtime \
    >"$mvnlog" 2>&1; then
    rm -rf "$tmp"
    show_log_tail "$mvnlog"
    die "mvn could not fetch the mongo-java-server jars"
  fi
  [[ -f "$tmp/mongo-java-server-core-$MONGO_SERVER_VERSION.jar" ]] || die "mvn did not produce mongo-java-server-core-$MONGO_SERVER_VERSION.jar"
  touch "$tmp/.complete"
  rm -rf "$MONGO_LIBS"
  mv "$tmp" "$MONGO_LIBS"
}

mongo_up() {
  if [[ -n ${MONGODB_URI:-} ]]; then
    log "mongo: MONGODB_URI is set ($MONGODB_URI), not starting mongo-java-server"
    return 0
  fi
  local pid
  if pid=$(pid_from_file "$MONGO_PIDFILE" "$MONGO_PATTERN"); then
    _MONGO_PID=$pid
    wait_for 60 "mongo-java-server (pid $pid)" "$MONGO_LOG" mongo_ready_or_dead
    log "mongo: already running (pid $pid, $MONGO_BACKEND backend) on $LOOPBACK:$MONGO_PORT"
    return 0
  fi
  if port_open "$MONGO_PORT"; then
    mongo_ping_ok || die "port $MONGO_PORT is taken by something that does not speak the MongoDB protocol"
    log "mongo: reusing the MongoDB endpoint already answering on $LOOPBACK:$MONGO_PORT (not started by us)"
    return 0
  fi
  mongo_install
  mkdir -p "$MONGO_DIR"
  [[ -f $MONGO_LOG ]] && mv -f "$MONGO_LOG" "$MONGO_LOG.1"
  log "mongo: starting mongo-java-server $MONGO_SERVER_VERSION ($MONGO_BACKEND backend, heap $MONGO_HEAP) on $LOOPBACK:$MONGO_PORT"
  local -a args=(memory "$LOOPBACK" "$MONGO_PORT")
  [[ $MONGO_BACKEND == h2 ]] && args=(h2 "$LOOPBACK" "$MONGO_PORT" "$MONGO_H2_FILE")
  launch_bg "$MONGO_PIDFILE" "$MONGO_LOG" \
    java "-Xmx$MONGO_HEAP" -XX:+UseG1GC -Djava.net.preferIPv4Stack=true \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$MONGO_LIBS/*" "$INFRA_DIR/mongo/MongoLauncher.java" "${args[@]}"
  _MONGO_PID=$(<"$MONGO_PIDFILE")
  wait_for 90 "mongo-java-server" "$MONGO_LOG" mongo_ready_or_dead
  log "mongo: ready"
}

mongo_down() {
  [[ -n ${MONGODB_URI:-} ]] && return 0
  # SIGTERM runs the launcher's shutdown hook, which closes the H2 store cleanly.
  stop_pid mongo "$MONGO_PIDFILE" "$MONGO_PATTERN" 30
}

# The selected server, then every other one started in this cache: the demo's H2 server and the
# memory server that tests and benchmarks start sit on different ports, and `down` (npm stop)
# must not leave either running because CMSG_MONGO_BACKEND named the other.
mongo_down_all() {
  [[ -n ${MONGODB_URI:-} ]] && return 0
  mongo_down
  local pidfile
  for pidfile in "$INFRA_RUN"/mongo-*/mongo.pid; do
    [[ -f $pidfile && $pidfile != "$MONGO_PIDFILE" ]] || continue
    stop_pid "mongo (${pidfile%/mongo.pid})" "$pidfile" "MongoLauncher.java" 30
  done
}

mongo_status() {
  local pid
  if [[ -n ${MONGODB_URI:-} ]]; then
    printf '%-10s %-8s %s\n' mongo external "$MONGODB_URI (MONGODB_URI override)"
  elif pid=$(pid_from_file "$MONGO_PIDFILE" "$MONGO_PATTERN" 2>/dev/null) && mongo_ping_ok; then
    printf '%-10s %-8s %s\n' mongo running "$MONGO_DEFAULT_URI ($MONGO_BACKEND backend, pid $pid)"
  elif mongo_ping_ok; then
    printf '%-10s %-8s %s\n' mongo running "$MONGO_DEFAULT_URI (not started by us)"
  else
    printf '%-10s %-8s %s\n' mongo stopped "$MONGO_DEFAULT_URI ($MONGO_BACKEND backend)"
  fi
}

mongodb_uri() { printf '%s\n' "${MONGODB_URI:-$MONGO_DEFAULT_URI}"; }
