"""One labelled pair from (seed, index): program A, program B, the launch shape, the label.

  rewrite (label equivalent):   B's formula is A's after identities over the reals (identities.py,
                                and the reduction-level ones below), B's kernel shape is drawn anew
                                (loop / warp shuffles / shared memory / atomics / Triton).
  mutant  (label inequivalent): B is such a rewrite carrying one slip (mutations.py, or a kernel
                                bug: loop bound, row, shuffle partner, tree stride, missing mask).

The label is then checked against the reference model at random and special inputs of the box:
a rewrite must agree everywhere (else the generator is wrong: the pair is dropped and counted),
a mutant must differ by far more than f32 rounding somewhere (else another slip is drawn).
Every draw depends only on (seed, index), so any pair can be rebuilt alone.
"""
import random
from dataclasses import dataclass, field

import numpy as np

from expr import E, var, const, un, bin_, interval, substitute, nodes, is_const
from gen_expr import gen
from identities import rewrite
from mutations import mutate
from program import Spec, Shape, Impl, simulate

BOXES = ((0.5, 4.0), (-2.0, 2.0), (0.25, 2.0), (1.0, 3.0), (-1.0, 1.5), (-4.0, -0.5), (0.5, 1.5))
REL_EQUAL = 1e-6     # a rewrite's two models agree this closely (float64 on equal reals)
REL_DIFFER = 1e-3    # a mutant's two models differ this much somewhere: ~10^4 f32 ulps
TRITON_SHARE = 0.3


@dataclass
class Side:
    spec: Spec
    impl: Impl


@dataclass
class Pair:
    seed: int
    idx: int
    label: str            # equivalent | inequivalent
    category: str
    shape: Shape
    a: Side
    b: Side
    how: list = field(default_factory=list)   # what was done to get B from A
    max_rel: float = 0.0                      # largest model difference seen at the draws

    @property
    def name(self):
        return f"fz{self.seed}_{self.idx:06d}"


# ---------------------------------------------------------------- shapes and kernels

def draw_shape(rng, kind):
    box = {v: rng.choice(BOXES) for v in "abc"}
    if kind == "elem":
        n = rng.randint(5, 150)
        return Shape(1, n, n, box)
    R = rng.choice((2, 2, 3, 4))
    n = rng.choice((rng.randint(3, 20), rng.randint(20, 48), 32, 16))
    return Shape(R, n, n + rng.choice((0, 0, 1, 3)), box)


