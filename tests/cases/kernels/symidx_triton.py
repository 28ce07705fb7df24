"""Triton kernels of the t_sidx_* cases: addresses computed from integer index tensors whose
contents are symbolic inputs with a declared range. Compiled by build_symidx_triton_ptx.py
(Triton 3.6, sm_90, 1 warp). Params: the pointers, then n (.u32), then Triton's two scratch
pointers."""
import triton
import triton.language as tl


@triton.jit
def tri_pick_target(x_ptr, t_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Cross-entropy's picked logit: out[r] = X[r, t[r]] for rows of BLOCK classes.
    row = tl.program_id(0)
    t = tl.load(t_ptr + row)
    tl.store(out_ptr + row, tl.load(x_ptr + row * BLOCK + t))


@triton.jit
def tri_embed(tok_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out[t, :] = W[tok[t], :] for rows of BLOCK features.
    t = tl.program_id(0)
    d = tl.arange(0, BLOCK)
    tok = tl.load(tok_ptr + t)
    tl.store(out_ptr + t * BLOCK + d, tl.load(w_ptr + tok * BLOCK + d))


# name -> the pointer types of its parameters
KERNELS = {"tri_pick_target": ["*fp32", "*i64", "*fp32"], "tri_embed": ["*i32", "*fp32", "*fp32"]}
