#!/usr/bin/env bash
# Renders deploy/k8s (the base, every overlay, and every overlay with each optional component) with
# kustomize and validates the output offline:
#   - kubernetes-validate --strict against the Kubernetes $K8S_VERSION schemas (unknown fields are errors);
#   - crd-check for the Prometheus Operator kinds, which those schemas do not know;
#   - check-manifests.py: per-app requirements, configuration coverage, alerts and runbook.
# The rendered files stay in .run/rendered-manifests/ for a look. Part of npm test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=tools/deploy/deploy-tools.sh
source tools/deploy/deploy-tools.sh

K8S_VERSION=1.30.0
K8S=deploy/k8s
OUT=.run/rendered-manifests

ensure_deploy_tools
rm -rf "$OUT"
mkdir -p "$OUT"

# render <name> <kustomization dir>
render() {
  "$KUSTOMIZE" build "$2" >"$OUT/$1.yaml"
  printf '%s\n' "$OUT/$1.yaml"
}

# render_with_component <name> <overlay dir> <component dir>: a throwaway kustomization beside the
# output (kustomize accepts relative paths only) that adds the component to the overlay.
render_with_component() {
  local dir="$OUT/$1.kustomization"
  mkdir -p "$dir"
  cat >"$dir/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - $(realpath --relative-to="$dir" "$2")
components:
  - $(realpath --relative-to="$dir" "$3")
EOF
  render "$1" "$dir"
}

rendered=("$(render base "$K8S/base")")
for overlay in "$K8S"/overlays/*/; do
  overlay=${overlay%/}
  rendered+=("$(render "${overlay##*/}" "$overlay")")
  for component in "$K8S"/components/*/; do
    component=${component%/}
    rendered+=("$(render_with_component "${overlay##*/}+${component##*/}" "$overlay" "$component")")
  done
done

status=0
for file in "${rendered[@]}"; do
  printf '== %s\n' "$file"
  report=$("${DEPLOY_PYTHON%/python}/kubernetes-validate" --strict --kubernetes-version "$K8S_VERSION" "$file") || status=1
  printf '%s\n' "$report"
  # A kind without a Kubernetes schema is only a warning to kubernetes-validate: accept it for the
  # Prometheus Operator kinds, which crd-check validates, and fail on any other.
  if grep -v -E '^INFO .* passed for resource |^WARN .* for kind [A-Za-z]+ with api version monitoring\.coreos\.com/v1 ' <<<"$report" | grep -q .; then
    status=1
  fi
  "$CRD_CHECK" <"$file" || status=1
  "$DEPLOY_PYTHON" tools/deploy/check-manifests.py "$file" || status=1
done
if ((status != 0)); then
  echo "FAILED: the rendered manifests do not validate (see the ERROR lines above)"
  exit 1
fi
echo "OK: ${#rendered[@]} renderings validate against Kubernetes $K8S_VERSION (strict) and the cmsg checks"
