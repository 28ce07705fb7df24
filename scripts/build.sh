#!/usr/bin/env bash
# Configures (once) and builds Racer into build/. Extra arguments go to the build step (targets).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${RACER_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=${RACER_BUILD_TYPE:-RelWithDebInfo} \
    -DRACER_WERROR=${RACER_WERROR:-ON}
fi
if (($#)); then set -- --target "$@"; fi
cmake --build "$BUILD_DIR" -j "${RACER_JOBS:-$(nproc)}" "$@"
