"""Numbers as the core reads them: exact decimal text or integers, never a rounded double.

A Python float literal is taken as written (repr gives back the shortest text of it, as a
TOML file would hold), while a value held in a NumPy array or scalar is the exact binary number
stored there."""
import decimal
import math
import numbers

from .errors import fail


def _is_numpy_scalar(x):
    return type(x).__module__ == "numpy"


def number_json(x, what, loc=None):
    """An int for integers, else decimal text ("0.1", "-inf"); refuses NaN and non-numbers."""
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        f = float(x)
        if math.isnan(f):
            fail(f"{what} is NaN; Racer reasons over real numbers (give a finite value or inf)", loc)
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        if _is_numpy_scalar(x):
            return exact_text(f)
        return repr(f)
    if isinstance(x, decimal.Decimal) or (isinstance(x, str) and _decimal_ok(x)):
        return str(x)
    fail(f"{what} must be a number, not {type(x).__name__} {x!r}", loc)


def exact_text(f):
    """The exact decimal value of a double (finite)."""
    d = decimal.Decimal(f)
    s = format(d, "f") if abs(d.adjusted()) < 30 else str(d)
    return s


def _decimal_ok(s):
    try:
        return not decimal.Decimal(s).is_nan()
    except decimal.InvalidOperation:
        return False


def array_values(array, dtype, what, loc=None):
    """Every cell of a NumPy array, row-major, as number_json gives them (exact values)."""
    import numpy as np
    flat = np.asarray(array).reshape(-1)
    if flat.dtype.kind in "biu":
        return [int(v) for v in flat]
    if flat.dtype.kind != "f":
        fail(f"{what}: an array of {flat.dtype} is not numbers", loc)
    out = []
    for v in flat.astype(np.float64):
        f = float(v)
        if math.isnan(f):
            fail(f"{what} holds NaN; Racer reasons over real numbers", loc)
        out.append(("inf" if f > 0 else "-inf") if math.isinf(f) else exact_text(f))
    return out
