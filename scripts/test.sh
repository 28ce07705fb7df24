#!/usr/bin/env bash
# The whole test suite: dependencies, build, every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/install-package.sh   # the installed package is tested too (tests/python/test_installed_package.py)
cd "${RACER_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)"
