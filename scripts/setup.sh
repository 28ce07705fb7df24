#!/usr/bin/env bash
# A newcomer's first command: install what is needed, build, and run Racer on a bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/install-package.sh   # pip install . (reuses build/)
echo
echo "== python3 -m racer check examples/vec_add_check.toml"
"${PYTHON:-python3}" -m racer check examples/vec_add_check.toml
