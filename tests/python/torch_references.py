"""PyTorch references for the kernel families of test_reference.py (issue 21), and the tensors
they are traced over. Run as a script on a machine with torch to record their traced graphs:

    python3 tests/python/torch_references.py tests/python/data/torch_graphs.json

(racer.reference only: no compiled core needed). test_reference_torch.py checks the kernels
against them live where torch is installed, and against the recorded graphs elsewhere."""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def softmax(x):
    return torch.softmax(x, dim=-1)


def log_softmax(x):
    return F.log_softmax(x, dim=-1)


def layer_norm(x, w, b):
    return F.layer_norm(x, (64,), w, b, eps=1e-5)


def rms_norm(x, w):
    return F.rms_norm(x, (128,), w, eps=1e-5)


def gelu_erf(x):
    return F.gelu(x)


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def silu(x):
    return F.silu(x)


def swiglu(a, b):
    return F.silu(a) * b


def cross_entropy(logits, labels):
    return F.cross_entropy(logits, labels.long(), ignore_index=-100, reduction="none")


def cross_entropy_smoothed(logits, labels):
    return F.cross_entropy(logits, labels.long(), ignore_index=-100, reduction="none", label_smoothing=0.1)


def rope(x, cosv, sinv):
    x1, x2 = x[..., :4], x[..., 4:]
    return torch.cat([x1 * cosv - x2 * sinv, x2 * cosv + x1 * sinv], dim=-1)


def gather(table, idx):
    return F.embedding(idx.long(), table)


def matmul_f16(A, B):
    return torch.matmul(A.float(), B.float())


def matmul_f32(A, B):
    return A @ B


def attention(Q, K, V):
    return F.scaled_dot_product_attention(Q[None].float(), K[None].float(), V[None].float())[0]


def _t(name, shape, dtype="f32", init="input"):
    return {"name": name, "shape": list(shape), "dtype": dtype, "init": init}


LABELS = {"values": [3, -100, 7, 0]}

# family -> (reference, tensors, outputs)
FAMILIES = {
    "softmax": (softmax, [_t("x", (4, 64)), _t("y", (4, 64), init="empty")], ["y"]),
    "log_softmax": (log_softmax, [_t("x", (4, 64)), _t("y", (4, 64), init="empty")], ["y"]),
    "layer_norm": (layer_norm, [_t("x", (2, 64)), _t("w", (64,)), _t("b", (64,)), _t("y", (2, 64), init="empty")], ["y"]),
    "rms_norm": (rms_norm, [_t("x", (4, 128)), _t("w", (128,)), _t("y", (4, 128), init="empty")], ["y"]),
    "gelu_erf": (gelu_erf, [_t("x", (200,)), _t("out", (200,), init="empty")], ["out"]),
    "gelu_tanh": (gelu_tanh, [_t("x", (200,)), _t("out", (200,), init="empty")], ["out"]),
    "silu": (silu, [_t("x", (200,)), _t("out", (200,), init="empty")], ["out"]),
    "swiglu": (swiglu, [_t("a", (100,)), _t("b", (100,)), _t("out", (100,), init="empty")], ["out"]),
    "cross_entropy": (cross_entropy, [_t("logits", (4, 32)), _t("labels", (4,), "i32", LABELS),
                                      _t("loss", (4,), init="empty")], ["loss"]),
    "cross_entropy_smoothed": (cross_entropy_smoothed, [_t("logits", (4, 32)), _t("labels", (4,), "i32", LABELS),
                                                        _t("loss", (4,), init="empty")], ["loss"]),
    "rope": (rope, [_t("x", (2, 8)), _t("cosv", (2, 4)), _t("sinv", (2, 4)), _t("out", (2, 8), init="empty")], ["out"]),
    "gather": (gather, [_t("table", (10, 16)), _t("idx", (6,), "i32", {"values": [7, 0, 3, 3, 9, 1]}),
                        _t("out", (6, 16), init="empty")], ["out"]),
    "matmul_f16": (matmul_f16, [_t("A", (32, 32), "f16"), _t("B", (32, 32), "f16"), _t("C", (32, 32), init="empty")], ["C"]),
    "matmul_f32": (matmul_f32, [_t("A", (20, 40)), _t("B", (40, 24)), _t("C", (20, 24), init="empty")], ["C"]),
    "attention": (attention, [_t("Q", (32, 16), "f16"), _t("K", (32, 16), "f16"), _t("V", (32, 16), "f16"),
                              _t("O", (32, 16), init="empty")], ["O"]),
}


def record(path):
    from racer.reference import trace
    graphs, failures = {}, {}
    for family, (fn, tensors, outputs) in FAMILIES.items():
        try:
            graphs[family] = trace(fn, tensors, outputs)
        except Exception as e:  # recorded, so the record says what did not capture
            failures[family] = f"{type(e).__name__}: {e}"
    # Paths relative to the repository, wherever the recording ran.
    root = os.path.dirname(os.path.dirname(HERE)) + os.sep
    for g in graphs.values():
        g["function"] = g["function"].replace(root, "")
        g["lines"] = [l.replace(root, "") for l in g["lines"]]
    out = {"torch": torch.__version__, "numpy": np.__version__, "graphs": graphs, "failures": failures}
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"torch {torch.__version__}: {len(graphs)} captured, {len(failures)} failed")
    for k, v in failures.items():
        print(f"  {k}: {v}")


if __name__ == "__main__":
    record(sys.argv[1])
