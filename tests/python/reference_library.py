"""NumPy references for the naive kernels the shared corpus compares against, keyed by the
kernel's entry name: what a user would write instead of the naive CUDA kernel. Each factory
takes the launch's scalar arguments (sizes, eps), as the kernel does."""
import numpy as np

import racer.reference as R


def f32(v):
    """A kernel's f32 scalar argument: the float32 number it holds."""
    return np.float32(float(v))


def softmax_naive(rows, cols):
    return lambda x: R.softmax(x, axis=-1)


def log_softmax_naive(rows, cols):
    return lambda x: R.log_softmax(x, axis=-1)


def rmsnorm_ref(rows, cols, eps):
    return lambda x, w: x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + f32(eps)) * w


def rmsnorm(cols, eps):
    return lambda x, w: x * R.rsqrt(np.mean(x ** 2, axis=-1, keepdims=True) + f32(eps)) * w


def layernorm(cols, eps, *_):
    def ref(x, w, b):
        mu = np.mean(x, axis=-1, keepdims=True)
        var = np.var(x, axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + f32(eps)) * w + b
    return ref


def gelu_erf(n):
    return lambda x: R.gelu(x)


def silu(n):
    return lambda x: R.silu(x)


def cross_entropy(cols, ignore_index, *_):
    def ref(logits, labels):
        keep = labels != ignore_index
        safe = np.where(keep, labels, 0)
        picked = np.take_along_axis(logits, safe[:, None], axis=1)[:, 0]
        return np.where(keep, R.logsumexp(logits, axis=1) - picked, 0.0)
    return ref


def rope_neox(d, *_):
    def ref(x, cosv, sinv):
        h = x.shape[-1] // 2
        a, b = x[:, :h], x[:, h:]
        return np.concatenate([a * cosv - b * sinv, b * cosv + a * sinv], axis=-1)
    return ref


def head_dot(heads, dim):
    return lambda q, k: np.einsum("bhd,bhd->bh", q, k)


def transpose_naive(rows, cols):
    return lambda x: x.T


def matmul_naive(m, n, k):
    return lambda A, B: A @ B


def matmul_half_ref(m, n, k):
    return lambda A, B: A @ B


def row_sum_seq(rows, cols):
    return lambda x: x.reshape(rows, cols).sum(axis=1)


def mse_bwd_percta(n):
    return lambda p, t: 2 * (p - t) / n


def running_var(n, eps, momentum):
    def ref(rstd, running):
        var = 1 / (rstd * rstd) - f32(eps)
        return (1 - f32(momentum)) * running + f32(momentum) * var
    return ref


FACTORIES = {f.__name__: f for f in [softmax_naive, log_softmax_naive, rmsnorm_ref, rmsnorm, layernorm, gelu_erf, silu,
                                      cross_entropy, rope_neox, head_dot, transpose_naive, matmul_naive,
                                      matmul_half_ref, row_sum_seq, mse_bwd_percta, running_var]}


def scalar_value(arg):
    """A TOML launch argument that is a scalar: its number (None for tensors and nulls)."""
    if isinstance(arg, (int, float)):
        return arg
    if isinstance(arg, dict) and len(arg) == 1:
        (k, v), = arg.items()
        if k in ("f32", "f64", "f16", "i32", "i64", "u32"):
            return v
    return None


def reference_for(launch):
    """The NumPy reference replacing a naive kernel launch, or None when there is none."""
    factory = FACTORIES.get(launch["entry"])
    if factory is None:
        return None
    scalars = [s for s in (scalar_value(a) for a in launch["args"]) if s is not None]
    return factory(*scalars)
