"""Triton kernels for the t_loop_* cases: a routine (log, exp, tanh, erf) inside a loop over
blocks of a row, accumulated across iterations. Program `pid` reduces row `pid` of n values.

Compiled without a GPU by build_loop_triton_ptx.py (BLOCK = 16, num_warps = 1): params
x, y, out, n (.u32), then Triton's two scratch pointers.
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice


def _row_loop(term):
    @triton.jit
    def k(x, y, out, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        acc = 0.0
        for i in range(0, n, BLOCK):
            offs = i + tl.arange(0, BLOCK)
            m = offs < n
            a = tl.load(x + pid * n + offs, mask=m, other=1.0)
            b = tl.load(y + pid * n + offs, mask=m, other=0.0)
            acc += tl.sum(tl.where(m, term(a, b), 0.0), axis=0)
        tl.store(out + pid, acc)
    return k


@triton.jit
def _log(a, b): return tl.log(a)
@triton.jit
def _kl_div(a, b): return b * (tl.log(b) - a)
@triton.jit
def _kl_div_swapped(a, b): return a * (tl.log(b) - a)
@triton.jit
def _exp_weighted(a, b): return tl.exp(a) * b
@triton.jit
def _tanh(a, b): return (tl.exp(2.0 * a) - 1.0) / (tl.exp(2.0 * a) + 1.0)
@triton.jit
def _erf(a, b): return tl.math.erf(a)
@triton.jit
def _tanh_log_over_erf(a, b): return libdevice.tanh(tl.log(a) / tl.math.erf(b))


tri_loop_sum_log = _row_loop(_log)
tri_loop_kl_div = _row_loop(_kl_div)
tri_loop_kl_div_swapped = _row_loop(_kl_div_swapped)
tri_loop_exp_weighted = _row_loop(_exp_weighted)
tri_loop_tanh_sum = _row_loop(_tanh)
tri_loop_erf_sum = _row_loop(_erf)
tri_loop_log_over_erf = _row_loop(_tanh_log_over_erf)


@triton.jit
def _log_plus_erf(a, b): return tl.log(b) + tl.math.erf(a / b)


tri_loop_log_plus_erf = _row_loop(_log_plus_erf)


@triton.jit
def tri_sum_log_unmasked_other(x, y, out, n, BLOCK: tl.constexpr):
    # The form: masked lanes load 1.0, whose log is 0, so no where() is needed.
    pid = tl.program_id(0)
    acc = 0.0
    for i in range(0, n, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        v = tl.load(x + pid * n + offs, mask=offs < n, other=1.0)
        acc += tl.sum(tl.log(v), axis=0)
    tl.store(out + pid, acc)


def _log_of_max(term):
    # log of a row's maximum, taken after the loop: the logarithm's input is the loop's running
    # value, defined early in the loop body, far (in the code) from the routine that reads it.
    @triton.jit
    def k(x, y, out, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        acc = -float("inf")
        for i in range(0, n, BLOCK):
            offs = i + tl.arange(0, BLOCK)
            m = offs < n
            a = tl.load(x + pid * n + offs, mask=m, other=1.0)
            b = tl.load(y + pid * n + offs, mask=m, other=0.0)
            acc = tl.maximum(acc, tl.max(tl.where(m, term(a, b), -float("inf")), axis=0))
        tl.store(out + pid, tl.log(acc))
    return k


@triton.jit
def _exp_erf_minus(a, b): return tl.exp(libdevice.tanh(tl.math.erf(a) - b))
@triton.jit
def _exp_erf_minus_a(a, b): return tl.exp(libdevice.tanh(tl.math.erf(a) - a))


tri_log_of_max_exp = _log_of_max(_exp_erf_minus)
tri_log_of_max_exp_wrong = _log_of_max(_exp_erf_minus_a)


@triton.jit
def tri_erf_of_min_exp(x, y, out, n, BLOCK: tl.constexpr):
    # erf of |a row's minimum of exp(x)|: erf's small-input path squares the minimum itself, not
    # its absolute value, so only the probes of the input's range (x >= 0.6: above 1.8, where erf
    # runs its 1 - 2^(...) path) read the routine, and they see erf within an ulp of 1.
    pid = tl.program_id(0)
    acc = float("inf")
    for i in range(0, n, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        m = offs < n
        a = tl.load(x + pid * n + offs, mask=m, other=1.0)
        acc = tl.minimum(acc, tl.min(tl.where(m, tl.exp(a), float("inf")), axis=0))
    tl.store(out + pid, tl.math.erf(tl.abs(acc)))


@triton.jit
def tri_store_zero(x, y, out, n, BLOCK: tl.constexpr):
    tl.store(out + tl.program_id(0), 0.0)


KERNELS = ["tri_loop_sum_log", "tri_loop_kl_div", "tri_loop_kl_div_swapped", "tri_loop_exp_weighted",
           "tri_loop_tanh_sum", "tri_loop_erf_sum", "tri_sum_log_unmasked_other", "tri_store_zero",
           "tri_log_of_max_exp", "tri_log_of_max_exp_wrong", "tri_loop_log_over_erf",
           "tri_loop_log_plus_erf", "tri_erf_of_min_exp"]
# A row in one block (the loop runs once, masked): the block's maximum is taken in the loop and
# the logarithm's input comes to it through a long tail of the reduction's code.
BLOCKS = {"tri_log_of_max_exp": 64, "tri_log_of_max_exp_wrong": 64, "tri_loop_log_plus_erf": 32}
