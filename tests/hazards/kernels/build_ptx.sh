#!/usr/bin/env bash
# Regenerates tests/hazards/ptx/ from kernels/hazards.cu and kernels/hazards_points.cu (nvcc)
# and kernels/hazards_triton.py (Triton 3.6, compiled for sm_90 without a GPU). The PTX is
# committed: nothing at test time needs nvcc or Triton.  Usage: bash tests/hazards/kernels/build_ptx.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../ptx"
mkdir -p "$out"
"${NVCC:-/usr/local/cuda/bin/nvcc}" -ptx -arch=sm_90 -O3 -lineinfo "$here/hazards.cu" -o "$out/hazards.sm90.ptx"
sed -i "s#\"$here/#\"tests/hazards/kernels/#" "$out/hazards.sm90.ptx"
"${NVCC:-/usr/local/cuda/bin/nvcc}" -ptx -arch=sm_90 -O3 -lineinfo "$here/hazards_points.cu" -o "$out/hazards_points.sm90.ptx"
sed -i "s#\"$here/#\"tests/hazards/kernels/#" "$out/hazards_points.sm90.ptx"
python3 - "$here" "$out" <<'PY'
import os, re, sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
here, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, here)
import hazards_triton as ht
for name, block in ht.KERNELS.items():
    fn = getattr(ht, name)
    sig = dict(zip(fn.arg_names, ["*fp32", "*fp32", "i32", "constexpr"]))
    k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs={"BLOCK": block}),
                       target=GPUTarget("cuda", 90, 32), options={"num_warps": 1, "num_stages": 1})
    ptx = k.asm["ptx"].replace('"' + here + '/', '"tests/hazards/kernels/')
    with open(os.path.join(out, name + ".sm90.ptx"), "w") as f:
        f.write(ptx)
    print("ptx/" + name + ".sm90.ptx", k.metadata.name)
PY
