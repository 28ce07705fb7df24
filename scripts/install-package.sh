#!/usr/bin/env bash
# `pip install .` for the interpreter Racer's tests and users run (python3 on PATH, or $PYTHON):
# the racer package with its compiled core and the racer command (pyproject.toml). It builds in
# the same build/ as scripts/build.sh, so after a build it only packs the wheel and installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
args=(-m pip install -q --no-build-isolation -C "build-dir=${RACER_BUILD_DIR:-build}" .)
# A Debian system interpreter refuses pip without the flag (PEP 668: EXTERNALLY-MANAGED).
if "$PY" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
  args+=(--break-system-packages)
fi
"$PY" "${args[@]}"
echo "install-package: $("$PY" -m racer --version) -> $("$PY" -c 'import os, racer; print(os.path.dirname(racer.__file__))')"
