#!/usr/bin/env bash
# Compiles every implementation source here to PTX (sm_90, as committed beside it). Needs nvcc,
# no GPU. Run after editing a .cu file; the PTX is committed so users need no CUDA toolkit.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
for src in *.cu; do
  "$NVCC" -arch=sm_90 -ptx -O3 -o "${src%.cu}.ptx" "$src"
done
