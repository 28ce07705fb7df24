"""Random formulas over the cells a kernel reads (vars a, b, c), safe on the declared input box.

A candidate node is kept only when `expr.interval` accepts it: routines see arguments inside
their domain, divisions stay away from zero, magnitudes stay moderate. An unsafe argument is
first repaired into a safe one (|t| + 1/2 for a log, a clamp for an exp), which also puts
abs/min/max into the trees the way real kernels use them.
"""
from expr import E, var, const, un, bin_, fma, where, interval, is_const, vars_of, const_pair_free

# Small dyadic constants: exact in f32, and products/quotients of two of them stay exact.
DYADIC = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, -0.5, -1.0, -1.5, -2.0)
# Constants as kernels write them: each is the f32 nearest the decimal, an exact rational
# that is not the decimal (0.1f is 13421773/134217728).
FLOATISH = (0.1, 0.7071067811865476, 1.702, 0.044715, 0.7978845608, 1e-3, 0.3, 1.4426950408889634, 0.9)

UNARY_W = {"neg": 2, "abs": 2, "exp": 4, "log": 4, "sqrt": 3, "rsqrt": 3, "tanh": 3, "erf": 3, "sigmoid": 3}
BINARY_W = {"add": 6, "sub": 5, "mul": 6, "div": 3, "min": 2, "max": 2, "fma": 2, "where": 3}


def _pick(rng, weights):
    keys = list(weights)
    return keys[rng.choices(range(len(keys)), [weights[k] for k in keys])[0]]


def rand_const(rng, floatish_share=0.25):
    if rng.random() < floatish_share:
        v = rng.choice(FLOATISH)
        return const(-v if rng.random() < 0.2 else v)
    return const(rng.choice(DYADIC))


def leaf(rng, names, const_ok=True):
    if const_ok and rng.random() < 0.25:
        return rand_const(rng)
    return var(rng.choice(names))


def repair(rng, op, arg, box):
    """An argument in op's domain built from arg (None if there is no cheap one)."""
    iv = interval(arg, box)
    if iv is None:
        return None
    lo, hi = iv
    if op in ("log", "rsqrt", "sqrt"):
        if lo >= 0.25 and hi < 1e4:
            return arg
        shift = const(rng.choice((0.5, 1.0, 1.5)))
        if rng.random() < 0.5:
            return bin_("add", un("abs", arg), shift)
        return fma(arg, arg, shift) if rng.random() < 0.5 else bin_("add", bin_("mul", arg, arg), shift)
    if op == "exp":
        if -8 <= lo and hi <= 4:
            return arg
        if max(abs(lo), abs(hi)) <= 16:
            return bin_("mul", arg, const(0.25))
        return bin_("min", bin_("max", arg, const(-4.0)), const(3.0))
    if op == "div":  # a denominator: keep it positive and away from 0
        if lo >= 0.25 or hi <= -0.25:
            return arg
        return bin_("add", un("abs", arg), const(rng.choice((0.5, 1.0, 2.0))))
    return arg


def gen(rng, box, depth, names=None, limit=200.0):
    """A safe random tree of at most `depth` levels over the vars of box, bounded by `limit`."""
    names = names or sorted(k for k in box if k != "s")
    for _ in range(40):
        e = _gen(rng, box, depth, names)
        if e is not None and vars_of(e) and const_pair_free(e) and interval(e, box) is not None:
            iv = interval(e, box)
            if max(abs(iv[0]), abs(iv[1])) <= limit:
                return e
    return var(names[0])


def _gen(rng, box, depth, names):
    if depth <= 0 or rng.random() < 0.18:
        return leaf(rng, names, const_ok=False)
    if rng.random() < 0.4:
        op = _pick(rng, UNARY_W)
        a = _gen(rng, box, depth - 1, names)
        if a is None or is_const(a):
            return None
        a = repair(rng, op, a, box)
        return None if a is None else un(op, a)
    op = _pick(rng, BINARY_W)
    if op == "where":
        # A data comparison: a var against a constant the box reaches (so < and <= can differ),
        # or against another subtree.
        v = var(rng.choice(names))
        lo, hi = box[v.name]
        if rng.random() < 0.6:
            r = const(rng.choice([d for d in (lo, hi, (lo + hi) / 2, 0.0, 1.0, 1.5) if lo <= d <= hi]))
        else:
            r = _gen(rng, box, depth - 1, names)
        t = _gen(rng, box, depth - 1, names)
        f = _gen(rng, box, depth - 1, names)
        if r is None or t is None or f is None or r == v or t == f:
            return None  # where(b >= b, ..) or where(.., c, c): degenerate, not what kernels hold
        return where(rng.choice(("<", "<=", ">", ">=")), v, r, t, f)
    a = _gen(rng, box, depth - 1, names)
    b = _gen(rng, box, depth - 1, names) if rng.random() < 0.7 else leaf(rng, names)
    if a is None or b is None or (is_const(a) and is_const(b)):
        return None
    if a == b and op in ("sub", "div", "min", "max"):
        return None  # b - b, min(a, a): degenerate
    if op == "fma":
        c = _gen(rng, box, depth - 1, names) if rng.random() < 0.5 else leaf(rng, names)
        if c is None:
            return None
        return fma(a, b, c)
    if op == "div":
        b = repair(rng, "div", b, box)
        if b is None:
            return None
    return bin_(op, a, b)
