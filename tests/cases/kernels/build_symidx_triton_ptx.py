"""Regenerates tests/cases/ptx/symidx_triton/<kernel>.sm90.ptx from kernels/symidx_triton.py
without a GPU (Triton 3.6, sm_90, 1 warp, BLOCK 32).

usage: python3 tests/cases/kernels/build_symidx_triton_ptx.py
"""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import symidx_triton as st
from triton_sm90 import compile_sm90


def compile_one(name, pointers):
    return compile_sm90(getattr(st, name), pointers + ["i32", "constexpr"], {"BLOCK": 32})[1]


def main():
    outdir = os.path.join(here, "..", "ptx", "symidx_triton")
    os.makedirs(outdir, exist_ok=True)
    for name, pointers in st.KERNELS.items():
        with open(os.path.join(outdir, f"{name}.sm90.ptx"), "w") as f:
            f.write(compile_one(name, pointers))
        print(f"ptx/symidx_triton/{name}.sm90.ptx")


if __name__ == "__main__":
    main()
