#!/usr/bin/env bash
# Regenerates tests/cases/ptx/<family>.sm90.ptx from tests/cases/kernels/<family>.cu.
# The PTX files are committed: the cases read them, and nothing at test time needs nvcc.
# Usage: bash tests/cases/kernels/build_ptx.sh   (from anywhere; NVCC overrides the compiler)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../ptx"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
mkdir -p "$out"
for src in "$here"/*.cu; do
  family="$(basename "$src" .cu)"
  "$nvcc" -ptx -arch=sm_90 -O3 -lineinfo "$src" -o "$out/$family.sm90.ptx"
  # nvcc records the absolute source path in the .file line; keep the output independent of
  # where the repository is checked out.
  sed -i "s#\"$here/#\"tests/cases/kernels/#" "$out/$family.sm90.ptx"
  echo "ptx/$family.sm90.ptx"
done
