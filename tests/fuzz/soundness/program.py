"""What a generated kernel computes (Spec), how it is written (Impl), and a reference model of
the written kernel (simulate).

A Spec is a function of the input tensors x, y, z (read as vars a, b, c):
  elem:  out[i] = F(x[i], y[i], z[i])                         for i < n
  row:   out[r] = G(RED_{j < n} F(x[r, j], y[r, j], z[r, j]))  for r < R   (rows of stride S >= n)
An Impl is one way a kernel author writes it: a CUDA loop, a warp-shuffle tree, a shared-memory
tree, float atomics, a Triton loop with masks. An Impl may carry a `bug` (an off-by-one loop
bound, a wrong shuffle partner, a missing mask, ...).

`simulate` follows the written algorithm, bug included, step by step (lane by lane for the
shuffles, level by level for the shared-memory tree, block by block with masked lanes for
Triton), in float64. It is the label's ground truth for mutants, so it mirrors the emitters
(emit_cuda.py, emit_triton.py) line for line rather than the Spec.
"""
from dataclasses import dataclass, field

import numpy as np

from expr import E, evaluate

NEUTRAL = {"sum": 0.0, "prod": 1.0, "max": -np.inf, "min": np.inf}
VARS = {"a": "x", "b": "y", "c": "z"}


@dataclass
class Spec:
    kind: str                 # "elem" | "row"
    F: E                      # over vars a, b, c
    red: str = "sum"          # row: sum | prod | max | min
    G: E = None               # row: over var s (the reduced value)

    def text(self):
        if self.kind == "elem":
            return f"out[i] = {self.F}"
        return f"out[r] = {self.G} with s = {self.red}_j {self.F}"


@dataclass
class Shape:
    R: int          # rows (row kind); 1 for elem
    n: int          # cells a row (row) or cells in all (elem)
    S: int          # row stride >= n (row); n for elem
    box: dict       # var -> (lo, hi), exact dyadic end points


@dataclass
class Impl:
    lang: str                  # cuda | triton
    tmpl: str                  # elem | loop | warp | smem | atomic | telem | tloop
    p: dict = field(default_factory=dict)
    bug: str = ""              # "" or the name of the slip this kernel carries

    def text(self):
        ps = ",".join(f"{k}={v}" for k, v in sorted(self.p.items()))
        return f"{self.lang}:{self.tmpl}({ps})" + (f" bug={self.bug}" if self.bug else "")


def combine(red, acc, t):
    if red == "sum": return acc + t
    if red == "prod": return acc * t
    if red == "max": return np.maximum(acc, t)
    return np.minimum(acc, t)


def reduce_axis(red, v, axis):
    return {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}[red](v, axis=axis)


def row_range(sh, impl):
    j0 = 1 if impl.bug == "skip_first" else 0
    jn = sh.n - 1 if impl.bug == "skip_last" else sh.n
    return j0, jn


def read_rows(sh, impl, inputs):
    """Row r's cells as the kernel reads them (row r ^ 1 with the wrong_row slip): [R, S] arrays."""
    rows = np.arange(sh.R)
    if impl.bug == "wrong_row":
        rows = rows ^ 1
    return {v: inputs[t][rows, :] for v, t in VARS.items()}


def simulate(spec, sh, impl, inputs):
    """float64 outputs of the kernel `impl` of `spec` at `inputs` (tensor name -> numpy array)."""
    if spec.kind == "elem":
        return _sim_elem(spec, sh, impl, inputs)
    env = read_rows(sh, impl, inputs)
    j0, jn = row_range(sh, impl)
    terms = evaluate(spec.F, env) * np.ones((sh.R, sh.S))  # [R, S], F at every cell of the row
    neutral = NEUTRAL[spec.red]
    t = impl.tmpl
    if t in ("loop", "atomic"):
        acc = reduce_axis(spec.red, terms[:, j0:jn], 1) if jn > j0 else np.full(sh.R, neutral)
    elif t == "warp":
        acc = _sim_tree_lanes(spec.red, terms, j0, jn, 32, impl)
    elif t == "smem":
        acc = _sim_tree_lanes(spec.red, terms, j0, jn, impl.p["BT"], impl)
    elif t == "tloop":
        acc = _sim_tloop(spec, sh, impl, inputs, j0, jn)
    else:
        raise ValueError(t)
    return evaluate(spec.G, {"s": acc}) * np.ones(sh.R)


def _lane_partials(red, terms, j0, jn, width):
    """Partial of thread `lane` of `width`: cells j = j0 + lane + width*k below jn."""
    R = terms.shape[0]
    part = np.full((R, width), NEUTRAL[red])
    for j in range(j0, jn):
        lane = (j - j0) % width
        part[:, lane] = combine(red, part[:, lane], terms[:, j])
    return part


def _sim_tree_lanes(red, terms, j0, jn, width, impl):
    v = _lane_partials(red, terms, j0, jn, width)
    if impl.tmpl == "warp":
        for o in impl.p["offsets"]:
            lanes = np.arange(32)
            if impl.p["shfl"] == "xor":
                src = lanes ^ o
            else:  # shfl.down: a source lane past 31 gives the lane its own value
                src = np.where(lanes + o <= 31, lanes + o, lanes)
            v = combine(red, v, v[:, src])
        return v[:, 0]
    # shared-memory tree: for (s = start; s > stop; s >>= 1) if (t < s) sh[t] op= sh[t + s]
    s = impl.p["start"]
    while s > impl.p["stop"]:
        upd = combine(red, v[:, :s], v[:, s:2 * s])
        v = v.copy()
        v[:, :s] = upd
        s >>= 1
    return v[:, 0]


def _sim_tloop(spec, sh, impl, inputs, j0, jn):
    """Triton: blocks of BLOCK lanes; masked lanes load `other` and, without the where, add F(other)."""
    B = impl.p["BLOCK"]
    other = impl.p["other"]
    rows = np.arange(sh.R) ^ 1 if impl.bug == "wrong_row" else np.arange(sh.R)
    acc = np.full(sh.R, NEUTRAL[spec.red])
    for i in range(0, sh.n, B):
        offs = i + np.arange(B)
        m = (offs >= j0) & (offs < jn)
        env = {}
        for v, t in VARS.items():
            cells = np.full((sh.R, B), other[v])
            ok = np.where(m)[0]
            cells[:, ok] = inputs[t][rows][:, offs[ok]]
            env[v] = cells
        t = evaluate(spec.F, env) * np.ones((sh.R, B))
        if impl.bug != "nowhere":
            t = np.where(m[None, :], t, NEUTRAL[spec.red])
        acc = combine(spec.red, acc, reduce_axis(spec.red, t, 1))
    return acc


def _sim_elem(spec, sh, impl, inputs):
    n = sh.n
    idx = np.arange(n)
    ia = (idx + 1) % n if impl.bug == "shift" else idx
    env = {"a": inputs["x"][ia], "b": inputs["y"][idx], "c": inputs["z"][idx]}
    val = evaluate(spec.F, env) * np.ones(n)
    out = np.zeros(n)
    live = n - 1 if impl.bug == "tail" else n
    out[:live] = val[:live]
    return out
