"""The own cases' Triton PTX: a kernel of tests/cases/kernels compiled for sm_90 without a GPU
(Triton 3.6, one warp, one stage), with the source paths in its debug info made relative to the
repository, so that the PTX does not depend on where the repository is checked out (nor on the
checkout that filled Triton's cache: a cached kernel keeps the path it was first compiled from)."""
import re

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


def compile_sm90(fn, types, constexprs):
    """The compiled kernel and its PTX; types are the signature's, one per argument in order."""
    src = ASTSource(fn=fn, signature=dict(zip(fn.arg_names, types)), constexprs=constexprs)
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 1, "num_stages": 1})
    return k, re.sub(r'"[^"\n]*/tests/cases/kernels/', '"tests/cases/kernels/', k.asm["ptx"])
