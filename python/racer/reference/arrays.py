"""NumPy's array functions over traced arrays: reductions as n-ary nodes (sum, mean, var, max,
argmax as a chain of selects, cumsum), np.where as selects, matmul/dot/einsum as sums of
products, and the functions that only move cells, applied to the array of node ids."""
import numbers
import string
from fractions import Fraction

import numpy as np

from .array import SymArray
from .ops import _map1, _stack, as_sym, fail_at, to_conditions, to_numbers

def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, numbers.Integral):
        axis = (axis,)
    out = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < ndim:
            fail_at(f"axis {a} is out of bounds for an array of {ndim} dimensions")
        out.append(a % ndim)
    return tuple(sorted(set(out)))


def _reduce(g, x, axis, keepdims, combine):
    """combine(list of ids) -> id, over the cells along `axis` for every other position."""
    x = as_sym(g, x)
    axes = _axes(axis, x.ndim)
    keep = [d for d in range(x.ndim) if d not in axes]
    moved = x.ids.transpose(keep + list(axes))
    outer = [x.shape[d] for d in keep]
    rows = moved.reshape(int(np.prod(outer, dtype=np.int64)), -1)
    if rows.shape[1] == 0:
        fail_at("a reduction over an empty axis")
    out = np.array([combine([int(i) for i in r]) for r in rows], dtype=np.int64).reshape(outer)
    if keepdims:
        out = out.reshape([1 if d in axes else x.shape[d] for d in range(x.ndim)])
    return out, x


def _sum(g, x, axis=None, keepdims=False, dtype=None, initial=None, where=None, out=None):
    _no(out, where, initial)
    ids, _ = _reduce(g, to_numbers(as_sym(g, x)), axis, keepdims, lambda r: g.nary("add", r))
    return SymArray(g, ids)


def _prod(g, x, axis=None, keepdims=False, dtype=None, initial=None, where=None, out=None):
    _no(out, where, initial)
    ids, _ = _reduce(g, to_numbers(as_sym(g, x)), axis, keepdims, lambda r: g.nary("mul", r))
    return SymArray(g, ids)


def _count(x, axis):
    x_shape = np.shape(x.ids)
    n = 1
    for d in _axes(axis, len(x_shape)):
        n *= x_shape[d]
    return n


def _mean(g, x, axis=None, keepdims=False, dtype=None, out=None, where=None):
    _no(out, where)
    x = to_numbers(as_sym(g, x))
    s = _sum(g, x, axis, keepdims)
    inv = g.const(Fraction(1, _count(x, axis)))
    return SymArray(g, _map1(s.ids, lambda i: g.mul(i, inv)))


def _var(g, x, axis=None, keepdims=False, ddof=0, dtype=None, out=None, where=None, mean=None, correction=None):
    _no(out, where)
    x = to_numbers(as_sym(g, x))
    m = _mean(g, x, axis, keepdims=True)
    d = np.subtract(x, m)
    s = _sum(g, np.multiply(d, d), axis, keepdims)
    n = _count(x, axis) - (correction if correction is not None else ddof)
    inv = g.const(Fraction(1, n))
    return SymArray(g, _map1(s.ids, lambda i: g.mul(i, inv)))


def _std(g, x, axis=None, keepdims=False, ddof=0, **kw):
    v = _var(g, x, axis, keepdims, ddof, **kw)
    return SymArray(g, _map1(v.ids, lambda i: g.func("sqrt", i)))


def _max(g, x, axis=None, keepdims=False, out=None, initial=None, where=None, op="max"):
    _no(out, where, initial)
    ids, _ = _reduce(g, to_numbers(as_sym(g, x)), axis, keepdims, lambda r: g.nary(op, r))
    return SymArray(g, ids)


def _min(g, x, axis=None, keepdims=False, out=None, initial=None, where=None):
    return _max(g, x, axis, keepdims, out, initial, where, op="min")


def _argbest(g, x, axis, keepdims, better):
    """The first index of the largest (smallest) cell: a chain of selects on comparisons."""
    x = to_numbers(as_sym(g, x))
    if axis is None:
        x, axis = x.reshape(-1), 0

    def combine(r):
        best, idx = r[0], g.const(0)
        for k, v in enumerate(r[1:], 1):
            c = g.compare("lt", best, v) if better == "max" else g.compare("lt", v, best)
            idx = g.select(c, g.const(k), idx)
            best = g.nary(better, [best, v])
        return idx
    ids, _ = _reduce(g, x, axis, keepdims, combine)
    return SymArray(g, ids)


def _any_all(g, x, axis=None, keepdims=False, out=None, where=None, op="or"):
    _no(out, where)
    x = to_conditions(as_sym(g, x))
    fn = g.logical_or if op == "or" else g.logical_and

    def combine(r):
        acc = r[0]
        for v in r[1:]:
            acc = fn(acc, v)
        return acc
    ids, _ = _reduce(g, x, axis, keepdims, combine)
    return SymArray(g, ids, condition=True)


