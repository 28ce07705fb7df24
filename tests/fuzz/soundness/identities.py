"""Rewrites that are identities over the reals on the input box: a rewritten formula is equal to
the original for every input, so a pair (original, rewritten) is equivalent by construction.

Each rule takes a node and returns an equal node or None. Conditions are checked with interval
bounds where the identity needs them (log(a*b) = log a + log b only for positive a and b).
No rule relies on a float constant being the decimal it came from: x / c becomes x * (1/c) only
for c a power of two (then 1/c is exact), and no rule creates an operation of two constants.
"""
import math

from expr import E, const, un, bin_, fma, where, interval, nodes, put, is_const, const_pair_free

NEG_CMP = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}   # not (l < r)  <=>  l >= r
FLIP_CMP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}  # l < r  <=>  r > l


def _pow2(v):
    if v == 0:
        return False
    m, _ = math.frexp(abs(v))
    return m == 0.5


def _pos(e, box, lo=0.0):
    iv = interval(e, box)
    return iv is not None and iv[0] > lo


def r_commute(rng, e, box):
    if e.op in ("add", "mul", "min", "max"):
        return bin_(e.op, e.args[1], e.args[0])
    if e.op == "fma":
        return fma(e.args[1], e.args[0], e.args[2])


def r_assoc(rng, e, box):
    a, b = (e.args + (None, None))[:2]
    if e.op in ("add", "mul", "min", "max") and a.op == e.op:
        return bin_(e.op, a.args[0], bin_(e.op, a.args[1], b))
    if e.op in ("add", "mul", "min", "max") and b.op == e.op:
        return bin_(e.op, bin_(e.op, a, b.args[0]), b.args[1])


def r_distribute(rng, e, box):
    if e.op == "mul":
        a, b = e.args
        if b.op in ("add", "sub"):
            return bin_(b.op, bin_("mul", a, b.args[0]), bin_("mul", a, b.args[1]))
        if a.op in ("add", "sub"):
            return bin_(a.op, bin_("mul", a.args[0], b), bin_("mul", a.args[1], b))
    if e.op == "div" and e.args[0].op in ("add", "sub"):
        n, d = e.args
        return bin_(n.op, bin_("div", n.args[0], d), bin_("div", n.args[1], d))


def r_factor(rng, e, box):
    """a*b + a*c -> a*(b + c)"""
    if e.op in ("add", "sub") and e.args[0].op == "mul" and e.args[1].op == "mul":
        (p, q), (r, s) = e.args[0].args, e.args[1].args
        if p == r:
            return bin_("mul", p, bin_(e.op, q, s))
        if q == s:
            return bin_("mul", bin_(e.op, p, r), q)


def r_sub(rng, e, box):
    if e.op == "sub":
        return bin_("add", e.args[0], un("neg", e.args[1]))
    if e.op == "add" and e.args[1].op == "neg":
        return bin_("sub", e.args[0], e.args[1].args[0])
    if e.op == "neg" and e.args[0].op == "sub":
        return bin_("sub", e.args[0].args[1], e.args[0].args[0])


def r_fma(rng, e, box):
    if e.op == "fma":
        return bin_("add", bin_("mul", e.args[0], e.args[1]), e.args[2])
    if e.op == "add" and e.args[0].op == "mul":
        return fma(e.args[0].args[0], e.args[0].args[1], e.args[1])


def r_div(rng, e, box):
    if e.op == "div":
        n, d = e.args
        if is_const(d) and _pow2(d.value):
            return bin_("mul", n, const(1.0 / d.value))
        if not is_const(d) and not is_const(n):
            return bin_("mul", n, bin_("div", const(1.0), d))
    if e.op == "mul" and is_const(e.args[1]) and _pow2(e.args[1].value) and not is_const(e.args[0]):
        return bin_("div", e.args[0], const(1.0 / e.args[1].value))


def r_exp(rng, e, box):
    if e.op == "exp":
        a = e.args[0]
        if a.op == "add":
            return bin_("mul", un("exp", a.args[0]), un("exp", a.args[1]))
        if a.op == "sub":
            return bin_("div", un("exp", a.args[0]), un("exp", a.args[1]))
        if a.op == "neg":
            return bin_("div", const(1.0), un("exp", a.args[0]))
        return bin_("mul", un("exp", bin_("mul", a, const(0.5))), un("exp", bin_("mul", a, const(0.5))))


def r_log(rng, e, box):
    if e.op == "log":
        a = e.args[0]
        if a.op == "mul" and _pos(a.args[0], box, 0.2) and _pos(a.args[1], box, 0.2):
            return bin_("add", un("log", a.args[0]), un("log", a.args[1]))
        if a.op == "div" and _pos(a.args[0], box, 0.2) and _pos(a.args[1], box, 0.2):
            return bin_("sub", un("log", a.args[0]), un("log", a.args[1]))
        if a.op == "exp":
            return a.args[0]
        if a.op == "sqrt" and _pos(a.args[0], box, 0.2):
            return bin_("mul", const(0.5), un("log", a.args[0]))


