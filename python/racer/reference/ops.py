"""What NumPy operations mean over traced arrays: conversions of plain numbers into exact
constants, ufuncs elementwise over node ids, and the dispatch of array functions (arrays.py).
An operation Racer cannot express exactly is refused by name, at the user's line."""
import contextlib
import math
import numbers
from fractions import Fraction

import numpy as np

from ..errors import RacerError, where
from .array import SymArray
from .graph import FALSE, TRUE
from .location import user_line

_state = {"graph": None, "depth": 0}


def fail_at(message):
    raise RacerError(where(user_line()) + message)


@contextlib.contextmanager
def at_user_line():
    """Nodes made inside carry the user's line of the outermost traced operation."""
    g = _state["graph"]
    outer = _state["depth"] == 0
    if outer and g is not None:
        g.loc = user_line()
    _state["depth"] += 1
    try:
        yield
    finally:
        _state["depth"] -= 1
        if outer and g is not None:
            g.loc = None


# ---- conversions ------------------------------------------------------------------------

def exact(v):
    """A number as the exact rational Racer reads it: a Python float as written (0.1 is 1/10,
    as everywhere in the Python API), a NumPy float as the binary number it holds."""
    if isinstance(v, (bool, np.bool_)):
        return Fraction(int(v))
    if isinstance(v, numbers.Integral):
        return Fraction(int(v))
    if isinstance(v, np.floating):
        return float(v)  # graph.const makes it exact (Fraction(float) is the binary value)
    if isinstance(v, float):
        if math.isinf(v) or math.isnan(v):
            return v
        return Fraction(repr(v))
    if isinstance(v, Fraction):
        return v
    fail_at(f"{v!r} ({type(v).__name__}) is not a number a reference can use")


def as_sym(g, x):
    if isinstance(x, SymArray):
        return x
    if isinstance(x, Fraction):
        return SymArray(g, np.array(g.const(x), dtype=np.int64))
    a = np.asarray(x)
    if a.dtype == object:
        if any(isinstance(e, SymArray) for e in a.flat):
            return stack_list(g, x)
        fail_at(f"{x!r} is not an array of numbers")
    if a.dtype.kind == "b":
        return SymArray(g, np.where(a, TRUE, FALSE), condition=True)
    if a.dtype.kind not in "iuf":
        fail_at(f"an array of {a.dtype} is not numbers a reference can use")
    python_float = isinstance(x, float) or (isinstance(x, (list, tuple)) and a.dtype.kind == "f")
    cache = {}
    ids = np.empty(a.shape, dtype=np.int64)
    flat = ids.reshape(-1)
    for k, v in enumerate(a.reshape(-1).tolist() if python_float else a.reshape(-1)):
        key = v if python_float else (a.dtype.kind, v.item())
        if key not in cache:
            cache[key] = g.const(exact(v))
        flat[k] = cache[key]
    return SymArray(g, ids)


def stack_list(g, xs):
    parts = [as_sym(g, x) for x in xs]
    return _stack(g, parts, 0)


def to_numbers(a):
    if not a.condition:
        return a
    g = a.graph
    return SymArray(g, _map1(a.ids, g.as_number), condition=False)


def to_conditions(a):
    if a.condition:
        return a
    g = a.graph
    return SymArray(g, _map1(a.ids, g.as_condition), condition=True)


def _map1(ids, fn):
    out = np.empty(ids.shape, dtype=np.int64)
    o, i = out.reshape(-1), ids.reshape(-1)
    memo = {}
    for k in range(i.size):
        x = int(i[k])
        r = memo.get(x)
        if r is None:
            r = memo[x] = fn(x)
        o[k] = r
    return out


def _map2(a, b, fn):
    a, b = np.broadcast_arrays(a, b)
    out = np.empty(a.shape, dtype=np.int64)
    o, x, y = out.reshape(-1), a.reshape(-1), b.reshape(-1)
    for k in range(o.size):
        o[k] = fn(int(x[k]), int(y[k]))
    return out


def _graph(args):
    for a in args:
        if isinstance(a, SymArray):
            return a.graph
        if isinstance(a, (list, tuple)):
            g = _graph(a)
            if g is not None:
                return g
    return _state["graph"]


# ---- ufuncs -----------------------------------------------------------------------------

def _unary(fn):
    def run(g, x):
        x = to_numbers(as_sym(g, x))
        return SymArray(g, _map1(x.ids, lambda i: fn(g, i)))
    return run


def _binary(fn, condition=False, numbers_in=True):
    def run(g, x, y):
        x, y = as_sym(g, x), as_sym(g, y)
        if numbers_in:
            x, y = to_numbers(x), to_numbers(y)
        return SymArray(g, _map2(x.ids, y.ids, lambda a, b: fn(g, a, b)), condition=condition)
    return run


def _power(g, x, p):
    p = as_sym(g, p)
    exps = {g.constant_of(int(i)) for i in p.ids.reshape(-1)}
    if None in exps:
        fail_at("a power with a symbolic exponent: references support constant exponents (x ** 2, x ** -0.5)")
    x = to_numbers(as_sym(g, x))

    def one(a, e):
        q = g.constant_of(e)
        if q.denominator == 1:
            return g.pow_int(a, int(q))
        if q.denominator == 2:
            return g.pow_int(g.func("sqrt", a), int(q.numerator))
        fail_at(f"x ** {q}: only integer and half-integer constant exponents have an exact form here")
    return SymArray(g, _map2(x.ids, p.ids, one))


def _log_const(g, base):
    return g.func("log", g.const(base))


