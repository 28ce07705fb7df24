"""PyTorch references: a function over torch tensors captured at the ATen operator level and
lowered into the same traced graph as a NumPy reference.

The function runs once under make_fx on fake tensors (shapes and dtypes only, no data, no GPU),
with PyTorch's core ATen decompositions, so torch.softmax, F.layer_norm, F.cross_entropy,
F.gelu, ... arrive as a short list of core operators. Each node of that graph is then computed
over SymArrays with the NumPy tracer's operations (ops.py). Two rules of PyTorch's own
arithmetic are kept: a Python number meeting a float32/float16/bfloat16 tensor is the float32
number PyTorch computes with (its "opmath" type), and dtype conversions are the identity over
the reals. An operator outside the table is refused by name, at the user's line."""
import math
import numbers

import numpy as np

from ..errors import RacerError, where
from . import ops
from .array import SymArray
from .functions import erf, gelu
from .location import add_library_dir


def available():
    try:
        import torch  # noqa: F401
        return True
    except Exception:
        return False


def uses_torch(fn):
    """Whether fn's module or its closure refers to torch (then it is captured with PyTorch, not
    NumPy): a reference nested in a function that imported torch sees it only through its closure."""
    seen = list(getattr(fn, "__globals__", {}).values())
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            seen.append(cell.cell_contents)
        except ValueError:  # a cell not yet assigned
            pass
    for v in seen:
        mod = getattr(v, "__name__", "") if isinstance(v, type(math)) else getattr(v, "__module__", "") or ""
        if mod == "torch" or mod.startswith("torch."):
            return True
    return False


_TORCH_DTYPE = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16", "i64": "int64",
                "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8", "bool": "bool"}


def capture(fn, names, inputs, tensors_by_name):
    """Runs fn(**{name: fake tensor}) under make_fx and lowers the graph over `inputs` (the
    values the NumPy tracer would pass: SymArrays, or NumPy arrays of known integers)."""
    import torch
    from torch._decomp import core_aten_decompositions
    from torch.fx.experimental.proxy_tensor import make_fx
    add_library_dir(__import__("os").path.dirname(torch.__file__))

    examples = []
    for n in names:
        t = tensors_by_name[n]
        examples.append(torch.zeros(tuple(t["shape"]), dtype=getattr(torch, _TORCH_DTYPE[t["dtype"]])))

    def positional(*args):
        with _line_mode()():
            return fn(**dict(zip(names, args)))
    from torch.func import functionalize
    try:
        # functionalize: in-place operators (add_, copy_) become their pure forms.
        gm = make_fx(functionalize(positional), tracing_mode="fake", decomposition_table=core_aten_decompositions(),
                     record_stack_traces=True)(*examples)
    except RacerError:
        raise
    except Exception as e:  # data-dependent control flow, an op fake tensors cannot run, ...
        raise RacerError(f"{where(_user_frame_of_exception(e))}PyTorch could not capture the reference without data "
                         "(a Python branch or conversion on tensor values? use torch.where): "
                         f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}") from None
    return lower(gm.graph, dict(zip(names, inputs)))


