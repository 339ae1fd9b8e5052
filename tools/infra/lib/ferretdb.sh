# shellcheck shell=bash
# FerretDB 1.x (MongoDB wire protocol) on a private PostgreSQL cluster from Debian.

FERRETDB_VERSION=v1.24.2
FERRETDB_MODULE=github.com/FerretDB/FerretDB
FERRETDB_PORT=27117
FERRETDB_BIN="$INFRA_HOME/ferretdb-$FERRETDB_VERSION/bin/ferretdb"
FERRETDB_DIR="$INFRA_RUN/ferretdb"
FERRETDB_PIDFILE="$FERRETDB_DIR/ferretdb.pid"
FERRETDB_LOG="$FERRETDB_DIR/ferretdb.log"
FERRETDB_DEFAULT_URI="mongodb://$LOOPBACK:$FERRETDB_PORT/"

PG_PORT=15432
PG_LINK="$INFRA_RUN/postgres"   # a directory, or a symlink to one (see pg_prepare_dir)

# Sets PG_DIR/PG_DATA/PG_SOCK/PG_LOG to the real (symlink-free) paths, which the postgres
# user can reach even when $INFRA_RUN is not reachable by it.
pg_paths() {
  PG_DIR=$PG_LINK
  [[ -L $PG_LINK ]] && PG_DIR=$(readlink -f "$PG_LINK")
  PG_DATA="$PG_DIR/data"
  PG_SOCK="$PG_DIR/sock"
  PG_LOG="$PG_DIR/postgres.log"
}
pg_paths
# FerretDB's pool (50 by default) holds a connection per matched statement of a multi-statement
# update until the command ends; more room than that default (PostgreSQL allows 200).
PG_URL="postgres://postgres@$LOOPBACK:$PG_PORT/ferretdb?pool_max_conns=150"

pg_bin_dir() {
  if [[ -x /usr/lib/postgresql/15/bin/postgres ]]; then
    echo /usr/lib/postgresql/15/bin
    return 0
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [[ -n $d && -x $d/postgres ]] || return 1
  echo "$d"
}

# Runs a command as the postgres user from a directory it can read.
as_postgres() { (cd / && runuser -u postgres -- "$@"); }

pg_isready_ok() {
  "$PG_BIN/pg_isready" -q -h "$LOOPBACK" -p "$PG_PORT" -U postgres -d postgres -t 2 >/dev/null 2>&1
}

pg_psql() {
  "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$LOOPBACK" -p "$PG_PORT" -U postgres "$@"
}

