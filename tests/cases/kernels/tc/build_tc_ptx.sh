#!/usr/bin/env bash
# Regenerates tests/cases/ptx/tc.sm90a.ptx from tc.cu (sm_90a: wgmma) and the Triton kernels
# of tc_triton.py into tests/cases/ptx/tc_triton/. No GPU needed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../ptx"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
"$nvcc" -ptx -arch=sm_90a -O3 -lineinfo "$here/tc.cu" -o "$out/tc.sm90a.ptx"
sed -i "s#\"$here/#\"tests/cases/kernels/tc/#" "$out/tc.sm90a.ptx"
echo "ptx/tc.sm90a.ptx"
if [ -f "$here/build_tc_triton.py" ]; then python3 "$here/build_tc_triton.py"; fi
