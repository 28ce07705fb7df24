#!/usr/bin/env bash
# Regenerates tests/cases/ptx/hb.sm90a.ptx from hb.cu (the t_hb_* cases). No GPU needed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../ptx"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
"$nvcc" -ptx -arch=sm_90a -O3 -lineinfo "$here/hb.cu" -o "$out/hb.sm90a.ptx"
sed -i "s#\"$here/#\"tests/cases/kernels/hb/#" "$out/hb.sm90a.ptx"
echo "ptx/hb.sm90a.ptx"
