#!/usr/bin/env bash
# Installs everything Racer needs on a fresh Debian 12 machine; a no-op when all is present.
set -euo pipefail
APT_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  libgmp-dev libflint-dev libflint-arb-dev libz3-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev libtbb-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  pybind11-dev python3-dev libsodium-dev libblas-dev
  clang libclang-rt-14-dev
)
TRITON_VERSION=3.6.0

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: apt packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

PY=${PYTHON:-python3}
if ! "$PY" -c "import triton, sys; sys.exit(triton.__version__ != '$TRITON_VERSION')" 2>/dev/null; then
  echo "install-deps: pip triton==$TRITON_VERSION"
  "$PY" -m pip install -q "triton==$TRITON_VERSION"
fi
