"""Triton kernels of the t_intd_* cases: integer data from int32 inputs (sums, dot products,
counts, clamps, maxima). One program per row (or bin) of 32; compiled by
build_intdata_triton_ptx.py. Params: the int32 pointers, then n (.u32), then Triton's two scratch
pointers."""
import triton
import triton.language as tl


@triton.jit
def tri_int_row_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + offs)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def tri_int_row_sum_half(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Bug: sums only the first half of the row.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + offs, mask=offs < BLOCK // 2, other=0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def tri_int_row_dot(x_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + offs)
    w = tl.load(w_ptr + offs)
    tl.store(out_ptr + row, tl.sum(x * w, axis=0))


@triton.jit
def tri_int_count_eq(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # counts[b] for b = program_id over n inputs, BLOCK at a time.
    b = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, n, BLOCK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < n, other=-1)
        acc += (x == b).to(tl.int32)
    tl.store(out_ptr + b, tl.sum(acc, axis=0))


@triton.jit
def tri_int_row_max(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + offs)
    tl.store(out_ptr + row, tl.max(x, axis=0))


@triton.jit
def tri_int_clamp(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.minimum(tl.maximum(x, -5), 9), mask=offs < n)


# name -> number of input pointers
KERNELS = {"tri_int_row_sum": 1, "tri_int_row_sum_half": 1, "tri_int_row_dot": 2, "tri_int_count_eq": 1,
           "tri_int_row_max": 1, "tri_int_clamp": 1}
