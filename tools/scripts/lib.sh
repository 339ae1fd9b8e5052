# shellcheck shell=bash
# Shared by start.sh, stop.sh and test.sh. Sourced from the workspace root, never executed.

export NX_DAEMON=false NX_NO_CLOUD=true

# The product's processes, in start order (stop goes the other way). An app whose project does
# not exist yet is skipped.
APPS=(conversations scheduler actions-runner gateway)
RUN_DIR=.run
LOG_DIR=$RUN_DIR/logs

log() { printf '[cmsg] +%ss %s\n' "$SECONDS" "$*" >&2; }

die() {
  log "ERROR: $*"
  exit 1
}

# Prints the last lines of a log file to stderr.
show_tail() {
  local file=$1 lines=${2:-30}
  [[ -f $file ]] || return 0
  log "--- last $lines lines of $file ---"
  tail -n "$lines" "$file" >&2
}

# Installs dependencies exactly as package-lock.json says when node_modules is missing or older than
# package.json or the lock file. `npm ci` never writes the lock file, so `npm start` and `npm test`
# leave the tree as it was (`npm install` may rewrite it, e.g. npm 10 drops the `libc` fields npm 11
# writes). A package.json edited without its lock file makes `npm ci` stop with npm's own message:
# run `npm install` yourself then, and commit package-lock.json.
ensure_node_modules() {
  local installed=node_modules/.package-lock.json
  if [[ ! -f $installed || package-lock.json -nt $installed || package.json -nt $installed ]]; then
    log "installing dependencies (npm ci, exactly as package-lock.json says)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

# protoc for the generated-code drift check, from Debian (the well-known .proto files come with
# libprotobuf-dev); a fresh machine has neither.
ensure_protoc() {
  command -v protoc >/dev/null 2>&1 && return 0
  log "installing protoc (Debian protobuf-compiler, libprotobuf-dev)"
  (source tools/infra/lib/common.sh && apt_install protobuf-compiler libprotobuf-dev)
}

# Headless Chromium for the API reference's browser test, from Debian (Playwright's own browser
# download reaches a host this machine cannot); the test drives it with playwright-core.
ensure_chromium() {
  command -v chromium >/dev/null 2>&1 && return 0
  log "installing Chromium (Debian chromium) for the browser tests"
  (source tools/infra/lib/common.sh && apt_install chromium)
}

# Schemathesis (PyPI, every package pinned in tools/fuzz/requirements.txt) in a virtual environment
# kept across runs in the user's cache, made anew when the requirements change. Exports
# CMSG_SCHEMATHESIS, the command the fuzz spec runs.
SCHEMATHESIS_VENV=${CMSG_SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/cmsg/schemathesis-venv}
ensure_schemathesis() {
  local wanted stamp=$SCHEMATHESIS_VENV/requirements.sha256
  wanted=$(sha256sum <tools/fuzz/requirements.txt)
  if [[ ! -x $SCHEMATHESIS_VENV/bin/schemathesis || $(cat "$stamp" 2>/dev/null) != "$wanted" ]]; then
    log "installing Schemathesis into $SCHEMATHESIS_VENV (PyPI, tools/fuzz/requirements.txt)"
    python3 -m venv --help >/dev/null 2>&1 || (source tools/infra/lib/common.sh && apt_install python3-venv)
    rm -rf "$SCHEMATHESIS_VENV"
    python3 -m venv "$SCHEMATHESIS_VENV"
    "$SCHEMATHESIS_VENV/bin/pip" install --quiet --disable-pip-version-check -r tools/fuzz/requirements.txt
    printf '%s\n' "$wanted" >"$stamp"
  fi
  export CMSG_SCHEMATHESIS=$SCHEMATHESIS_VENV/bin/schemathesis
}

# Starts Redis, Kafka and the local MongoDB (mongo-java-server) and exports MONGODB_URI, KAFKA_BROKERS, REDIS_URL.
infra_up() {
  bash tools/infra/infra.sh up
  local exports
  exports=$(bash tools/infra/infra.sh env)
  eval "$exports"
}

# The URI naming <database> when it names none (infra.sh env prints the server only).
mongo_uri_with_default_db() {
  local uri=$1 db=$2 base query=''
  base=${uri%%\?*}
  if [[ $uri == *\?* ]]; then query="?${uri#*\?}"; fi
  local path=${base#*://}
  if [[ $path == */* && -n ${path#*/} ]]; then
    printf '%s\n' "$uri"
  else
    printf '%s/%s%s\n' "${base%/}" "$db" "$query"
  fi
}

# Apps whose Nx project exists.
existing_apps() {
  local app
  for app in "${APPS[@]}"; do
    if [[ -f apps/$app/project.json ]]; then printf '%s\n' "$app"; fi
  done
}

# Builds the existing apps and the admin tool into dist/; the Nx output goes to a log file.
build_projects() {
  local projects
  projects=$(existing_apps | paste -sd, -)
  projects=${projects:+$projects,}admin
  mkdir -p "$LOG_DIR"
  log "building $projects"
  if ! npx nx run-many -t build --projects="$projects" --outputStyle=static >"$LOG_DIR/build.log" 2>&1; then
    cat "$LOG_DIR/build.log" >&2
    die "build failed (log: $LOG_DIR/build.log)"
  fi
}

# Prints the pid of <app> when the process recorded in its pidfile is alive and is that app.
app_pid() {
  local app=$1 pidfile=$RUN_DIR/$1.pid pid
  [[ -f $pidfile ]] || return 1
  pid=$(tr -dc '0-9' <"$pidfile")
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "dist/apps/$app/main.js"; then
    printf '%s\n' "$pid"
    return 0
  fi
  rm -f "$pidfile"
  return 1
}

port_open() {
  # shellcheck disable=SC2016 # $1 expands in the inner shell, which gets the port as an argument.
  timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$1" 2>/dev/null
}