# Sends an OP_MSG {hello: 1, $db: "admin"} and succeeds on a reply to it with ok: 1.0.
mongo_hello_ok() {
  # shellcheck disable=SC2016
  timeout 5 bash -c '
    exec 3<>"/dev/tcp/$1/$2" || exit 1
    # header: length=52 requestID=42 responseTo=0 opCode=2013 | flags=0 | kind 0 | BSON doc
    printf "\x34\x00\x00\x00\x2a\x00\x00\x00\x00\x00\x00\x00\xdd\x07\x00\x00\x00\x00\x00\x00\x00" >&3
    printf "\x1f\x00\x00\x00\x10hello\x00\x01\x00\x00\x00\x02\x24db\x00\x06\x00\x00\x00admin\x00\x00" >&3
    hdr=$(head -c 16 <&3 | od -An -v -tx1 | tr -d " \n")
    [[ ${#hdr} -eq 32 && ${hdr:16:8} == 2a000000 && ${hdr:24:8} == dd070000 ]] || exit 1
    len=$((16#${hdr:6:2}${hdr:4:2}${hdr:2:2}${hdr:0:2}))
    ((len > 16 && len < 65536)) || exit 1
    body=$(head -c $((len - 16)) <&3 | od -An -v -tx1 | tr -d " \n")
    # element: double "ok" = 1.0
    [[ $body == *016f6b00000000000000f03f* ]]' _ "$LOOPBACK" "$FERRETDB_PORT" 2>/dev/null
}

ferretdb_ready() { mongo_hello_ok && pg_isready_ok; }

ferretdb_ready_or_dead() {
  if [[ -n ${_FERRETDB_PID:-} ]] && ! kill -0 "$_FERRETDB_PID" 2>/dev/null; then
    show_log_tail "$FERRETDB_LOG"
    die "FerretDB exited during startup"
  fi
  ferretdb_ready
}

postgres_install() {
  if ! PG_BIN=$(pg_bin_dir); then
    apt_install postgresql
    PG_BIN=$(pg_bin_dir) || die "PostgreSQL binaries not found after apt-get install postgresql"
  fi
  getent passwd postgres >/dev/null || die "user 'postgres' does not exist (install the postgresql package)"
}

ferretdb_install() {
  [[ -x $FERRETDB_BIN ]] && return 0
  command -v go >/dev/null 2>&1 || die "go is not installed: needed once to build FerretDB $FERRETDB_VERSION"
  local base="$INFRA_HOME/ferretdb-$FERRETDB_VERSION" dir buildlog
  buildlog="$base/build.log"
  mkdir -p "$base"
  log "ferretdb: downloading $FERRETDB_MODULE@$FERRETDB_VERSION through the Go module proxy"
  # `go install pkg@version` would also ask the proxy for @v/list, which is refused here.
  dir=$(cd "$base" && GOFLAGS=-mod=mod go mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" 2>"$buildlog" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p') || true
  [[ -n $dir && -d $dir ]] || {
    show_log_tail "$buildlog"
    die "go mod download $FERRETDB_MODULE@$FERRETDB_VERSION failed"
  }
  # The module cache copy is read-only and lacks build/version/version.txt, without which
  # the binary panics at start: build from a writable copy with that file added.
  log "ferretdb: building $FERRETDB_VERSION (first time only, takes a minute or two)"
  rm -rf "$base/src" "$base/bin.tmp"
  cp -R "$dir" "$base/src"
  chmod -R u+w "$base/src"
  printf '%s\n' "$FERRETDB_VERSION" >"$base/src/build/version/version.txt"
  if ! (cd "$base/src" && GOBIN="$base/bin.tmp" GOFLAGS="-mod=mod -buildvcs=false" \
    go install ./cmd/ferretdb) >>"$buildlog" 2>&1; then
    show_log_tail "$buildlog"
    die "building FerretDB failed"
  fi
  "$base/bin.tmp/ferretdb" --version >/dev/null 2>>"$buildlog" || {
    show_log_tail "$buildlog"
    die "the FerretDB binary we built does not run"
  }
  rm -rf "$base/bin"
  mv "$base/bin.tmp" "$base/bin"
  rm -rf "$base/src"
}

# PostgreSQL refuses to run as root, so its directory must belong to (and be reachable by)
# the postgres user. When the run dir is not reachable by it (e.g. under a 0700 /root),
# the cluster lives in postgres' home directory and $PG_DIR is a symlink to it.
pg_prepare_dir() {
  mkdir -p "$INFRA_RUN"
  if [[ ! -L $PG_LINK && ! -d $PG_LINK ]]; then
    mkdir -p "$PG_LINK"
    chown postgres: "$PG_LINK"
    if ! as_postgres test -w "$PG_LINK" -a -x "$PG_LINK"; then
      rmdir "$PG_LINK"
      local home hash target
      home=$(getent passwd postgres | cut -d: -f6)
      hash=$(printf '%s' "$INFRA_RUN" | sha256sum | cut -c1-12)
      target="${home:-/var/lib/postgresql}/cmsg-infra-$hash"
      log "postgres: $INFRA_RUN is not reachable by user postgres; cluster goes to $target"
      mkdir -p "$target"
      chown postgres: "$target"
      chmod 700 "$target"
      ln -s "$target" "$PG_LINK"
    fi
  fi
  pg_paths
  as_postgres test -w "$PG_DIR/" || die "$PG_DIR is not writable by user postgres"
  as_postgres mkdir -p "$PG_SOCK"
  as_postgres touch "$PG_LOG"
}

pg_init() {
  [[ -f "$PG_DATA/PG_VERSION" ]] && return 0
  log "postgres: initdb in $PG_DATA"
  as_postgres "$PG_BIN/initdb" -D "$PG_DATA" -U postgres --auth=trust -E UTF8 --no-locale \
    >"$PG_DIR/initdb.log" 2>&1 || {
    show_log_tail "$PG_DIR/initdb.log"
    die "initdb failed"
  }
  printf "\ninclude 'cmsg-infra.conf'\n" | as_postgres tee -a "$PG_DATA/postgresql.conf" >/dev/null
}

pg_write_config() {
  as_postgres tee "$PG_DATA/cmsg-infra.conf" >/dev/null <<EOF
# Generated by tools/infra/lib/ferretdb.sh on every 'up'; edits are overwritten.
listen_addresses = '$LOOPBACK'
port = $PG_PORT
unix_socket_directories = '$PG_SOCK'
max_connections = 200
shared_buffers = 256MB
fsync = on
logging_collector = off
log_min_messages = warning
EOF
  # trust for the unix socket and loopback only
  as_postgres tee "$PG_DATA/pg_hba.conf" >/dev/null <<EOF
# Generated by tools/infra/lib/ferretdb.sh
local   all  all                 trust
host    all  all  127.0.0.1/32   trust
EOF
}

pg_pid() { pid_from_file "$PG_DATA/postmaster.pid" postgres; }

# Starts (or reuses) PostgreSQL and makes sure database ferretdb exists.
postgres_up() {
  postgres_install
  local pid
  if [[ -f "$PG_DATA/postmaster.pid" ]] && pid=$(pg_pid); then
    wait_for 60 "PostgreSQL (pid $pid)" "$PG_LOG" pg_isready_ok
    log "postgres: already running (pid $pid) on $LOOPBACK:$PG_PORT"
  elif pg_isready_ok; then
    log "postgres: reusing the PostgreSQL already answering on $LOOPBACK:$PG_PORT (not started by us)"
  else
    port_open "$PG_PORT" && die "port $PG_PORT is taken by something that is not PostgreSQL"
    pg_prepare_dir
    pg_init
    pg_write_config
    log "postgres: starting on $LOOPBACK:$PG_PORT"
    if ! exec_clean setsid -w runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" \
      -w -t 60 start </dev/null >/dev/null 2>>"$PG_LOG"; then
      show_log_tail "$PG_LOG"
      die "PostgreSQL failed to start"
    fi
    wait_for 60 "PostgreSQL" "$PG_LOG" pg_isready_ok
    log "postgres: ready"
  fi
  if [[ $(pg_psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'") != 1 ]]; then
    log "postgres: creating database ferretdb"
    pg_psql -d postgres -c 'CREATE DATABASE ferretdb' >/dev/null || die "could not create database ferretdb"
  fi
  pg_psql -d ferretdb -f "$INFRA_DIR/lib/ferretdb-gin-companions.sql" >/dev/null ||
    die "could not install the GIN companion indexes trigger (ferretdb-gin-companions.sql)"
}

_FERRETDB_PID=
ferretdb_up() {
  if [[ -n ${MONGODB_URI:-} ]]; then
    log "ferretdb: MONGODB_URI is set ($MONGODB_URI), not starting FerretDB/PostgreSQL"
    return 0
  fi
  postgres_up
  local pid
  if pid=$(pid_from_file "$FERRETDB_PIDFILE" ferretdb); then
    _FERRETDB_PID=$pid
    wait_for 60 "FerretDB (pid $pid)" "$FERRETDB_LOG" ferretdb_ready_or_dead
    log "ferretdb: already running (pid $pid) on $LOOPBACK:$FERRETDB_PORT"
    return 0
  fi
  if port_open "$FERRETDB_PORT"; then
    mongo_hello_ok || die "port $FERRETDB_PORT is taken by something that does not speak the MongoDB protocol"
    log "ferretdb: reusing the MongoDB endpoint already answering on $LOOPBACK:$FERRETDB_PORT (not started by us)"
    return 0
  fi
  ferretdb_install
  mkdir -p "$FERRETDB_DIR/state"
  [[ -f $FERRETDB_LOG ]] && mv -f "$FERRETDB_LOG" "$FERRETDB_LOG.1"
  log "ferretdb: starting FerretDB $FERRETDB_VERSION on $LOOPBACK:$FERRETDB_PORT"
  launch_bg "$FERRETDB_PIDFILE" "$FERRETDB_LOG" \
    "$FERRETDB_BIN" --handler=postgresql --postgresql-url="$PG_URL" \
    --listen-addr="$LOOPBACK:$FERRETDB_PORT" --debug-addr=- \
    --telemetry=disable --state-dir="$FERRETDB_DIR/state" --log-level=warn
  _FERRETDB_PID=$(<"$FERRETDB_PIDFILE")
  wait_for 60 "FerretDB" "$FERRETDB_LOG" ferretdb_ready_or_dead
  log "ferretdb: ready"
}

ferretdb_down() {
  [[ -n ${MONGODB_URI:-} ]] && return 0
  stop_pid ferretdb "$FERRETDB_PIDFILE" ferretdb 30
  local pid
  if [[ -f "$PG_DATA/postmaster.pid" ]] && pid=$(pg_pid); then
    PG_BIN=$(pg_bin_dir) || die "PostgreSQL binaries not found"
    log "postgres: stopping pid $pid (pg_ctl stop -m fast)"
    as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 60 stop >/dev/null 2>>"$PG_LOG" || {
      log "postgres: pg_ctl stop failed, sending SIGTERM/SIGKILL"
      stop_pid postgres "$PG_DATA/postmaster.pid" postgres 30
    }
  else
    log "postgres: not running (nothing to stop)"
  fi
}

ferretdb_status() {
  local pid
  if [[ -n ${MONGODB_URI:-} ]]; then
    printf '%-10s %-8s %s\n' ferretdb external "$MONGODB_URI (MONGODB_URI override)"
    printf '%-10s %-8s %s\n' postgres skipped "(MONGODB_URI override)"
    return 0
  fi
  if pid=$(pid_from_file "$FERRETDB_PIDFILE" ferretdb 2>/dev/null) && mongo_hello_ok; then
    printf '%-10s %-8s %s\n' ferretdb running "$FERRETDB_DEFAULT_URI (pid $pid)"
  elif mongo_hello_ok; then
    printf '%-10s %-8s %s\n' ferretdb running "$FERRETDB_DEFAULT_URI (not started by us)"
  else
    printf '%-10s %-8s %s\n' ferretdb stopped "$FERRETDB_DEFAULT_URI"
  fi
  if PG_BIN=$(pg_bin_dir) && pg_isready_ok; then
    if [[ -f "$PG_DATA/postmaster.pid" ]] && pid=$(pg_pid 2>/dev/null); then
      printf '%-10s %-8s %s\n' postgres running "$LOOPBACK:$PG_PORT (pid $pid)"
    else
      printf '%-10s %-8s %s\n' postgres running "$LOOPBACK:$PG_PORT (not started by us)"
    fi
  else
    printf '%-10s %-8s %s\n' postgres stopped "$LOOPBACK:$PG_PORT"
  fi
}

mongodb_uri() { printf '%s\n' "${MONGODB_URI:-$FERRETDB_DEFAULT_URI}"; }