def _sign(g, a):
    zero = g.const(0)
    return g.select(g.compare("lt", zero, a), g.const(1), g.select(g.compare("lt", a, zero), g.const(-1), zero))


UNARY = {
    "negative": lambda g, a: g.neg(a),
    "positive": lambda g, a: a,
    "exp": lambda g, a: g.func("exp", a),
    "exp2": lambda g, a: g.func("exp", g.mul(a, _log_const(g, 2))),
    "expm1": lambda g, a: g.add(g.func("exp", a), g.const(-1)),
    "log": lambda g, a: g.func("log", a),
    "log2": lambda g, a: g.div(g.func("log", a), _log_const(g, 2)),
    "log10": lambda g, a: g.div(g.func("log", a), _log_const(g, 10)),
    "log1p": lambda g, a: g.func("log", g.add(a, g.const(1))),
    "sqrt": lambda g, a: g.func("sqrt", a),
    "square": lambda g, a: g.pow_int(a, 2),
    "reciprocal": lambda g, a: g.div(g.const(1), a),
    "tanh": lambda g, a: g.func("tanh", a),
    "sinh": lambda g, a: g.mul(g.const(Fraction(1, 2)), g.sub(g.func("exp", a), g.func("exp", g.neg(a)))),
    "cosh": lambda g, a: g.mul(g.const(Fraction(1, 2)), g.add(g.func("exp", a), g.func("exp", g.neg(a)))),
    "sin": lambda g, a: g.func("sin", a),
    "cos": lambda g, a: g.func("cos", a),
    "absolute": lambda g, a: g.func("abs", a),
    "fabs": lambda g, a: g.func("abs", a),
    "sign": _sign,
    "erf": lambda g, a: g.func("erf", a),   # scipy.special.erf is a ufunc too
}

BINARY = {
    "add": lambda g, a, b: g.add(a, b),
    "subtract": lambda g, a, b: g.sub(a, b),
    "multiply": lambda g, a, b: g.mul(a, b),
    "divide": lambda g, a, b: g.div(a, b),
    "true_divide": lambda g, a, b: g.div(a, b),
    "maximum": lambda g, a, b: g.nary("max", [a, b]),
    "minimum": lambda g, a, b: g.nary("min", [a, b]),
    "fmax": lambda g, a, b: g.nary("max", [a, b]),
    "fmin": lambda g, a, b: g.nary("min", [a, b]),
    "logaddexp": lambda g, a, b: g.func("log", g.add(g.func("exp", a), g.func("exp", b))),
}

COMPARE = {"less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge", "equal": "eq", "not_equal": "ne"}
LOGICAL = {"logical_and": "logical_and", "logical_or": "logical_or", "bitwise_and": "logical_and", "bitwise_or": "logical_or"}


def ufunc(uf, method, inputs, kwargs):
    name = uf.__name__
    g = _graph(inputs)
    with at_user_line():
        if kwargs.get("out") is not None:
            fail_at(f"np.{name}(..., out=...): a reference cannot write into arrays in place; use the result")
        if method == "reduce" and name in ("add", "multiply", "maximum", "minimum", "logical_and", "logical_or"):
            fn = {"add": np.sum, "multiply": np.prod, "maximum": np.max, "minimum": np.min,
                  "logical_and": np.all, "logical_or": np.any}[name]
            return array_function(fn, inputs, {"axis": kwargs.get("axis", 0), "keepdims": kwargs.get("keepdims", False)})
        if method == "accumulate" and name == "add":
            from .arrays import _cumsum
            return _cumsum(g, inputs[0], kwargs.get("axis", 0))
        if method != "__call__":
            fail_at(f"np.{name}.{method} is not supported by Racer's reference tracer")
        if name in UNARY and len(inputs) == 1:
            return _unary(UNARY[name])(g, inputs[0])
        if name in BINARY:
            return _binary(BINARY[name])(g, *inputs)
        if name in ("power", "float_power"):
            return _power(g, *inputs)
        if name in COMPARE:
            op = COMPARE[name]
            return _binary(lambda g, a, b: g.compare(op, a, b), condition=True)(g, *inputs)
        if name in LOGICAL:
            fn = getattr(g, LOGICAL[name])
            return _binary(lambda g, a, b: fn(a, b), condition=True, numbers_in=False)(g, *inputs)
        if name in ("logical_not", "invert"):
            x = to_conditions(as_sym(g, inputs[0]))
            return SymArray(g, _map1(x.ids, g.logical_not), condition=True)
        if name == "matmul":
            from .arrays import matmul
            return matmul(g, *inputs)
        fail_at(f"np.{name} is not supported by Racer's reference tracer (it has no exact real form here)")


def _stack(g, arrays, axis=0, out=None, **kw):
    parts = [as_sym(g, a) for a in arrays]
    cond = all(p.condition for p in parts)
    parts = [p if cond else to_numbers(p) for p in parts]
    return SymArray(g, np.stack([p.ids for p in parts], axis=axis), condition=cond)



def array_function(func, args, kwargs):
    from .arrays import FUNCTIONS
    name = func.__name__
    g = _graph(args)
    with at_user_line():
        fn = FUNCTIONS.get(name)
        if fn is None:
            fail_at(f"np.{name} is not supported by Racer's reference tracer")
        try:
            return fn(g, *args, **kwargs)
        except TypeError as e:
            fail_at(f"np.{name}: {e}")


def index_key(key):
    parts = key if isinstance(key, tuple) else (key,)
    for p in parts:
        if isinstance(p, SymArray):
            fail_at("indexing by a symbolic array (an input tensor's data): Racer's expressions have no symbolic "
                    "addresses; give index tensors known values with racer.values(...), or use np.where for a mask")
    return key
