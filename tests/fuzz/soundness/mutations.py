"""One-change mutations of a formula, the kind of slip a kernel author makes.

A mutation is only a candidate: the pair becomes an inequivalent case only after the reference
model (`program.simulate`) finds inputs in the box where the two kernels' outputs differ by far
more than f32 rounding (pairs.py). Each mutation says which category it belongs to: a strict/
non-strict comparison swap differs only at the comparison's constant (`sampled_input`).
"""
from expr import E, var, const, un, bin_, fma, where, interval, nodes, put, is_const, const_pair_free, vars_of

SWAP_UNARY = {"exp": ("tanh", "sigmoid", "erf"), "log": ("sqrt", "rsqrt"), "sqrt": ("log", "rsqrt"),
              "rsqrt": ("sqrt", "log"), "tanh": ("erf", "sigmoid"), "erf": ("tanh", "sigmoid"),
              "sigmoid": ("tanh", "erf"), "abs": ("neg",), "neg": ("abs",)}
SWAP_BINARY = {"add": ("sub", "mul"), "sub": ("add",), "mul": ("add", "div"), "div": ("mul",),
               "min": ("max",), "max": ("min",)}
STRICT = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
FACTORS = (1.5, 0.5, 2.0, 1.25, -1.0, 0.75)


def m_operand(rng, e, names):
    if e.op == "var":
        others = [n for n in names if n != e.name]
        return var(rng.choice(others)) if others else None


def m_drop(rng, e, names):
    if e.op in ("add", "sub", "fma", "min", "max", "mul"):
        keep = rng.randrange(len(e.args) if e.op != "fma" else 2)
        if e.op == "fma":
            return bin_("mul", e.args[0], e.args[1]) if keep == 0 else bin_("add", e.args[0], e.args[2])
        return e.args[keep]


def m_op(rng, e, names):
    if e.op in SWAP_UNARY:
        return un(rng.choice(SWAP_UNARY[e.op]), e.args[0])
    if e.op in SWAP_BINARY:
        return bin_(rng.choice(SWAP_BINARY[e.op]), *e.args)


def m_const(rng, e, names):
    if e.op == "const":
        f = rng.choice(FACTORS)
        v = e.value * f if e.value != 0 else rng.choice((0.5, 1.0, -1.0))
        if rng.random() < 0.3:
            v = e.value + rng.choice((1.0, -1.0, 0.5))
        return const(v)


def m_select(rng, e, names):
    if e.op == "where":
        l, r, t, f = e.args
        if rng.random() < 0.5:
            return where(e.cmp, l, r, f, t)
        return where({"<": ">", ">": "<", "<=": ">=", ">=": "<="}[e.cmp], l, r, t, f)


def m_strict(rng, e, names):
    """< against <= at a comparison constant the inputs can reach: differs only at that value."""
    if e.op == "where" and e.args[0].op == "var" and is_const(e.args[1]):
        l, r, t, f = e.args
        return where(STRICT[e.cmp], l, r, t, f)


RULES = [m_operand, m_drop, m_op, m_const, m_select, m_strict]
WEIGHTS = [4, 3, 4, 3, 2, 2]
CATEGORY = {"strict": "sampled_input"}


def mutate(rng, e, box, names):
    """(mutated e, rule name) or (None, None) when no rule found a safe site."""
    sites = list(nodes(e))
    for _ in range(60):
        path, n = rng.choice(sites)
        rule = rng.choices(RULES, WEIGHTS)[0]
        new = rule(rng, n, names)
        if new is None or new == n:
            continue
        cand = put(e, path, new)
        if not vars_of(cand) or interval(cand, box) is None or not const_pair_free(cand):
            continue
        return cand, rule.__name__[2:]
    return None, None
