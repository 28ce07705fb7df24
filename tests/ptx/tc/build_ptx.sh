#!/usr/bin/env bash
# Regenerates kernels.cu / manifest.json and compiles the kernels to PTX for sm_90a (wgmma
# needs the "a" target). No GPU needed.
set -euo pipefail
cd "$(dirname "$0")"
python3 gen_cases.py
/usr/local/cuda/bin/nvcc -ptx -arch=sm_90a -O3 -o kernels.sm90a.ptx kernels.cu
