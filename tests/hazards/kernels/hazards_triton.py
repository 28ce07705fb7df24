"""Triton kernels of the float hazard instances (tests/hazards): one program per row of n
columns, BLOCK >= n lanes of which the ones past n are masked."""
import triton
import triton.language as tl


@triton.jit
def softmax_other_zero(x, y, n, BLOCK: tl.constexpr):
    # The max pass loads masked lanes as 0.0: the row maximum is max(x, 0). Over the reals the
    # shift cancels; in f32 every exp(x - 0) underflows to 0 when the row lies below -104.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    v = tl.load(x + row * n + cols, mask=mask, other=0.0)
    m = tl.max(v, axis=0)
    e = tl.where(mask, tl.exp(v - m), 0.0)
    tl.store(y + row * n + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def softmax(x, y, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    v = tl.load(x + row * n + cols, mask=mask, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(y + row * n + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def logsumexp_naive(x, out, n, BLOCK: tl.constexpr):
    # No running maximum: exp(x) overflows f32 from x = 88.7 on.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * n + cols, mask=cols < n, other=-float("inf"))
    tl.store(out + row, tl.log(tl.sum(tl.exp(v), axis=0)))


@triton.jit
def variance_two_pass(x, out, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    v = tl.load(x + row * n + cols, mask=mask, other=0.0)
    mean = tl.sum(v, axis=0) / n
    d = tl.where(mask, v - mean, 0.0)
    tl.store(out + row, tl.sum(d * d, axis=0) / n)


@triton.jit
def row_sum(x, out, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * n + cols, mask=cols < n, other=0.0)
    tl.store(out + row, tl.sum(v, axis=0))


# name -> BLOCK (softmax_other_zero: 64 lanes for rows of 32, so masked lanes exist)
KERNELS = {"softmax_other_zero": 64, "softmax": 64, "logsumexp_naive": 32, "variance_two_pass": 32, "row_sum": 32}