def _cumsum(g, x, axis=None, dtype=None, out=None):
    _no(out)
    x = to_numbers(as_sym(g, x))
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = _axes(axis, x.ndim)[0]
    moved = np.moveaxis(x.ids, axis, -1).copy()
    flat = moved.reshape(-1, moved.shape[-1])
    for r in flat:
        for k in range(1, len(r)):
            r[k] = g.add(int(r[k - 1]), int(r[k]))
    return SymArray(g, np.moveaxis(flat.reshape(moved.shape), -1, axis))


def _where(g, cond, x=None, y=None):
    if x is None or y is None:
        fail_at("np.where(cond) with one argument gives indices that depend on the data; use np.where(cond, a, b)")
    c = cond if isinstance(cond, SymArray) else as_sym(g, np.asarray(cond, dtype=bool))
    c = to_conditions(c)
    x, y = as_sym(g, x), as_sym(g, y)
    if x.condition != y.condition:
        x, y = to_numbers(x), to_numbers(y)
    cc, xx, yy = np.broadcast_arrays(c.ids, x.ids, y.ids)
    out = np.empty(cc.shape, dtype=np.int64)
    o = out.reshape(-1)
    for k, (a, b, d) in enumerate(zip(cc.reshape(-1).tolist(), xx.reshape(-1).tolist(), yy.reshape(-1).tolist())):
        o[k] = g.select(a, b, d)
    return SymArray(g, out, condition=x.condition)


def _clip(g, x, lo=None, hi=None, out=None, **kw):
    _no(out)
    r = as_sym(g, x)
    if lo is not None:
        r = np.maximum(r, lo)
    if hi is not None:
        r = np.minimum(r, hi)
    return r


def matmul(g, a, b):
    a, b = to_numbers(as_sym(g, a)), to_numbers(as_sym(g, b))
    va, vb = a.ndim == 1, b.ndim == 1
    A = a.ids[None, :] if va else a.ids
    B = b.ids[:, None] if vb else b.ids
    if A.shape[-1] != B.shape[-2]:
        fail_at(f"matmul: shapes {a.shape} and {b.shape} do not align")
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    A = np.broadcast_to(A, batch + A.shape[-2:])
    B = np.broadcast_to(B, batch + B.shape[-2:])
    m, k, n = A.shape[-2], A.shape[-1], B.shape[-1]
    out = np.empty(batch + (m, n), dtype=np.int64)
    Af, Bf, Of = A.reshape(-1, m, k), B.reshape(-1, k, n), out.reshape(-1, m, n)
    for p in range(Af.shape[0]):
        rows, cols = Af[p].tolist(), Bf[p].T.tolist()
        for i in range(m):
            for j in range(n):
                Of[p, i, j] = g.nary("add", [g.mul(x, y) for x, y in zip(rows[i], cols[j])])
    if va:
        out = out[..., 0, :]
    if vb:
        out = out[..., 0]
    return SymArray(g, out)


def _dot(g, a, b, out=None):
    _no(out)
    a, b = as_sym(g, a), as_sym(g, b)
    if a.ndim <= 2 and b.ndim <= 2:
        if a.ndim == 0 or b.ndim == 0:
            return np.multiply(a, b)
        return matmul(g, a, b)
    fail_at("np.dot of arrays of more than 2 dimensions; use np.matmul or np.einsum")


def _einsum(g, subscripts, *operands, out=None, optimize=False, **kw):
    _no(out)
    if not isinstance(subscripts, str):
        fail_at("np.einsum with operand/sublist pairs; write the subscripts as a string")
    ops = [to_numbers(as_sym(g, o)) for o in operands]
    spec = subscripts.replace(" ", "")
    lhs, _, rhs = spec.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ops):
        fail_at(f"np.einsum('{subscripts}') names {len(ins)} operands but {len(ops)} are given")
    if "." in spec:
        # An ellipsis stands for the same leading dimensions everywhere: name them.
        spare = [c for c in string.ascii_letters if c not in spec]
        nd = max(o.ndim - (len(s) - 3) for s, o in zip(ins, ops) if "..." in s)
        ell = "".join(spare[:nd])
        ins = [s.replace("...", ell[nd - (o.ndim - (len(s) - 3)):]) for s, o in zip(ins, ops)]
        rhs = rhs.replace("...", ell) if "->" in spec else None
    if not rhs and "->" not in spec:
        counts = {}
        for s in ins:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        rhs = "".join(sorted(c for c, n in counts.items() if n == 1))
    size = {}
    for s, o in zip(ins, ops):
        if len(s) != o.ndim:
            fail_at(f"np.einsum('{subscripts}'): '{s}' has {len(s)} indices but the operand {o.ndim} dimensions")
        for c, d in zip(s, o.shape):
            if size.setdefault(c, d) != d and d != 1 and size[c] != 1:
                fail_at(f"np.einsum('{subscripts}'): index '{c}' has sizes {size[c]} and {d}")
            size[c] = max(size[c], d)
    summed = [c for c in dict.fromkeys("".join(ins)) if c not in rhs]
    out_shape = tuple(size[c] for c in rhs)
    out_ids = np.empty(out_shape, dtype=np.int64)
    lists = [o.ids for o in ops]
    for pos in np.ndindex(*out_shape) if out_shape else [()]:
        env = dict(zip(rhs, pos))
        terms = []
        for spos in np.ndindex(*[size[c] for c in summed]) if summed else [()]:
            env.update(zip(summed, spos))
            factors = [int(l[tuple(env[c] if o.shape[k] > 1 else 0 for k, c in enumerate(s))])
                       for l, s, o in zip(lists, ins, ops)]
            t = factors[0]
            for f in factors[1:]:
                t = g.mul(t, f)
            terms.append(t)
        out_ids[pos] = g.nary("add", terms)
    return SymArray(g, out_ids)