def r_sqrt(rng, e, box):
    if e.op == "rsqrt":
        return bin_("div", const(1.0), un("sqrt", e.args[0]))
    if e.op == "sqrt":
        a = e.args[0]
        if a.op == "mul" and _pos(a.args[0], box, 0.0) and _pos(a.args[1], box, 0.0):
            return bin_("mul", un("sqrt", a.args[0]), un("sqrt", a.args[1]))
        if _pos(a, box, 0.2):
            return bin_("mul", a, un("rsqrt", a))
    if e.op == "div" and is_const(e.args[0]) and e.args[0].value == 1.0 and e.args[1].op == "sqrt":
        return un("rsqrt", e.args[1].args[0])


def r_act(rng, e, box):
    """tanh, sigmoid and erf through each other, exp and symmetry."""
    if e.op == "tanh":
        x = e.args[0]
        k = rng.randrange(3)
        if k == 0:
            return bin_("sub", bin_("mul", const(2.0), un("sigmoid", bin_("mul", const(2.0), x))), const(1.0))
        if k == 1 and interval(x, box) and max(map(abs, interval(x, box))) <= 4:
            t = un("exp", bin_("mul", const(2.0), x))
            return bin_("div", bin_("sub", t, const(1.0)), bin_("add", t, const(1.0)))
        return un("neg", un("tanh", un("neg", x)))
    if e.op == "sigmoid":
        x = e.args[0]
        k = rng.randrange(4)
        if k == 0:
            return bin_("div", const(1.0), bin_("add", const(1.0), un("exp", un("neg", x))))
        if k == 1 and interval(x, box) and interval(x, box)[1] <= 8:
            t = un("exp", x)
            return bin_("div", t, bin_("add", const(1.0), t))
        if k == 2:
            return fma(const(0.5), un("tanh", bin_("mul", const(0.5), x)), const(0.5))
        return bin_("sub", const(1.0), un("sigmoid", un("neg", x)))
    if e.op == "erf":
        return un("neg", un("erf", un("neg", e.args[0])))


def r_select(rng, e, box):
    if e.op == "where":
        l, r, t, f = e.args
        if rng.random() < 0.5:
            return where(NEG_CMP[e.cmp], l, r, f, t)
        return where(FLIP_CMP[e.cmp], r, l, t, f)
    if e.op in ("min", "max"):
        a, b = e.args
        other = "max" if e.op == "min" else "min"
        if rng.random() < 0.5:
            return un("neg", bin_(other, un("neg", a), un("neg", b)))
        # max(a, b) = a > b ? a : b (equal at a = b, so < and <= both work)
        return where(rng.choice(("<", "<=")) if e.op == "min" else rng.choice((">", ">=")), a, b, a, b)
    if e.op == "abs":
        a = e.args[0]
        if rng.random() < 0.5:
            return bin_("max", a, un("neg", a))
        return where(rng.choice(("<", "<=")), a, const(0.0), un("neg", a), a)
    if e.op == "neg" and e.args[0].op == "neg":
        return e.args[0].args[0]


def r_double(rng, e, box):
    """x -> (x * 2) * 0.5 or x + x -> 2 * x: scaling by powers of two."""
    if e.op == "add" and e.args[0] == e.args[1]:
        return bin_("mul", const(2.0), e.args[0])
    if e.op == "mul" and e.args[0] == e.args[1] and e.args[0].op == "exp":
        return un("exp", bin_("mul", const(2.0), e.args[0].args[0]))
    if e.op in ("exp", "log", "sqrt", "tanh", "erf", "sigmoid", "var"):
        return bin_("mul", bin_("mul", e, const(4.0)), const(0.25))


RULES = [r_commute, r_assoc, r_distribute, r_factor, r_sub, r_fma, r_div, r_exp, r_log, r_sqrt,
         r_act, r_select, r_double]
WEIGHTS = [3, 2, 3, 1, 2, 2, 2, 3, 3, 3, 4, 3, 0.5]


def rewrite(rng, e, box, steps):
    """e after `steps` random identity rewrites (fewer if none applies); the names of the rules used."""
    used = []
    for _ in range(steps):
        sites = list(nodes(e))
        rng.shuffle(sites)
        done = False
        for path, n in sites[:30]:
            rule = rng.choices(RULES, WEIGHTS)[0]
            new = rule(rng, n, box)
            if new is None or new == n:
                continue
            cand = put(e, path, new)
            if interval(cand, box) is None or not const_pair_free(cand):
                continue
            e = cand
            used.append(rule.__name__[2:])
            done = True
            break
        if not done:
            continue
    return e, used
