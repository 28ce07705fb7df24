"""SymArray: a NumPy-like array whose cells are nodes of a traced graph. NumPy functions and
ufuncs applied to it (np.exp(x), np.sum(x, axis=-1), x @ w, np.where(...)) dispatch here through
NumPy's __array_ufunc__ / __array_function__ protocols; shape operations (reshape, transpose,
slicing, gathers by known integer indices) act on the array of node ids directly."""
import numbers
from fractions import Fraction

import numpy as np

from .graph import FALSE, TRUE
from .location import user_line


class SymArray:
    __array_priority__ = 1000

    def __init__(self, graph, ids, condition=False):
        self.graph = graph
        self.ids = np.asarray(ids, dtype=np.int64)
        self.condition = condition   # cells are conditions (comparisons), not numbers

    # -- NumPy-like attributes ------------------------------------------------------------
    shape = property(lambda self: self.ids.shape)
    ndim = property(lambda self: self.ids.ndim)
    size = property(lambda self: self.ids.size)
    dtype = property(lambda self: np.dtype(bool) if self.condition else np.dtype(np.float64))
    T = property(lambda self: self._wrap(self.ids.T))

    def __len__(self):
        return len(self.ids)

    def __repr__(self):
        return f"<racer reference array {'bool' if self.condition else 'real'}{list(self.shape)}>"

    def _wrap(self, ids, condition=None):
        return SymArray(self.graph, ids, self.condition if condition is None else condition)

    # -- refusals ---------------------------------------------------------------------------
    def _refuse_concrete(self, what):
        from . import ops
        ops.fail_at(f"{what} of a symbolic value: the reference runs once over symbolic inputs, so Python "
                    "cannot branch on or convert its values; use np.where / np.maximum (or a known racer.values tensor)")

    def __bool__(self):
        self._refuse_concrete("a Python truth test (if, while, and, or)")

    def __float__(self):
        self._refuse_concrete("float()")

    def __int__(self):
        self._refuse_concrete("int()")

    def __index__(self):
        from . import ops
        ops.fail_at("indexing with a symbolic value (an input tensor's data): Racer's expressions have no symbolic "
                    "addresses; give index tensors known values with racer.values(...)")

    def __iter__(self):
        for k in range(len(self.ids)):
            yield self[k]

    # -- NumPy protocols ------------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        from . import ops
        ops.fail_at("an operation that needs concrete numbers (NumPy converted a symbolic array to a plain array); "
                    "the operation is not one Racer's reference tracer supports")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from . import ops
        return ops.ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from . import ops
        return ops.array_function(func, args, kwargs)

    # -- operators ------------------------------------------------------------------------
    def __add__(self, o): return np.add(self, o)
    def __radd__(self, o): return np.add(o, self)
    def __sub__(self, o): return np.subtract(self, o)
    def __rsub__(self, o): return np.subtract(o, self)
    def __mul__(self, o): return np.multiply(self, o)
    def __rmul__(self, o): return np.multiply(o, self)
    def __truediv__(self, o): return np.true_divide(self, o)
    def __rtruediv__(self, o): return np.true_divide(o, self)
    def __pow__(self, o): return np.power(self, o)
    def __rpow__(self, o): return np.power(o, self)
    def __matmul__(self, o): return np.matmul(self, o)
    def __rmatmul__(self, o): return np.matmul(o, self)
    def __neg__(self): return np.negative(self)
    def __pos__(self): return self
    def __abs__(self): return np.abs(self)
    def __lt__(self, o): return np.less(self, o)
    def __le__(self, o): return np.less_equal(self, o)
    def __gt__(self, o): return np.greater(self, o)
    def __ge__(self, o): return np.greater_equal(self, o)
    def __eq__(self, o): return np.equal(self, o)
    def __ne__(self, o): return np.not_equal(self, o)
    def __and__(self, o): return np.logical_and(self, o)
    def __rand__(self, o): return np.logical_and(o, self)
    def __or__(self, o): return np.logical_or(self, o)
    def __ror__(self, o): return np.logical_or(o, self)
    def __invert__(self): return np.logical_not(self)
    def __floordiv__(self, o): return np.floor_divide(self, o)
    def __mod__(self, o): return np.mod(self, o)
    __hash__ = None

    # -- indexing -------------------------------------------------------------------------
    def __getitem__(self, key):
        from . import ops
        return self._wrap(self.ids[ops.index_key(key)])

    def __setitem__(self, key, value):
        from . import ops
        with ops.at_user_line():
            v = ops.as_sym(self.graph, value)
            if v.condition != self.condition:
                v = ops.to_numbers(v) if not self.condition else ops.to_conditions(v)
            self.ids[ops.index_key(key)] = v.ids

    # -- methods (NumPy's ndarray methods) ---------------------------------------------------
    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
            shape = tuple(shape[0])
        return self._wrap(self.ids.reshape(shape, order=order))

    def transpose(self, *axes):
        if len(axes) == 1 and axes[0] is not None and not isinstance(axes[0], numbers.Integral):
            axes = tuple(axes[0])
        return self._wrap(self.ids.transpose(*axes) if axes else self.ids.T)

    def swapaxes(self, a, b): return self._wrap(self.ids.swapaxes(a, b))
    def flatten(self): return self._wrap(self.ids.flatten())
    def ravel(self): return self._wrap(self.ids.ravel())
    def squeeze(self, axis=None): return self._wrap(self.ids.squeeze(axis))
    def copy(self): return self._wrap(self.ids.copy())
    def view(self, *a): return self

    def astype(self, dtype, copy=True):
        """Casts are the identity over the reals (as a kernel's conversions are); to bool is a
        test for nonzero, from bool a 0/1 number."""
        from . import ops
        with ops.at_user_line():
            if np.dtype(dtype) == np.dtype(bool):
                return ops.to_conditions(self)
            return ops.to_numbers(self)

    def sum(self, axis=None, keepdims=False, **kw): return np.sum(self, axis=axis, keepdims=keepdims, **kw)
    def mean(self, axis=None, keepdims=False, **kw): return np.mean(self, axis=axis, keepdims=keepdims, **kw)
    def max(self, axis=None, keepdims=False, **kw): return np.max(self, axis=axis, keepdims=keepdims, **kw)
    def min(self, axis=None, keepdims=False, **kw): return np.min(self, axis=axis, keepdims=keepdims, **kw)
    def prod(self, axis=None, keepdims=False, **kw): return np.prod(self, axis=axis, keepdims=keepdims, **kw)
    def var(self, axis=None, keepdims=False, **kw): return np.var(self, axis=axis, keepdims=keepdims, **kw)
    def std(self, axis=None, keepdims=False, **kw): return np.std(self, axis=axis, keepdims=keepdims, **kw)
    def argmax(self, axis=None, **kw): return np.argmax(self, axis=axis, **kw)
    def argmin(self, axis=None, **kw): return np.argmin(self, axis=axis, **kw)
    def cumsum(self, axis=None, **kw): return np.cumsum(self, axis=axis, **kw)
    def clip(self, lo=None, hi=None): return np.clip(self, lo, hi)
    def dot(self, o): return np.dot(self, o)
    def any(self, axis=None, keepdims=False): return np.any(self, axis=axis, keepdims=keepdims)
    def all(self, axis=None, keepdims=False): return np.all(self, axis=axis, keepdims=keepdims)
