#!/usr/bin/env bash
# Regenerates tests/cases/ptx/cluster.sm90a.ptx from cluster.cu. No GPU needed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../ptx"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
"$nvcc" -ptx -arch=sm_90a -O3 -lineinfo "$here/cluster.cu" -o "$out/cluster.sm90a.ptx"
sed -i "s#\"$here/#\"tests/cases/kernels/cluster/#" "$out/cluster.sm90a.ptx"
echo "ptx/cluster.sm90a.ptx"
