"""Triton math kernels for the t_math_* cases: out[i] = f(x[i]) (or f(x[i], y[i])) for i < n.

Compiled to PTX without a GPU by build_triton_ptx.py (one program of BLOCK = 32 lanes, 1 warp).
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice


def _unary(f):
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        v = tl.load(x + offs, mask=m, other=1.0)
        tl.store(out + offs, f(v), mask=m)
    return k


@triton.jit
def _exp(v): return tl.exp(v)
@triton.jit
def _exp2(v): return tl.exp2(v)
@triton.jit
def _exp_minus_one(v): return tl.exp(v) - 1.0
@triton.jit
def _log(v): return tl.log(v)
@triton.jit
def _log2(v): return tl.log2(v)
@triton.jit
def _log_one_plus(v): return tl.log(1.0 + v)
@triton.jit
def _sqrt(v): return tl.sqrt(v)
@triton.jit
def _rsqrt(v): return tl.rsqrt(v)
@triton.jit
def _recip(v): return 1.0 / v
@triton.jit
def _sigmoid(v): return tl.sigmoid(v)
@triton.jit
def _erf(v): return tl.math.erf(v)
@triton.jit
def _tanh(v): return libdevice.tanh(v)
@triton.jit
def _sin(v): return tl.sin(v)
@triton.jit
def _cos(v): return tl.cos(v)
@triton.jit
def _square(v): return v * v
@triton.jit
def _softplus(v): return libdevice.log1p(tl.exp(v))
@triton.jit
def _gelu(v): return 0.5 * v * (1.0 + tl.math.erf(v * 0.7071067811865476))
@triton.jit
def _rsqrt_eps_in(v): return tl.rsqrt(v + 1e-7)
@triton.jit
def _relu_max(v): return tl.maximum(v, 0.0)
@triton.jit
def _relu_where(v): return tl.where(v > 0.0, v, 0.0)
@triton.jit
def _exp_pos_nonstrict(v): return tl.where(v >= 0.0, tl.exp(v), 0.0)


tri_exp = _unary(_exp)
tri_exp2 = _unary(_exp2)
tri_exp_minus_one = _unary(_exp_minus_one)
tri_log = _unary(_log)
tri_log2 = _unary(_log2)
tri_log_one_plus = _unary(_log_one_plus)
tri_sqrt = _unary(_sqrt)
tri_rsqrt = _unary(_rsqrt)
tri_recip = _unary(_recip)
tri_sigmoid = _unary(_sigmoid)
tri_erf = _unary(_erf)
tri_tanh = _unary(_tanh)
tri_sin = _unary(_sin)
tri_cos = _unary(_cos)
tri_square = _unary(_square)
tri_softplus = _unary(_softplus)
tri_gelu = _unary(_gelu)
tri_rsqrt_eps_in = _unary(_rsqrt_eps_in)
tri_relu_max = _unary(_relu_max)
tri_relu_where = _unary(_relu_where)
tri_exp_pos_nonstrict = _unary(_exp_pos_nonstrict)


@triton.jit
def tri_div(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=1.0)
    b = tl.load(y + offs, mask=m, other=1.0)
    tl.store(out + offs, a / b, mask=m)


# Cache-eviction hints (createpolicy and .L2::cache_hint operands in the PTX) change no value.
@triton.jit
def tri_axpy_evict(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=0.0, eviction_policy="evict_first")
    b = tl.load(y + offs, mask=m, other=0.0, eviction_policy="evict_last")
    tl.store(out + offs, 2.0 * a + b, mask=m, eviction_policy="evict_last")


UNARY = ["tri_exp", "tri_exp2", "tri_exp_minus_one", "tri_log", "tri_log2", "tri_log_one_plus",
         "tri_sqrt", "tri_rsqrt", "tri_recip", "tri_sigmoid", "tri_erf", "tri_tanh", "tri_sin",
         "tri_cos", "tri_square", "tri_softplus", "tri_gelu", "tri_rsqrt_eps_in", "tri_relu_max",
         "tri_relu_where", "tri_exp_pos_nonstrict"]
BINARY = ["tri_div", "tri_axpy_evict"]
