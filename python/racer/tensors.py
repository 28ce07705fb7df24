"""Tensors of a checking instance and the access a launch is given to them."""
import numbers

from .dtypes import FLOAT_DTYPES, dtype_name
from .errors import fail, user_location
from .numbers_text import array_values, number_json


class Tensor:
    """A tensor both programs start from. Its name is given by setup (the attribute or dict key
    it is stored under) or by name=."""

    def __init__(self, shape, dtype, init, range=None, strides=None, name=None, loc=None):
        self.loc = loc or user_location()
        self.shape = _shape(shape, self.loc)
        self.dtype = dtype_name(dtype, self.loc)
        self.init = init
        self.range = range
        self.strides = None if strides is None else _strides(strides, self.shape, self.loc)
        self.name = name

    @property
    def cells(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def describe(self, line):
        j = {"name": self.name, "shape": list(self.shape), "dtype": self.dtype, "init": self.init}
        if self.strides is not None:
            j["strides"] = list(self.strides)
        if self.range is not None:
            j["range"] = list(self.range)
        if line:
            j["line"] = line
        return j

    def __repr__(self):
        init = self.init if isinstance(self.init, str) else next(iter(self.init))
        return f"racer.Tensor({self.name or '?'}: {self.dtype}{list(self.shape)}, {init})"


def _shape(shape, loc):
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        dims = tuple(shape)
    except TypeError:
        fail(f"shape must be a tuple of positive integers, not {shape!r}", loc)
    if not dims:
        fail("shape must have at least one dimension", loc)
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or d < 1:
            fail(f"shape {tuple(dims)}: every dimension must be a positive integer, not {d!r}", loc)
    return tuple(int(d) for d in dims)


def _strides(strides, shape, loc):
    s = tuple(strides)
    if len(s) != len(shape):
        fail(f"strides {s} has {len(s)} entries but the shape {shape} has {len(shape)}", loc)
    for d in s:
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or d < 0:
            fail(f"strides {s}: every stride must be a non-negative integer (in elements), not {d!r}", loc)
    return tuple(int(d) for d in s)


def _range(rng, loc):
    if rng is None:
        return None
    try:
        lo, hi = rng
    except (TypeError, ValueError):
        fail(f"range must be (lo, hi), not {rng!r}", loc)
    lo_j, hi_j = number_json(lo, "range lower bound", loc), number_json(hi, "range upper bound", loc)
    if float(lo) > float(hi):
        fail(f"range lower bound {lo} is greater than upper bound {hi}", loc)
    return [lo_j, hi_j]


def _check_int_value(v, dtype, what, loc):
    if dtype in FLOAT_DTYPES:
        return
    if not isinstance(v, int):
        fail(f"{what} {v} does not fit {dtype}: not an integer", loc)
    bounds = {"i64": (-2**63, 2**63 - 1), "i32": (-2**31, 2**31 - 1), "i16": (-2**15, 2**15 - 1),
              "i8": (-128, 127), "u8": (0, 255), "bool": (0, 1)}[dtype]
    if not bounds[0] <= v <= bounds[1]:
        fail(f"{what} {v} does not fit {dtype} ({bounds[0]} to {bounds[1]})", loc)


def input(shape, dtype="f32", range=None, strides=None, name=None):
    """Cells that are free inputs: the programs must agree for every value (in range, if given)."""
    loc = user_location()
    t = Tensor(shape, dtype, "input", strides=strides, name=name, loc=loc)
    t.range = _range(range, loc)
    return t


def empty(shape, dtype="f32", strides=None, name=None):
    """Allocated and never written: a program reading it into an output has a defect."""
    return Tensor(shape, dtype, "empty", strides=strides, name=name, loc=user_location())


def zeros(shape, dtype="f32", strides=None, name=None):
    return Tensor(shape, dtype, "zeros", strides=strides, name=name, loc=user_location())


def full(shape, value, dtype="f32", strides=None, name=None):
    loc = user_location()
    t = Tensor(shape, dtype, None, strides=strides, name=name, loc=loc)
    v = number_json(value, "the fill value", loc)
    _check_int_value(v, t.dtype, "the fill value", loc)
    t.init = {"full": v}
    return t


def values(array, dtype=None, shape=None, strides=None, name=None):
    """Known contents: a NumPy array (or nested lists); its shape unless shape= is given."""
    import numpy as np
    loc = user_location()
    a = np.asarray(array)
    if a.dtype.kind not in "biuf":
        fail(f"values must be numbers, not an array of {a.dtype}", loc)
    if dtype is None:
        dtype = "bool" if a.dtype.kind == "b" else a.dtype.name
    t = Tensor(a.shape if shape is None else shape, dtype, None, strides=strides, name=name, loc=loc)
    if a.size != t.cells:
        fail(f"values has {a.size} numbers but the shape {t.shape} has {t.cells} cells", loc)
    vals = array_values(a, t.dtype, "values", loc)
    for v in vals:
        _check_int_value(v, t.dtype, "value", loc)
    t.init = {"values": vals}
    return t


class Access:
    """A tensor argument: its base address (plus an offset in elements) with the access allowed."""

    def __init__(self, tensor, access, offset=0):
        self.loc = user_location()
        if not isinstance(tensor, Tensor):
            fail(f"racer.{access} takes a tensor declared with racer.input/empty/zeros/full/values, "
                 f"not {type(tensor).__name__}", self.loc)
        if isinstance(offset, bool) or not isinstance(offset, numbers.Integral) or offset < 0:
            fail(f"offset must be a non-negative integer (elements), not {offset!r}", self.loc)
        self.tensor, self.access, self.offset = tensor, access, int(offset)


def read(tensor, offset=0):
    return Access(tensor, "read", offset)


def write(tensor, offset=0):
    return Access(tensor, "write", offset)


def readwrite(tensor, offset=0):
    return Access(tensor, "readwrite", offset)


class Scalar:
    """A scalar argument of an explicit type, e.g. racer.scalar(1e-5, "f32"); or, given a one-cell
    input tensor (racer.input((), "f32", range=...)), a scalar whose value is that input's,
    symbolic like every input: racer.scalar(alpha, "f32") checks a GEMM for every alpha."""

    _TYPES = ("f64", "f32", "f16", "bf16", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")

    def __init__(self, value, type):
        loc = user_location()
        from .errors import suggestion
        if type not in self._TYPES:
            fail(f"unknown scalar type '{type}'" + suggestion(type, self._TYPES), loc)
        if isinstance(value, Tensor):
            if value.cells != 1:
                fail(f"a scalar argument from a tensor needs a tensor of one cell, not shape {tuple(value.shape)}", loc)
            self.tensor, self.value, self.type = value, None, type
        else:
            self.tensor, self.value, self.type = None, number_json(value, "a scalar argument", loc), type


def scalar(value, type):
    return Scalar(value, type)


class TensorMap:
    """A tensor map (CUtensorMap) for TMA copies (cp.async.bulk.tensor), passed by value to a
    128-byte kernel parameter: the global tensor, the box a copy moves (outermost dimension
    first, as the tensor's shape) and the shared-memory swizzle. The same as a [tensor_maps]
    entry of an instance file; the core checks what the driver requires of it."""

    SWIZZLES = ("none", "32B", "64B", "128B")

    def __init__(self, tensor, box, swizzle="none", name=None):
        from .errors import suggestion
        self.loc = user_location()
        if not isinstance(tensor, Tensor):
            fail(f"racer.tensor_map takes a tensor declared with racer.input/empty/zeros/full/values, "
                 f"not {type(tensor).__name__}", self.loc)
        if isinstance(box, numbers.Integral) and not isinstance(box, bool):
            box = (box,)
        try:
            box = tuple(box)
        except TypeError:
            fail(f"box must be a tuple of integers (outermost dimension first), not {box!r}", self.loc)
        for b in box:
            if isinstance(b, bool) or not isinstance(b, numbers.Integral):
                fail(f"box {box}: every dimension must be an integer, not {b!r}", self.loc)
        if swizzle is None:
            swizzle = "none"
        if swizzle not in self.SWIZZLES:
            fail(f"swizzle must be one of none, 32B, 64B, 128B, not {swizzle!r}" + suggestion(str(swizzle), self.SWIZZLES),
                 self.loc)
        if name is not None and not isinstance(name, str):
            fail(f"a tensor map's name must be a string, not {name!r}", self.loc)
        self.tensor, self.box, self.swizzle, self.name = tensor, tuple(int(b) for b in box), swizzle, name

    def describe(self, names, line):
        j = {"name": names[id(self)], "tensor": names[id(self.tensor)], "box": list(self.box), "swizzle": self.swizzle}
        if line:
            j["line"] = line
        return j


def tensor_map(tensor, box, swizzle="none", name=None):
    """A tensor map over `tensor` for TMA copies: racer.tensor_map(self.A, box=(16, 32), swizzle="128B")."""
    return TensorMap(tensor, box, swizzle, name)