def draw_impl(rng, spec, sh, lang):
    other = {v: sh.box[v][0] for v in "abc"}
    if spec.kind == "elem":
        if lang == "triton":
            return Impl("triton", "telem", {"BLOCK": rng.choice((32, 64)), "other": other})
        return Impl("cuda", "elem", {"B": rng.choice((32, 64, 128)), "gridstride": rng.random() < 0.3})
    if lang == "triton":
        return Impl("triton", "tloop", {"BLOCK": rng.choice((16, 32, 64)), "other": other})
    tmpls = ["loop", "loop", "warp", "smem"]
    if spec.red == "sum" and spec.G == var("s"):
        tmpls.append("atomic")
    t = rng.choice(tmpls)
    branchy = spec.F.op == "where" and spec.red in ("sum", "prod") and rng.random() < 0.5
    if t == "loop":
        return Impl("cuda", "loop", {"T": rng.choice((1, 2, 4)), "order": rng.choice(("fwd", "bwd")),
                                     "unroll": rng.choice(("default", "rolled", "unroll4")),
                                     "split2": rng.random() < 0.25, "branchy": branchy})
    if t == "warp":
        return Impl("cuda", "warp", {"rows_per_block": rng.choice((1, 2)), "shfl": rng.choice(("down", "xor")),
                                     "offsets": [16, 8, 4, 2, 1] if rng.random() < 0.7 else [1, 2, 4, 8, 16],
                                     "branchy": branchy})
    if t == "smem":
        BT = rng.choice((32, 64, 128))
        return Impl("cuda", "smem", {"BT": BT, "start": BT // 2, "stop": 0, "branchy": branchy})
    return Impl("cuda", "atomic", {"B": rng.choice((32, 64, 128))})


def kernel_bugs(impl, sh):
    """Slips that this kernel shape can carry."""
    t = impl.tmpl
    if t in ("elem", "telem"):
        return ["shift", "tail"]
    bugs = ["skip_last", "skip_first"] + (["wrong_row"] if sh.R % 2 == 0 else [])
    if t == "warp":
        bugs.append("offsets")
    if t == "smem":
        bugs += ["half", "early"]
    if t == "tloop" and sh.n % impl.p["BLOCK"]:
        bugs.append("nowhere")
    return bugs


def apply_bug(rng, impl, bug):
    p = dict(impl.p)
    if bug == "offsets":
        offs = list(p["offsets"])
        if rng.random() < 0.5:
            offs.pop(rng.randrange(len(offs)))
        else:
            offs[rng.randrange(len(offs))] = rng.choice((3, 5, 6, 12))
        p["offsets"] = offs
        return Impl(impl.lang, impl.tmpl, p, "")   # a wrong partner: the model follows the offsets
    if bug == "half":
        p["start"] = p["BT"] // 4
        return Impl(impl.lang, impl.tmpl, p, "")
    if bug == "early":
        p["stop"] = 1
        return Impl(impl.lang, impl.tmpl, p, "")
    return Impl(impl.lang, impl.tmpl, p, bug)


# ---------------------------------------------------------------- specs

def acc_interval(spec, sh):
    iv = interval(spec.F, sh.box)
    lo, hi = iv
    if spec.red == "sum":
        return (min(sh.n * lo, 0.0), max(sh.n * hi, 0.0))
    if spec.red == "prod":
        return (min(lo ** sh.n, 1.0), max(hi ** sh.n, 1.0))
    # max/min: with slips that leave a lane empty, +-inf never reaches G (the tree still has a cell)
    return iv


def draw_spec(rng, kind, sh):
    F = gen(rng, sh.box, rng.choice((1, 2, 2, 3, 3, 4)))
    if kind == "elem":
        return Spec("elem", F)
    iv = interval(F, sh.box)
    reds = ["sum"] * 5 + ["max"] * 2 + ["min"]
    if 0.3 <= iv[0] and iv[1] <= 3.0 and sh.n <= 32:
        reds += ["prod"] * 2
    spec = Spec("row", F, rng.choice(reds), var("s"))
    if rng.random() < 0.5:
        a = acc_interval(spec, sh)
        spec.G = gen(rng, {"s": a}, rng.choice((1, 2)), ["s"], limit=max(200.0, 2 * max(map(abs, a))))
    return spec


MONO = ("exp", "tanh", "erf", "sigmoid", "sqrt")
OTHER_RED = {"max": "min", "min": "max"}


def spec_identity(rng, spec, sh):
    """A reduction-level identity over the reals, or None: the new Spec equals the old one."""
    F, G, red = spec.F, spec.G, spec.red
    s = var("s")
    opts = []
    if red == "sum" and F.op == "mul" and is_const(F.args[1]) and not is_const(F.args[0]):
        # sum_j c * H = c * sum_j H
        opts.append(Spec("row", F.args[0], "sum", substitute(G, "s", bin_("mul", s, F.args[1]))))
    if red == "prod" and F.op == "exp":
        # prod_j exp(H) = exp(sum_j H)
        opts.append(Spec("row", F.args[0], "sum", substitute(G, "s", un("exp", s))))
    iv = interval(F, sh.box)
    if red == "sum" and iv and max(map(abs, iv)) * sh.n <= 60:
        # sum_j H = log(prod_j exp(H))
        opts.append(Spec("row", un("exp", F), "prod", substitute(G, "s", un("log", s))))
    if red in ("max", "min") and F.op in MONO:
        # max_j f(H) = f(max_j H) for increasing f
        opts.append(Spec("row", F.args[0], red, substitute(G, "s", un(F.op, s))))
    if red in ("max", "min"):
        # max_j H = -min_j(-H)
        opts.append(Spec("row", un("neg", F), OTHER_RED[red], substitute(G, "s", un("neg", s))))
    if red in ("max", "min") and iv and iv[1] <= 8:
        # max_j H = log(max_j exp(H))
        opts.append(Spec("row", un("exp", F), red, substitute(G, "s", un("log", s))))
    return rng.choice(opts) if opts else None


def rewrite_spec(rng, spec, sh, how):
    """An equal Spec: identities on F (and G), maybe one at the reduction level."""
    F, used = spec.F, []
    for _ in range(4):  # an identity that applies somewhere (a bare var may admit none)
        F, used = rewrite(rng, spec.F, sh.box, rng.choice((1, 2, 3)))
        if used:
            break
    how += [f"F:{u}" for u in used]
    out = Spec(spec.kind, F, spec.red, spec.G)
    if spec.kind == "row":
        if rng.random() < 0.4:
            cand = spec_identity(rng, out, sh)
            if cand is not None and _spec_ok(cand, sh):
                out = cand
                how.append("reduction-identity")
        if out.G != var("s") and rng.random() < 0.5:
            G, used = rewrite(rng, out.G, {"s": acc_interval(out, sh)}, 1)
            out = Spec("row", out.F, out.red, G)
            how += [f"G:{u}" for u in used]
    return out


def _spec_ok(spec, sh):
    if interval(spec.F, sh.box) is None:
        return False
    return spec.kind == "elem" or interval(spec.G, {"s": acc_interval(spec, sh)}) is not None


def lang_ok(spec, lang):
    return lang == "cuda" or spec.kind == "elem" or spec.red != "prod"


# ---------------------------------------------------------------- model check

def draws(rng, sh, specs, k=6):
    """Input sets: random in the box (f32 values), the box's corners, each comparison constant."""
    shape = (sh.n,) if specs[0].kind == "elem" else (sh.R, sh.S)
    cells = int(np.prod(shape))

    def fill(f):
        return {t: np.float64(np.float32(f(v, t))) for v, t in (("a", "x"), ("b", "y"), ("c", "z"))}
    out = []
    for _ in range(k):
        out.append(fill(lambda v, t: np.array([rng.uniform(*sh.box[v]) for _ in range(cells)]).reshape(shape)))
    out.append(fill(lambda v, t: np.full(shape, sh.box[v][0])))
    out.append(fill(lambda v, t: np.full(shape, sh.box[v][1])))
    for sp in specs:
        for _, n in nodes(sp.F):
            if n.op == "where" and n.args[0].op == "var" and is_const(n.args[1]):
                c = n.args[1].value
                lo, hi = sh.box[n.args[0].name]
                if not lo <= c <= hi:  # the question is asked over the box only
                    continue
                base = out[0]
                d = dict(base)
                d[{"a": "x", "b": "y", "c": "z"}[n.args[0].name]] = np.full(shape, c)
                out.append(d)
    return out


def model_gap(pair, rng):
    """Largest relative difference of the two models over the draws."""
    gap = 0.0
    for inp in draws(rng, pair.shape, (pair.a.spec, pair.b.spec)):
        oa = simulate(pair.a.spec, pair.shape, pair.a.impl, inp)
        ob = simulate(pair.b.spec, pair.shape, pair.b.impl, inp)
        if not (np.all(np.isfinite(oa)) and np.all(np.isfinite(ob))):
            return float("nan")
        d = np.abs(oa - ob) / np.maximum(1.0, np.maximum(np.abs(oa), np.abs(ob)))
        gap = max(gap, float(np.max(d)))
    return gap


# ---------------------------------------------------------------- the pair

def make_pair(seed, idx):
    """The pair (seed, idx), or (None, why) when its label could not be established."""
    rng = random.Random(f"racer-soundness:{seed}:{idx}")
    label = "equivalent" if rng.random() < 0.5 else "inequivalent"
    for attempt in range(12):
        pair = _attempt(rng, seed, idx, label)
        if pair is None:
            continue
        gap = model_gap(pair, random.Random(f"draws:{seed}:{idx}:{attempt}"))
        pair.max_rel = gap
        if gap != gap:  # nan: a model output overflowed; draw again
            continue
        if pair.label == "equivalent":
            if gap <= REL_EQUAL:
                return pair, None
            return None, f"rewrite differs in the model ({gap:.3g}): {pair.how}"
        if gap >= REL_DIFFER:
            return pair, None
    return None, "no mutant with a manifest witness"


def _attempt(rng, seed, idx, label):
    kind = "row" if rng.random() < 0.72 else "elem"
    sh = draw_shape(rng, kind)
    spec_a = draw_spec(rng, kind, sh)
    langs = ["cuda", "cuda"]
    if rng.random() < TRITON_SHARE:
        langs[rng.randrange(2)] = "triton"
        if rng.random() < 0.15:
            langs = ["triton", "triton"]
    how = []
    spec_b = rewrite_spec(rng, spec_a, sh, how)
    if not lang_ok(spec_a, langs[0]) or not lang_ok(spec_b, langs[1]):
        langs = ["cuda", "cuda"]
    impl_a = draw_impl(rng, spec_a, sh, langs[0])
    impl_b = draw_impl(rng, spec_b, sh, langs[1])
    category = "none"
    if label == "inequivalent":
        r = rng.random()
        if r < 0.55:
            F, rule = mutate(rng, spec_b.F, sh.box, sorted("abc"))
            if F is None:
                return None
            spec_b = Spec(spec_b.kind, F, spec_b.red, spec_b.G)
            if not _spec_ok(spec_b, sh):
                return None
            how.append(f"mutate-F:{rule}")
            category = "sampled_input" if rule == "strict" else "other"
        elif r < 0.65 and spec_b.kind == "row" and spec_b.G != var("s"):
            G, rule = mutate(rng, spec_b.G, {"s": acc_interval(spec_b, sh)}, ["s"])
            if G is None:
                G = bin_("mul", spec_b.G, const(1.5))
                rule = "scale"
            spec_b = Spec("row", spec_b.F, spec_b.red, G)
            if not _spec_ok(spec_b, sh):
                return None
            how.append(f"mutate-G:{rule}")
            category = "other"
        else:
            bug = rng.choice(kernel_bugs(impl_b, sh))
            impl_b = apply_bug(rng, impl_b, bug)
            how.append(f"bug:{bug}")
            category = "other"
    if spec_b.kind == "row" and impl_b.tmpl == "atomic" and spec_b.G != var("s"):
        return None
    return Pair(seed, idx, label, category, sh, Side(spec_a, impl_a), Side(spec_b, impl_b), how)
