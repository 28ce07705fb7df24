"""Compiles tc_triton.py's kernels without a GPU (Triton 3.6) into tests/cases/ptx/tc_triton/:
attention at SEQ 32, D 16 (BLOCK 16: two KV blocks) for sm_80 (mma.sync), 64 queries over 32
keys, D 16 for sm_90 (BLOCK_M 64, BLOCK_N 16: wgmma, two KV blocks),
with and without the rescaling, at SEQ 16 (one KV block, the bug of t_tc_16), and at SEQ 64, D 64 (BLOCK 32) for the benchmark.
Params: Q, K, V, Out, then Triton's two scratch pointers ({ null = true })."""
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import tc_triton  # noqa: E402

VARIANTS = [  # file, arch, SEQ_KV, D, BLOCK_M, BLOCK_N, RESCALE, warps
    ("attn_s32_d16.sm80", 80, 32, 16, 16, 16, True, 1),
    ("attn_s32_d16_norescale.sm80", 80, 32, 16, 16, 16, False, 1),
    ("attn_s16_d16.sm80", 80, 16, 16, 16, 16, True, 1),  # run over 32 keys: stops after the first KV block
    ("attn_q64_kv32_d16.sm90", 90, 32, 16, 64, 16, True, 4),  # wgmma: one warpgroup, 64 query rows
    ("attn_s64_d64.sm80", 80, 64, 64, 32, 32, True, 4),
]


def main():
    out = os.path.join(here, "..", "..", "ptx", "tc_triton")
    os.makedirs(out, exist_ok=True)
    for name, arch, seq, d, block_m, block_n, rescale, warps in VARIANTS:
        sig = {"Q": "*fp16", "Kp": "*fp16", "V": "*fp16", "Out": "*fp32", "SEQ_KV": "constexpr", "D": "constexpr",
               "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "SCALE": "constexpr", "RESCALE": "constexpr"}
        consts = {"SEQ_KV": seq, "D": d, "BLOCK_M": block_m, "BLOCK_N": block_n, "SCALE": 1.0 / d ** 0.5, "RESCALE": rescale}
        src = ASTSource(fn=tc_triton.attn_fwd, signature=sig, constexprs=consts)
        k = triton.compile(src, target=GPUTarget("cuda", arch, 32), options={"num_warps": warps, "num_stages": 1})
        ptx = k.asm["ptx"].replace('"' + here + '/', '"tests/cases/kernels/tc/')
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(ptx)
        print("ptx/tc_triton/%s.ptx: shared_bytes = %d" % (name, k.metadata.shared))


if __name__ == "__main__":
    main()
