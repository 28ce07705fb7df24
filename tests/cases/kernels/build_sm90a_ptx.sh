#!/usr/bin/env bash
# Usage: build_sm90a_ptx.sh NAME. Compiles tests/cases/kernels/NAME/NAME.cu for sm_90a into
# tests/cases/ptx/NAME.sm90a.ptx, with the source paths in its line info made relative to the
# repository (the same bytes on every machine). No GPU needed.
set -euo pipefail
name="$1"
kernels="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
here="$kernels/$name"
out="$kernels/../ptx"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
"$nvcc" -ptx -arch=sm_90a -O3 -lineinfo "$here/$name.cu" -o "$out/$name.sm90a.ptx"
sed -i "s#\"$here/#\"tests/cases/kernels/$name/#" "$out/$name.sm90a.ptx"
echo "ptx/$name.sm90a.ptx"
