"""Regenerates tests/cases/ptx/symidx_triton/<kernel>.sm90.ptx from kernels/symidx_triton.py
without a GPU (Triton 3.6, sm_90, 1 warp, BLOCK 32).

usage: python3 tests/cases/kernels/build_symidx_triton_ptx.py
"""
import os, sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import symidx_triton as st


def compile_one(name, pointers):
    fn = getattr(st, name)
    types = pointers + ["i32", "constexpr"]
    src = ASTSource(fn=fn, signature=dict(zip(fn.arg_names, types)), constexprs={"BLOCK": 32})
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 1, "num_stages": 1})
    return k.asm["ptx"].replace('"' + here + '/', '"tests/cases/kernels/')


def main():
    outdir = os.path.join(here, "..", "ptx", "symidx_triton")
    os.makedirs(outdir, exist_ok=True)
    for name, pointers in st.KERNELS.items():
        with open(os.path.join(outdir, f"{name}.sm90.ptx"), "w") as f:
            f.write(compile_one(name, pointers))
        print(f"ptx/symidx_triton/{name}.sm90.ptx")


if __name__ == "__main__":
    main()
