"""Triton's float atomic maximum for the t_amax_* cases: tl.atomic_max of f32 compiles to
atom.max.s32 under the guard `bits > -1` and atom.min.u32 under `bits < 0`; with a block maximum
of signed values the guards depend on the data (build_amax_triton_ptx.py compiles them)."""
import triton
import triton.language as tl


@triton.jit
def atomic_max_blocks(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
    tl.atomic_max(out_ptr, tl.max(x, 0))


KERNELS = ["atomic_max_blocks"]
