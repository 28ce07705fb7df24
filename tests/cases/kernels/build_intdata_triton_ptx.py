"""Regenerates tests/cases/ptx/intdata_triton/<kernel>.sm90.ptx from kernels/intdata_triton.py
without a GPU (Triton 3.6, sm_90, 1 warp, BLOCK 32, int32 pointers).

usage: python3 tests/cases/kernels/build_intdata_triton_ptx.py
"""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import intdata_triton as it
from triton_sm90 import compile_sm90


def compile_one(name, nptr_in):
    return compile_sm90(getattr(it, name), ["*i32"] * (nptr_in + 1) + ["i32", "constexpr"], {"BLOCK": 32})[1]


def main():
    outdir = os.path.join(here, "..", "ptx", "intdata_triton")
    os.makedirs(outdir, exist_ok=True)
    for name, nin in it.KERNELS.items():
        with open(os.path.join(outdir, f"{name}.sm90.ptx"), "w") as f:
            f.write(compile_one(name, nin))
        print(f"ptx/intdata_triton/{name}.sm90.ptx")


if __name__ == "__main__":
    main()