def _no(*unsupported):
    for u in unsupported:
        if u is not None and u is not np._NoValue:
            fail_at("out=, where= and initial= are not supported in a reference")


def _concatenate(g, arrays, axis=0, out=None, **kw):
    parts = [as_sym(g, a) for a in arrays]
    cond = all(p.condition for p in parts)
    parts = [p if cond else to_numbers(p) for p in parts]
    return SymArray(g, np.concatenate([p.ids for p in parts], axis=axis), condition=cond)


def _structural(np_fn):
    """Functions that only move cells: applied to the array of node ids."""
    def run(g, x, *args, **kwargs):
        x = as_sym(g, x)
        return SymArray(g, np_fn(x.ids, *args, **kwargs), condition=x.condition)
    return run


def _like(value):
    def run(g, x, *args, **kwargs):
        shape = np.shape(x.ids) if isinstance(x, SymArray) else np.shape(x)
        return as_sym(g, np.full(shape, value))
    return run


def _full_like(g, x, fill_value, *args, **kwargs):
    shape = np.shape(x.ids) if isinstance(x, SymArray) else np.shape(x)
    return np.broadcast_to(as_sym(g, fill_value), shape)


def _take_along_axis(g, arr, indices, axis=None):
    arr = as_sym(g, arr)
    if isinstance(indices, SymArray):
        indices.__index__()
    return SymArray(g, np.take_along_axis(arr.ids, np.asarray(indices), axis), condition=arr.condition)


def _take(g, a, indices, axis=None, out=None, mode="raise"):
    _no(out)
    a = as_sym(g, a)
    if isinstance(indices, SymArray):
        indices.__index__()
    return SymArray(g, np.take(a.ids, np.asarray(indices), axis=axis, mode=mode), condition=a.condition)


def _tri(np_fn):
    def run(g, x, k=0):
        x = as_sym(g, x)
        mask = np_fn(np.ones(x.shape, dtype=bool), k)
        return _where(g, mask, x, 0)
    return run


FUNCTIONS = {
    "sum": _sum, "mean": _mean, "prod": _prod, "var": _var, "std": _std,
    "max": _max, "amax": _max, "min": _min, "amin": _min,
    "argmax": lambda g, x, axis=None, out=None, keepdims=False: _argbest(g, x, axis, keepdims, "max"),
    "argmin": lambda g, x, axis=None, out=None, keepdims=False: _argbest(g, x, axis, keepdims, "min"),
    "any": lambda g, x, axis=None, keepdims=False, **kw: _any_all(g, x, axis, keepdims, op="or"),
    "all": lambda g, x, axis=None, keepdims=False, **kw: _any_all(g, x, axis, keepdims, op="and"),
    "cumsum": _cumsum, "where": _where, "clip": _clip, "dot": _dot, "einsum": _einsum,
    "stack": _stack, "concatenate": _concatenate, "vstack": lambda g, a, **kw: _concatenate(g, [np.atleast_2d(x) for x in a], 0),
    "reshape": _structural(np.reshape), "transpose": _structural(np.transpose), "swapaxes": _structural(np.swapaxes),
    "moveaxis": _structural(np.moveaxis), "expand_dims": _structural(np.expand_dims), "squeeze": _structural(np.squeeze),
    "broadcast_to": _structural(np.broadcast_to), "flip": _structural(np.flip), "ravel": _structural(np.ravel),
    "atleast_1d": _structural(np.atleast_1d), "atleast_2d": _structural(np.atleast_2d), "roll": _structural(np.roll),
    "tile": _structural(np.tile), "repeat": _structural(np.repeat), "copy": _structural(np.copy),
    "split": lambda g, x, *a, **k: [SymArray(g, p, x.condition) for p in np.split(as_sym(g, x).ids, *a, **k)],
    "take_along_axis": _take_along_axis, "take": _take, "tril": _tri(np.tril), "triu": _tri(np.triu),
    "zeros_like": _like(0), "ones_like": _like(1), "full_like": _full_like,
    "shape": lambda g, x: np.shape(as_sym(g, x).ids), "ndim": lambda g, x: as_sym(g, x).ndim,
    "size": lambda g, x, axis=None: np.size(as_sym(g, x).ids, axis),
    "broadcast_arrays": lambda g, *xs: [SymArray(g, i, as_sym(g, x).condition)
                                        for i, x in zip(np.broadcast_arrays(*[as_sym(g, x).ids for x in xs]), xs)],
}
