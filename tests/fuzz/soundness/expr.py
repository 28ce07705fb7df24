"""Expression trees for the soundness fuzzer: the formula a kernel applies to the cells it reads.

One tree is evaluated three ways, and the three must agree on what it means:
  * `evaluate`   float64 numpy, the reference model that decides a mutant's witness;
  * `cuda`       a C++ expression for nvcc;
  * `triton`     a Python expression for a @triton.jit body.
`interval` bounds a tree over the input box, so that the generator only builds trees whose
logs, square roots and divisions see arguments safely away from zero and whose exps stay far
from overflow (Racer compares exact reals; a kernel that overflows in f32 would make a witness
meaningless).

Constants are exact f32 values. A constant never meets another constant in one operation:
nvcc and Triton fold such a pair at compile time with rounding, and the folded float is no
longer the real the tree means (1.0f / 3.0f is not 1/3).
"""
import math
from dataclasses import dataclass

import numpy as np

UNARY = ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "tanh", "erf", "sigmoid")
BINARY = ("add", "sub", "mul", "div", "min", "max")
CMP = ("<", "<=", ">", ">=")


@dataclass(frozen=True)
class E:
    op: str                      # "var", "const", one of UNARY/BINARY, "fma", "where"
    args: tuple = ()
    name: str = ""               # var: a, b, c (cells read) or s (the accumulator in a post-op)
    value: float = 0.0           # const: an exact f32 value
    cmp: str = ""                # where: the comparison of args[0] with args[1]

    def __str__(self):
        return to_text(self)


def var(n):
    return E("var", name=n)


def const(v):
    f = float(np.float32(v))
    assert math.isfinite(f)
    return E("const", value=f)


def un(op, a):
    return E(op, (a,))


def bin_(op, a, b):
    return E(op, (a, b))


def fma(a, b, c):
    return E("fma", (a, b, c))


def where(cmp, l, r, t, f):
    return E("where", (l, r, t, f), cmp=cmp)


def is_const(e):
    return e.op == "const"


def children(e):
    return e.args


def replace_child(e, i, new):
    args = list(e.args)
    args[i] = new
    return E(e.op, tuple(args), e.name, e.value, e.cmp)


def nodes(e, path=()):
    """Every subtree with its path (a tuple of child indices)."""
    yield path, e
    for i, c in enumerate(e.args):
        yield from nodes(c, path + (i,))


def at(e, path):
    for i in path:
        e = e.args[i]
    return e


def put(e, path, new):
    if not path:
        return new
    return replace_child(e, path[0], put(e.args[path[0]], path[1:], new))


def size(e):
    return 1 + sum(size(c) for c in e.args)


def vars_of(e):
    return {n.name for _, n in nodes(e) if n.op == "var"}


def substitute(e, name, by):
    """e with every var `name` replaced by the tree `by` (composing post-ops)."""
    if e.op == "var" and e.name == name:
        return by
    if not e.args:
        return e
    return E(e.op, tuple(substitute(c, name, by) for c in e.args), e.name, e.value, e.cmp)


def const_pair_free(e):
    """No operation of two constants (they would be folded with rounding), and no routine of a constant."""
    for _, n in nodes(e):
        if n.args and n.op != "where" and all(is_const(c) for c in n.args):
            return False
        if n.op == "where" and is_const(n.args[0]) and is_const(n.args[1]):
            return False
    return True


# ---------------------------------------------------------------- interval bounds

def _erf(x):
    return math.erf(x)


def _sig(x):
    return 1.0 / (1.0 + math.exp(min(-x, 700.0)))


MONOTONE = {"exp": math.exp, "tanh": math.tanh, "erf": _erf, "sigmoid": _sig,
            "sqrt": math.sqrt, "log": math.log}

BIG = 1e6


