"""References: program B as the eager code a kernel replaces. A function over NumPy arrays
(or, with torch installed, over torch tensors) runs once over symbolic arrays; its outputs,
exact real expressions of the inputs, are what the kernel must compute.

    def softmax_ref(x):
        return racer.reference.softmax(x, axis=-1)      # or np.exp(x) / np.exp(x).sum(-1, keepdims=True)

    racer.check(tensors=..., program_a=[launch], reference=softmax_ref, outputs=["y"])
"""
from .functions import erf, gelu, log_softmax, logsumexp, rsqrt, sigmoid, silu, softmax  # noqa: F401
from .trace import resolve, trace  # noqa: F401


def from_torch(fn):
    """Marks fn as a PyTorch reference (captured at the ATen level) even where its module does
    not name torch itself."""
    fn.__racer_torch__ = True
    return fn

__all__ = ["erf", "gelu", "log_softmax", "logsumexp", "rsqrt", "sigmoid", "silu", "softmax", "trace", "resolve", "from_torch"]
