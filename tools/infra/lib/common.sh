# shellcheck shell=bash
# Shared helpers for tools/infra/infra.sh. Sourced, never executed.

INFRA_HOME="${CMSG_INFRA_HOME:-${HOME:?HOME is not set}/.cache/cmsg-infra}"
INFRA_RUN="$INFRA_HOME/run"
LOOPBACK=127.0.0.1

log() { printf '[infra] %s\n' "$*" >&2; }

die() {
  log "ERROR: $*"
  exit 1
}

# Print the last lines of a log file to stderr (for failure reports).
show_log_tail() {
  local file=$1 lines=${2:-40}
  if [[ -f $file && ! -s $file ]]; then
    log "(log file $file is empty)"
  elif [[ -f $file ]]; then
    log "--- last $lines lines of $file ---"
    tail -n "$lines" "$file" | sed 's/^/[infra]   /' >&2 || true
    log "--- end of $file ---"
  else
    log "(no log file at $file)"
  fi
}

# True when something accepts TCP connections on 127.0.0.1:<port>.
port_open() {
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$LOOPBACK" "$1" 2>/dev/null
}

# Install Debian packages; `apt-get update` runs at most once per invocation.
_APT_UPDATED=0
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install $* yourself"
  [[ $(id -u) -eq 0 ]] || die "installing $* with apt-get needs root"
  if [[ $_APT_UPDATED -eq 0 ]]; then
    log "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null ||
      die "apt-get update failed"
    _APT_UPDATED=1
  fi
  log "apt-get install -y $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null ||
    die "apt-get install $* failed"
}

# pid_from_file <pidfile> <cmdline-pattern>
# Prints the pid recorded in <pidfile> when that process is alive and its command line
# matches <pattern>; otherwise removes the stale pidfile and returns 1.
pid_from_file() {
  local pidfile=$1 pattern=$2 pid cmdline
  [[ -f $pidfile ]] || return 1
  pid=$(head -n 1 "$pidfile" 2>/dev/null | tr -dc '0-9')
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
    if [[ $cmdline == *"$pattern"* ]]; then
      printf '%s\n' "$pid"
      return 0
    fi
  fi
  log "removing stale pidfile $pidfile"
  rm -f "$pidfile"
  return 1
}

# wait_for <seconds> <description> <logfile> <command...>
# Polls <command> until it succeeds; on timeout prints the log tail and exits.
wait_for() {
  local secs=$1 what=$2 logfile=$3
  shift 3
  local deadline=$((SECONDS + secs))
  until "$@"; do
    if ((SECONDS >= deadline)); then
      show_log_tail "$logfile"
      die "$what did not become ready within ${secs}s"
    fi
    sleep 0.5
  done
}

# stop_pid <name> <pidfile> <cmdline-pattern> [timeout-seconds]
# SIGTERM, wait, then SIGKILL. Only touches a process recorded in our pidfile.
stop_pid() {
  local name=$1 pidfile=$2 pattern=$3 secs=${4:-30} pid deadline
  if ! pid=$(pid_from_file "$pidfile" "$pattern"); then
    log "$name: not running (nothing to stop)"
    return 0
  fi
  log "$name: stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + secs))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      log "$name: still alive after ${secs}s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.3
  done
  rm -f "$pidfile"
}

# Shell snippet that closes every file descriptor above 2: servers must not keep the
# caller's pipes (e.g. a CI step's output) or our lock file open.
_CLOSE_FDS='for _fd in /proc/$$/fd/*; do _fd=${_fd##*/}; if ((_fd > 2)); then eval "exec ${_fd}>&-"; fi; done'

# exec_clean <command...>: runs <command> with only stdin/stdout/stderr open.
exec_clean() {
  bash -c "$_CLOSE_FDS"'; exec "$@"' _ "$@"
}

# launch_bg <pidfile> <logfile> <command...>
# Starts <command> detached (own session, stdin from /dev/null, output to <logfile>)
# and waits until <pidfile> holds its pid.
launch_bg() {
  local pidfile=$1 logfile=$2
  shift 2
  rm -f "$pidfile"
  # The inner shell records its own pid and then execs the server, so the pid stays valid.
  setsid bash -c "$_CLOSE_FDS"'; echo $$ >"$1"; shift; exec "$@"' _ "$pidfile" "$@" \
    </dev/null >>"$logfile" 2>&1 &
  local i
  for i in $(seq 1 50); do
    [[ -s $pidfile ]] && return 0
    sleep 0.1
  done
  die "could not start $1 (no pidfile $pidfile)"
}
