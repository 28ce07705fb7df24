"""Regenerates tests/cases/ptx/math_triton/<kernel>.sm90.ptx from kernels/math_triton.py and
kernels/loops_triton.py without a GPU.

usage: python3 tests/cases/kernels/build_triton_ptx.py   (Triton 3.6)
Each kernel is compiled for sm_90 (num_warps = 1, num_stages = 1; BLOCK = 32 for math_triton, 16 for
loops_triton, so that a row of 32 takes two iterations, but for loops_triton.BLOCKS); one PTX module per kernel (modules carry
their own .global tables, so they are not concatenated); the entry is renamed to the Python name.
Params of every entry: x, [y,] out, n (.u32), then Triton's two scratch pointers (passed as
{ null = true }).
"""
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import math_triton as mt
import loops_triton as lt
from triton_sm90 import compile_sm90


def compile_one(name, nptr_in, module=mt, block=32):
    k, ptx = compile_sm90(getattr(module, name), ["*fp32"] * (nptr_in + 1) + ["i32", "constexpr"], {"BLOCK": block})
    old = re.escape(k.metadata.name)
    if k.metadata.name != name:  # the unary kernels share one Python body named `k`
        ptx = re.sub(r"(\.entry |\.globl\t|@|// -- Begin function |\b)" + old + r"(\(|_param_\d+|\b)",
                     lambda m: m.group(1) + name + m.group(2), ptx)
    return ptx


def main():
    outdir = os.path.join(here, "..", "ptx", "math_triton")
    os.makedirs(outdir, exist_ok=True)
    for names, nin in ((mt.UNARY, 1), (mt.BINARY, 2)):
        for name in names:
            with open(os.path.join(outdir, f"{name}.sm90.ptx"), "w") as f:
                f.write(compile_one(name, nin))
            print(f"ptx/math_triton/{name}.sm90.ptx")
    for name in lt.KERNELS:
        with open(os.path.join(outdir, f"{name}.sm90.ptx"), "w") as f:
            f.write(compile_one(name, 2, lt, lt.BLOCKS.get(name, 16)))
        print(f"ptx/math_triton/{name}.sm90.ptx")


if __name__ == "__main__":
    main()
