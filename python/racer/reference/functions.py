"""Functions NumPy lacks that references need (erf, sigmoid, softmax, ...). Each works on
traced arrays (exactly) and on plain NumPy arrays (numerically, float64), so the same
reference also runs as ordinary NumPy code."""
import math

import numpy as np

from .array import SymArray
from .ops import at_user_line, UNARY, _unary


def _symbolic(x):
    return isinstance(x, SymArray)


def erf(x):
    if _symbolic(x):
        with at_user_line():
            return _unary(UNARY["erf"])(x.graph, x)
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def silu(x):
    return x * sigmoid(x)


def rsqrt(x):
    return 1 / np.sqrt(x)


def gelu(x, approximate="none"):
    """torch.nn.functional.gelu: x * Phi(x), or its tanh approximation. The constants are the
    float32 numbers an f32 kernel (or PyTorch in float32) holds: 1/sqrt(2), sqrt(2/pi) and
    0.044715 rounded to float32."""
    if approximate == "tanh":
        k0, k1 = np.float32(math.sqrt(2 / math.pi)), np.float32(0.044715)
        return 0.5 * x * (1 + np.tanh(k0 * (x + k1 * x ** 3)))
    if approximate != "none":
        raise ValueError(f"approximate must be 'none' or 'tanh', not {approximate!r}")
    return 0.5 * x * (1 + erf(x * np.float32(math.sqrt(0.5))))


def logsumexp(x, axis=None, keepdims=False):
    return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)): over the reals the same function as the max-subtracted form."""
    if not _symbolic(x):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    if not _symbolic(x):
        m = np.max(x, axis=axis, keepdims=True)
        return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return x - logsumexp(x, axis=axis, keepdims=True)