def _line_mode():
    """A torch-function mode that tags the graph nodes each torch call makes with the user's
    line (make_fx records no stack traces here)."""
    from torch.overrides import TorchFunctionMode
    from .location import user_line

    class Lines(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            from torch.fx.experimental.proxy_tensor import get_proxy_mode
            mode = get_proxy_mode()
            graph = getattr(getattr(mode, "tracer", None), "graph", None)
            before = len(graph.nodes) if graph is not None else 0
            out = func(*args, **(kwargs or {}))
            if graph is not None and len(graph.nodes) > before:
                loc = user_line()
                for n in list(graph.nodes)[before:]:
                    n.meta.setdefault("racer_line", loc)
            return out
    return Lines


def _user_frame_of_exception(e):
    import traceback
    from .location import _SKIP
    import os
    for fr in reversed(traceback.extract_tb(e.__traceback__)):
        p = os.path.abspath(fr.filename)
        if not any(p.startswith(s) for s in _SKIP) and not fr.filename.startswith("<"):
            return (p, fr.lineno)
    return (None, None)


def _node_line(node):
    """The user's line of an FX node, from the stack trace make_fx recorded."""
    import os
    from .location import _SKIP
    if node.meta.get("racer_line"):
        return node.meta["racer_line"]
    st = node.meta.get("stack_trace") or ""
    best = None
    lines = st.splitlines()
    for k, l in enumerate(lines):
        l = l.strip()
        if l.startswith('File "'):
            path = l[6:l.index('"', 6)]
            try:
                line = int(l.split(", line ")[1].split(",")[0])
            except (IndexError, ValueError):
                continue
            p = os.path.abspath(path)
            if not any(p.startswith(s) for s in _SKIP) and not path.startswith("<"):
                best = (p, line)
    return best


def lower(graph, inputs):
    g = None
    for v in inputs.values():
        if isinstance(v, SymArray):
            g = v.graph
    env = {}
    placeholders = iter(inputs.values())
    result = None
    for node in graph.nodes:
        if node.op == "placeholder":
            env[node] = next(placeholders)
        elif node.op == "call_function":
            import torch.fx
            args = torch.fx.node.map_arg(node.args, lambda n: env[n])
            kwargs = torch.fx.node.map_arg(node.kwargs, lambda n: env[n])
            loc = _node_line(node)
            g_prev = g.loc if g is not None else None
            if g is not None:
                g.loc = loc
            ops._state["depth"] += 1  # keep the node's own line, not the lowering's
            try:
                env[node] = _apply(node, args, kwargs, loc)
                # An in-place operator left by a decomposition (add_, copy_): later readers of
                # its first operand see the result.
                if _inplace(node) and isinstance(node.args[0], torch.fx.Node):
                    env[node.args[0]] = env[node]
            finally:
                ops._state["depth"] -= 1
                if g is not None:
                    g.loc = g_prev
        elif node.op == "output":
            import torch.fx
            result = torch.fx.node.map_arg(node.args[0], lambda n: env[n])
        elif node.op == "get_attr":
            raise RacerError(f"the captured reference holds a module attribute ({node.target}); "
                             "pass every tensor as an argument")
    return result


def _dtype(node):
    v = node.meta.get("val")
    if isinstance(v, (tuple, list)) and v:  # a multi-result operator (native_layer_norm): its first result
        v = v[0]
    return getattr(v, "dtype", None)


def _scalar_for(node, s):
    """A Python number as PyTorch computes with it beside this node's tensors."""
    import torch
    if isinstance(s, bool) or not isinstance(s, numbers.Number):
        return s
    dt = _dtype(node)
    if isinstance(s, float) and dt in (torch.float32, torch.float16, torch.bfloat16):
        return np.float32(s)
    if isinstance(s, float):
        return np.float64(s)
    return int(s)


def _fail(loc, message):
    raise RacerError(where(loc) + message if loc and loc[0] else message)


def _dims(d, ndim):
    if d is None:
        return None
    if isinstance(d, numbers.Integral):
        d = [d]
    return tuple(int(x) % ndim for x in d) if len(d) else None


def _inplace(node):
    name = getattr(node.target, "__name__", "").split(".")[0]
    return name.endswith("_") and not name.startswith("_")


def _apply(node, args, kwargs, loc):
    import operator
    if node.target is operator.getitem:  # one result of a multi-result operator
        return args[0][args[1]]
    name = node.target.__name__          # "add.Tensor"
    packet = name.split(".")[0]
    if _inplace(node):
        packet = packet[:-1]
        name = packet + name[len(packet) + 1:]
    fn = LOWER.get(name) or LOWER.get(packet)
    if fn is None:
        _fail(loc, f"the PyTorch operator aten.{name} is not supported by Racer's reference tracer")
    s = lambda v: _scalar_for(node, v)  # noqa: E731
    return fn(*args, **kwargs, _s=s, _node=node, _loc=loc)


def _shape(x):
    return x.shape if hasattr(x, "shape") else np.shape(x)


def _binary(f):
    def run(a, b, *rest, _s, alpha=1, **k):
        a, b = _s(a), _s(b)
        if alpha != 1:
            b = np.multiply(b, _s(alpha))
        return f(a, b)
    return run


def _reduce(f):
    def run(x, dim=None, keepdim=False, dtype=None, *, _s, **k):
        return f(x, axis=_dims(dim, len(_shape(x))), keepdims=keepdim)
    return run


def _var(x, dim=None, *, correction=None, keepdim=False, _s, **k):
    return np.var(x, axis=_dims(dim, len(_shape(x))), keepdims=keepdim, ddof=1 if correction is None else correction)


def _softmax(x, dim, half_to_float=False, *, _s, **k):
    return np.exp(x) / np.sum(np.exp(x), axis=dim, keepdims=True)


def _log_softmax(x, dim, half_to_float=False, *, _s, **k):
    return x - np.log(np.sum(np.exp(x), axis=dim, keepdims=True))


def _layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5, *, _s, **k):
    axes = tuple(range(len(_shape(x)) - len(normalized_shape), len(_shape(x))))
    mu = np.mean(x, axis=axes, keepdims=True)
    var = np.mean((x - mu) * (x - mu), axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(var + _s(eps))
    y = (x - mu) * rstd
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y, mu, rstd


def _slice(x, dim=0, start=None, end=None, step=1, *, _s, **k):
    idx = [slice(None)] * len(_shape(x))
    idx[dim] = slice(start, None if end is not None and end >= 2 ** 62 else end, step)
    return x[tuple(idx)]


def _select(x, dim, index, *, _s, **k):
    idx = [slice(None)] * len(_shape(x))
    idx[dim] = index
    return x[tuple(idx)]


def _index(x, indices, *, _s, **k):
    key = tuple(slice(None) if i is None else i for i in indices)
    return x[key]


def _gather(x, dim, index, *, _s, sparse_grad=False, **k):
    if isinstance(index, SymArray):
        index.__index__()
    return np.take_along_axis(x, np.asarray(index), axis=dim)


def _expand(x, size, *, _s, implicit=False, **k):
    shape = _shape(x)
    size = [s if s != -1 else shape[len(shape) - len(size) + i] for i, s in enumerate(size)]
    return np.broadcast_to(x, tuple(size))


def _squeeze(x, dim=None, *, _s, **k):
    if dim is None:
        return np.squeeze(x)
    dims = [d % len(_shape(x)) for d in ([dim] if isinstance(dim, int) else dim)]
    return np.squeeze(x, axis=tuple(d for d in dims if _shape(x)[d] == 1))


def _full(size, fill, *, _s, dtype=None, **k):
    return np.full(tuple(size), _s(fill))


def _arange(*a, _s, dtype=None, **k):
    nums = [x for x in a if isinstance(x, numbers.Number)]
    return np.arange(*nums)


def _where(c, a, b, *, _s, **k):
    return np.where(c, _s(a), _s(b))


def _gelu(x, approximate="none", *, _s, **k):
    return gelu(x, approximate=approximate)


def _copy_like(x, *a, _s, **k):
    return x


def _to_copy(x, *a, _s, dtype=None, _node=None, _loc=None, **k):
    import torch
    if dtype is not None and not dtype.is_floating_point and dtype != torch.bool:
        if isinstance(x, SymArray) and not x.condition:
            _fail(_loc, f"a conversion of real values to {dtype}: rounding to an integer has no exact form here")
        if isinstance(x, SymArray):
            return ops.to_numbers(x)
        return np.asarray(x).astype(np.int64)
    if dtype == torch.bool:
        return np.not_equal(x, 0) if not (isinstance(x, SymArray) and x.condition) else x
    return ops.to_numbers(x) if isinstance(x, SymArray) else x


def _clamp(x, min=None, max=None, *, _s, **k):
    r = x
    if min is not None:
        r = np.maximum(r, _s(min))
    if max is not None:
        r = np.minimum(r, _s(max))
    return r


def _max_dim(x, dim, keepdim=False, *, _s, **k):
    return np.max(x, axis=dim, keepdims=keepdim), np.argmax(x, axis=dim, keepdims=keepdim)


def _nll_loss(x, target, weight=None, reduction=1, ignore_index=-100, *, _s, **k):
    if weight is not None:
        _fail(k.get("_loc"), "nll_loss with class weights is not supported yet")
    t = np.asarray(target)
    keep = t != ignore_index
    picked = -np.take_along_axis(x, np.where(keep, t, 0)[..., None] if x.ndim > 1 else np.where(keep, t, 0),
                                 axis=-1 if x.ndim > 1 else 0)
    picked = picked[..., 0] if x.ndim > 1 else picked
    out = np.where(keep, picked, 0.0)
    count = int(np.sum(keep))
    if reduction == 0:
        return out, np.float64(count)
    total = np.sum(out)
    return (total if reduction == 2 else total / count), np.float64(count)


def _mm(a, b, *, _s, **k):
    return np.matmul(a, b)


def _addmm(bias, a, b, *, _s, beta=1, alpha=1, **k):
    return _s(beta) * bias + _s(alpha) * np.matmul(a, b)


def _embedding(weight, indices, *a, _s, **k):
    if isinstance(indices, SymArray):
        indices.__index__()
    return weight[np.asarray(indices)]


def _cat(tensors, dim=0, *, _s, **k):
    return np.concatenate(list(tensors), axis=dim)


def _unary(f):
    return lambda x, *a, _s, **k: f(x)


def _pow(x, e, *, _s, **k):
    return np.power(_s(x), _s(e))


def _cmp(f):
    return lambda a, b, *r, _s, **k: f(_s(a), _s(b))


LOWER = {
    "add": _binary(np.add), "sub": _binary(np.subtract), "rsub": _binary(lambda a, b: np.subtract(b, a)),
    "mul": _binary(np.multiply), "div": _binary(np.true_divide), "maximum": _binary(np.maximum),
    "minimum": _binary(np.minimum),
    "neg": _unary(np.negative), "exp": _unary(np.exp), "log": _unary(np.log), "log1p": _unary(np.log1p),
    "expm1": _unary(np.expm1), "sqrt": _unary(np.sqrt), "rsqrt": _unary(lambda x: 1 / np.sqrt(x)),
    "tanh": _unary(np.tanh), "erf": _unary(erf), "sigmoid": _unary(lambda x: 1 / (1 + np.exp(-x))),
    "abs": _unary(np.abs), "reciprocal": _unary(lambda x: 1 / x), "relu": _unary(lambda x: np.maximum(x, 0)),
    "sin": _unary(np.sin), "cos": _unary(np.cos), "exp2": _unary(np.exp2), "log2": _unary(np.log2),
    "logical_not": _unary(np.logical_not), "bitwise_not": _unary(np.logical_not),
    "pow": _pow, "clamp": _clamp, "where": _where,
    "eq": _cmp(np.equal), "ne": _cmp(np.not_equal), "lt": _cmp(np.less), "le": _cmp(np.less_equal),
    "gt": _cmp(np.greater), "ge": _cmp(np.greater_equal), "logical_and": _cmp(np.logical_and),
    "logical_or": _cmp(np.logical_or), "bitwise_and": _cmp(np.logical_and), "bitwise_or": _cmp(np.logical_or),
    "sum": _reduce(np.sum), "mean": _reduce(np.mean), "amax": _reduce(np.max), "amin": _reduce(np.min),
    "prod": _reduce(np.prod), "var": _var, "max.dim": _max_dim, "any": _reduce(np.any), "all": _reduce(np.all),
    "argmax": lambda x, dim=None, keepdim=False, *, _s, **k: np.argmax(x, axis=dim, keepdims=keepdim),
    "cumsum": lambda x, dim, *a, _s, **k: np.cumsum(x, axis=dim),
    "_softmax": _softmax, "_log_softmax": _log_softmax, "native_layer_norm": _layer_norm, "gelu": _gelu,
    "nll_loss_forward": _nll_loss, "mm": _mm, "bmm": _mm, "matmul": _mm, "addmm": _addmm, "embedding": _embedding,
    "view": lambda x, size, *, _s, **k: np.reshape(x, tuple(size)),
    "_unsafe_view": lambda x, size, *, _s, **k: np.reshape(x, tuple(size)),
    "reshape": lambda x, size, *, _s, **k: np.reshape(x, tuple(size)),
    "permute": lambda x, dims, *, _s, **k: np.transpose(x, tuple(dims)),
    "t": lambda x, *, _s, **k: np.transpose(x),
    "transpose": lambda x, a, b, *, _s, **k: np.swapaxes(x, a, b),
    "expand": _expand, "unsqueeze": lambda x, dim, *, _s, **k: np.expand_dims(x, dim % (len(_shape(x)) + 1)),
    "squeeze": _squeeze, "slice": _slice, "select": _select, "index": _index, "gather": _gather, "cat": _cat,
    "clone": _copy_like, "alias": _copy_like, "detach": _copy_like, "lift_fresh_copy": _copy_like,
    "_to_copy": _to_copy, "to": _to_copy,
    "full": _full, "scalar_tensor": lambda v, *, _s, **k: np.array(_s(v)),
    "full_like": lambda x, v, *, _s, **k: np.full(_shape(x), _s(v)),
    "zeros_like": lambda x, *, _s, **k: np.zeros(_shape(x)), "ones_like": lambda x, *, _s, **k: np.ones(_shape(x)),
    "arange": _arange, "copy": lambda dst, src, *a, _s, **k: np.broadcast_to(src, _shape(dst)),
}
