"""Regenerates tests/cases/ptx/amax_triton/<kernel>.sm90.ptx from kernels/amax_triton.py without a
GPU (Triton 3.6, sm_90, 1 warp, BLOCK 64). Params: x, out, n (.u32), then Triton's two scratch
pointers (passed as { null = true }).

usage: python3 tests/cases/kernels/build_amax_triton_ptx.py
"""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import amax_triton as at
from triton_sm90 import compile_sm90


def main():
    outdir = os.path.join(here, "..", "ptx", "amax_triton")
    os.makedirs(outdir, exist_ok=True)
    for name in at.KERNELS:
        with open(os.path.join(outdir, f"{name}.sm90.ptx"), "w") as f:
            f.write(compile_sm90(getattr(at, name), ["*fp32", "*fp32", "i32", "constexpr"], {"BLOCK": 64})[1])
        print(f"ptx/amax_triton/{name}.sm90.ptx")


if __name__ == "__main__":
    main()
