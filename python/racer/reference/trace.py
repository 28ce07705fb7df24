"""Tracing a reference function: it runs once over SymArrays standing for the instance's
tensors, and what it returns becomes program B's outputs, as a graph the core builds into its
expression store (src/check/reference_build.cpp)."""
import inspect
import os

import numpy as np

from ..errors import RacerError, fail, where
from . import ops, torch_capture
from .array import SymArray
from .graph import Graph

_INTEGER = ("i64", "i32", "i16", "i8", "u8", "bool")


def _function_name(fn):
    try:
        file = inspect.getsourcefile(fn)
        line = inspect.getsourcelines(fn)[1]
    except (TypeError, OSError):
        file, line = None, None
    name = getattr(fn, "__qualname__", getattr(fn, "__name__", repr(fn)))
    return (f"{name} ({file}:{line})" if file else name), (file, line)


def _argument(g, tensor, index, loc):
    """What the function receives for a tensor: known integer data as a NumPy array (so it can
    index, compare and branch), everything else as traced cells."""
    name, init, shape = tensor["name"], tensor["init"], tuple(tensor["shape"])
    if init == "empty":
        fail(f"the reference takes tensor '{name}', which is empty (never written): a reference reads inputs only", loc)
    if tensor["dtype"] in _INTEGER and init != "input":
        if init == "zeros":
            vals = [0] * int(np.prod(shape))
        elif "full" in init:
            vals = [int(init["full"])] * int(np.prod(shape))
        else:
            vals = [int(v) for v in init["values"]]
        return np.array(vals, dtype=np.bool_ if tensor["dtype"] == "bool" else np.int64).reshape(shape)
    ids = np.array([g.input(name, c) for c in range(int(np.prod(shape)))], dtype=np.int64).reshape(shape)
    return SymArray(g, ids)


def trace(fn, tensors, outputs):
    """fn: the reference; tensors: the instance description's tensor list; outputs: the output
    names. Returns the graph description (frontend/reference_json.hpp)."""
    function, loc = _function_name(fn)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        fail(f"cannot read the parameters of the reference {function}", loc)
    by_name = {t["name"]: (i, t) for i, t in enumerate(tensors)}
    g = Graph()
    kwargs = {}
    takes_rest = False
    for p in sig.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            takes_rest = True
        elif p.kind == p.VAR_POSITIONAL:
            continue
        elif p.name in by_name:
            i, t = by_name[p.name]
            kwargs[p.name] = _argument(g, t, i, loc)
        elif p.default is p.empty:
            fail(f"the reference's parameter '{p.name}' names no tensor of the instance "
                 f"(tensors: {', '.join(by_name)}); parameters are matched to tensors by name", loc)
    if takes_rest:
        for n, (i, t) in by_name.items():
            if n not in kwargs and t["init"] != "empty":
                kwargs[n] = _argument(g, t, i, loc)
    ops._state.update(graph=g, depth=0)
    try:
        if getattr(fn, "__racer_torch__", None) or torch_capture.uses_torch(fn):
            if not torch_capture.available():
                fail(f"the reference {function} uses PyTorch, which is not installed here", loc)
            result = torch_capture.capture(fn, list(kwargs), list(kwargs.values()), {t["name"]: t for t in tensors})
        else:
            result = fn(**kwargs)
    finally:
        ops._state.update(graph=None, depth=0)
    ret_loc = loc
    return g.describe(_outputs(g, result, tensors, outputs, function, loc), function, ret_loc)


def _outputs(g, result, tensors, outputs, function, loc):
    if isinstance(result, dict):
        extra = [k for k in result if k not in outputs]
        if extra:
            fail(f"the reference returns {extra[0]!r}, which is not an output (outputs: {', '.join(outputs)})", loc)
        missing = [k for k in outputs if k not in result]
        if missing:
            fail(f"the reference returns no '{missing[0]}' (outputs: {', '.join(outputs)})", loc)
        named = result
    elif isinstance(result, (tuple, list)) and len(outputs) > 1:
        if len(result) != len(outputs):
            fail(f"the reference returns {len(result)} values for {len(outputs)} outputs ({', '.join(outputs)})", loc)
        named = dict(zip(outputs, result))
    else:
        if len(outputs) != 1:
            fail(f"the reference returns one array but the instance has {len(outputs)} outputs; return a dict", loc)
        named = {outputs[0]: result}
    shapes = {t["name"]: tuple(t["shape"]) for t in tensors}
    out = {}
    for name in outputs:
        v = named[name]
        if v is None:
            fail(f"the reference returns None for '{name}'", loc)
        try:
            arr = ops.as_sym(g, v)
        except RacerError:
            raise
        if arr.shape != shapes[name]:
            fail(f"the reference returns '{name}' of shape {arr.shape}, but the tensor has shape {shapes[name]}", loc)
        arr = ops.to_numbers(arr)
        out[name] = [int(i) for i in arr.ids.reshape(-1)]
    return out


def resolve(spec, search_dir=None):
    """'file.py:function' or 'package.module:function' -> the function (TOML instances)."""
    import importlib
    import importlib.util
    import sys
    path, _, name = spec.rpartition(":")
    if not path or not name:
        raise RacerError(f"reference '{spec}' must be file.py:function or module:function")
    if path.endswith(".py"):
        if not os.path.isfile(path):
            raise RacerError(f"reference '{spec}': no file {path}")
        mod_name = "racer_reference_" + os.path.splitext(os.path.basename(path))[0]
        s = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(s)
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        s.loader.exec_module(module)
    else:
        if search_dir:
            sys.path.insert(0, search_dir)
        try:
            module = importlib.import_module(path)
        except ImportError as e:
            raise RacerError(f"reference '{spec}': cannot import {path}: {e}")
    fn = getattr(module, name, None)
    if fn is None or not callable(fn):
        raise RacerError(f"reference '{spec}': {path} has no function '{name}'")
    return fn
