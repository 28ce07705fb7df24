"""NumPy references named by the instances beside this file ([b] reference = "refs.py:NAME")."""
import numpy as np

import racer.reference as R


def gelu(x):
    return 0.5 * x * (1 + R.erf(x * np.float32(0.7071067811865476)))


def gelu_tanh_form(x):
    # Not the erf GELU: a kernel computing the erf form is refuted against it.
    return R.gelu(x, approximate="tanh")


def attention(Q, K, V):
    return R.softmax(Q @ K.T * 0.25, axis=-1) @ V


def uses_sort(x):
    return np.sort(x)