def interval(e, box):
    """(lo, hi) bounding e over box {var: (lo, hi)}, or None when some operation is unsafe there."""
    op = e.op
    if op == "var":
        return box[e.name]
    if op == "const":
        return (e.value, e.value)
    iv = [interval(c, box) for c in e.args]
    if any(i is None for i in iv):
        return None
    if op == "neg":
        lo, hi = iv[0]
        r = (-hi, -lo)
    elif op == "abs":
        lo, hi = iv[0]
        r = (0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
    elif op == "exp":
        lo, hi = iv[0]
        if hi > 12 or lo < -40:
            return None
        r = (math.exp(lo), math.exp(hi))
    elif op in ("log", "rsqrt"):
        lo, hi = iv[0]
        if lo < 0.2:
            return None
        r = (math.log(lo), math.log(hi)) if op == "log" else (1 / math.sqrt(hi), 1 / math.sqrt(lo))
    elif op == "sqrt":
        lo, hi = iv[0]
        if lo < 0.0:
            return None
        r = (math.sqrt(lo), math.sqrt(hi))
    elif op in ("tanh", "erf", "sigmoid"):
        f = MONOTONE[op]
        r = (f(iv[0][0]), f(iv[0][1]))
    elif op in ("add", "sub", "mul", "fma"):
        if op == "add":
            r = (iv[0][0] + iv[1][0], iv[0][1] + iv[1][1])
        elif op == "sub":
            r = (iv[0][0] - iv[1][1], iv[0][1] - iv[1][0])
        else:
            p = [x * y for x in iv[0] for y in iv[1]]
            r = (min(p), max(p))
            if op == "fma":
                r = (r[0] + iv[2][0], r[1] + iv[2][1])
    elif op == "div":
        lo, hi = iv[1]
        if lo < 0.2 and hi > -0.2:
            return None
        q = [x / y for x in iv[0] for y in iv[1]]
        r = (min(q), max(q))
    elif op == "min":
        r = (min(iv[0][0], iv[1][0]), min(iv[0][1], iv[1][1]))
    elif op == "max":
        r = (max(iv[0][0], iv[1][0]), max(iv[0][1], iv[1][1]))
    elif op == "where":
        r = (min(iv[2][0], iv[3][0]), max(iv[2][1], iv[3][1]))
    else:
        raise ValueError(op)
    if not (-BIG < r[0] <= r[1] < BIG):
        return None
    return r


# ---------------------------------------------------------------- float64 reference

_verf = np.vectorize(math.erf, otypes=[float])


def evaluate(e, env):
    """float64 value of e; env maps var names to numpy arrays (broadcast together)."""
    op = e.op
    if op == "var":
        return env[e.name]
    if op == "const":
        return np.float64(e.value)
    a = [evaluate(c, env) for c in e.args]
    with np.errstate(all="ignore"):
        if op == "neg": return -a[0]
        if op == "abs": return np.abs(a[0])
        if op == "exp": return np.exp(a[0])
        if op == "log": return np.log(a[0])
        if op == "sqrt": return np.sqrt(a[0])
        if op == "rsqrt": return 1.0 / np.sqrt(a[0])
        if op == "tanh": return np.tanh(a[0])
        if op == "erf": return _verf(a[0])
        if op == "sigmoid": return 1.0 / (1.0 + np.exp(-a[0]))
        if op == "add": return a[0] + a[1]
        if op == "sub": return a[0] - a[1]
        if op == "mul": return a[0] * a[1]
        if op == "div": return a[0] / a[1]
        if op == "min": return np.minimum(a[0], a[1])
        if op == "max": return np.maximum(a[0], a[1])
        if op == "fma": return a[0] * a[1] + a[2]
        if op == "where":
            c = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}[e.cmp](a[0], a[1])
            return np.where(c, a[2], a[3])
    raise ValueError(op)


# ---------------------------------------------------------------- emission

def f32_literal(v):
    """Decimal text of an f32 value that parses back to exactly that value (via f64 or f32)."""
    return repr(float(np.float32(v)))


_CUDA_FN = {"exp": "expf", "log": "logf", "sqrt": "sqrtf", "rsqrt": "rsqrtf", "tanh": "tanhf",
            "erf": "erff", "abs": "fabsf"}
_CUDA_BIN = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def cuda(e, names):
    """C++ text; names maps var names to C expressions."""
    op = e.op
    if op == "var":
        return names[e.name]
    if op == "const":
        return "(" + f32_literal(e.value) + "f)"
    a = [cuda(c, names) for c in e.args]
    if op == "neg": return f"(-{a[0]})"
    if op in _CUDA_FN: return f"{_CUDA_FN[op]}({a[0]})"
    if op == "sigmoid": return f"(1.0f / (1.0f + expf(-{a[0]})))"
    if op in _CUDA_BIN: return f"({a[0]} {_CUDA_BIN[op]} {a[1]})"
    if op == "min": return f"fminf({a[0]}, {a[1]})"
    if op == "max": return f"fmaxf({a[0]}, {a[1]})"
    if op == "fma": return f"fmaf({a[0]}, {a[1]}, {a[2]})"
    if op == "where": return f"(({a[0]} {e.cmp} {a[1]}) ? {a[2]} : {a[3]})"
    raise ValueError(op)


_TRI_FN = {"exp": "tl.exp", "log": "tl.log", "sqrt": "tl.sqrt", "rsqrt": "tl.rsqrt", "tanh": "libdevice.tanh",
           "erf": "tl.math.erf", "abs": "tl.abs", "sigmoid": "tl.sigmoid"}


def triton(e, names):
    op = e.op
    if op == "var":
        return names[e.name]
    if op == "const":
        return "(" + f32_literal(e.value) + ")"
    a = [triton(c, names) for c in e.args]
    if op == "neg": return f"(-{a[0]})"
    if op in _TRI_FN: return f"{_TRI_FN[op]}({a[0]})"
    if op in _CUDA_BIN: return f"({a[0]} {_CUDA_BIN[op]} {a[1]})"
    if op == "min": return f"tl.minimum({a[0]}, {a[1]})"
    if op == "max": return f"tl.maximum({a[0]}, {a[1]})"
    if op == "fma": return f"tl.fma({a[0]}, {a[1]}, {a[2]})"
    if op == "where": return f"tl.where({a[0]} {e.cmp} {a[1]}, {a[2]}, {a[3]})"
    raise ValueError(op)


def to_text(e):
    """Readable form for reports."""
    op = e.op
    if op == "var": return e.name
    if op == "const": return f32_literal(e.value)
    a = [to_text(c) for c in e.args]
    if op in _CUDA_BIN: return f"({a[0]} {_CUDA_BIN[op]} {a[1]})"
    if op == "where": return f"where({a[0]} {e.cmp} {a[1]}, {a[2]}, {a[3]})"
    return f"{op}({', '.join(a)})"
