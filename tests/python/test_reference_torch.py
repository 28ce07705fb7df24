"""Kernels against PyTorch references (issue 21): the families of test_reference.py with the
reference written in torch (torch_references.py), captured at the ATen level. Where torch is
installed (scripts/install-deps.sh installs it unless RACER_SKIP_TORCH=1) the references are
captured live, and the graphs recorded by `python3 tests/python/torch_references.py graphs.json`
(gzipped into data/torch_graphs.json.gz) must equal today's capture; elsewhere the recorded
graphs stand in for the capture, so the lowering's output is still checked against the kernels."""
import gzip
import json
import os

import numpy as np
import pytest

import racer
import racer.reference
from racer.reference import torch_capture
from test_reference import (assert_equivalent, assert_manifest, ce_tensors, corpus, mm_tensors, own, rms_tensors, rope_tensors,
                            softmax_tensors, unary_tensors)
from conftest import line_of, needs_triton

RECORDED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "torch_graphs.json.gz")
LIVE = torch_capture.available()


def reference(family, monkeypatch):
    """The torch reference of a family: the function (live), or a stand-in whose trace is the
    recorded graph."""
    if LIVE:
        import torch_references
        return torch_references.FAMILIES[family][0]
    recorded = json.load(gzip.open(RECORDED, "rt"))
    if family not in recorded["graphs"]:
        pytest.skip(f"torch is not installed and no graph was recorded for {family}: {recorded['failures'].get(family)}")

    def stand_in(**tensors):
        raise AssertionError("replaced by the recorded graph")
    import racer.instance
    monkeypatch.setattr(racer.reference, "trace", lambda fn, tensors, outputs: recorded["graphs"][family])
    return stand_in


def test_the_recorded_capture_covers_every_family():
    recorded = json.load(gzip.open(RECORDED, "rt"))
    assert not recorded["failures"], recorded["failures"]
    assert len(recorded["graphs"]) == 15


def launch_of(family, t):
    if family in ("softmax", "log_softmax"):
        return racer.launch(corpus("triton", f"{family}.sm90.ptx", family), grid=4, block=128, shared_bytes=8,
                            args=[racer.read(t["x"]), racer.write(t["y"]), 64, None, None])
    if family == "layer_norm":
        return racer.launch(corpus("triton", "layernorm.sm90.ptx", "layernorm"), grid=2, block=64, shared_bytes=8,
                            args=[racer.read(t["x"]), racer.read(t["w"]), racer.read(t["b"]), racer.write(t["y"]), 64,
                                  np.float32(1e-5), None, None])
    if family == "rms_norm":
        return racer.launch(corpus("triton", "rmsnorm.sm90.ptx", "rmsnorm"), grid=4, block=128, shared_bytes=16,
                            args=[racer.read(t["x"]), racer.read(t["w"]), racer.write(t["y"]), 128, np.float32(1e-5),
                                  None, None])
    if family in ("gelu_erf", "silu"):
        module = "gelu" if family == "gelu_erf" else "silu"
        return racer.launch(corpus("triton", f"{module}.sm90.ptx", module), grid=2, block=128,
                            args=[racer.read(t["x"]), racer.write(t["out"]), 200, None, None])
    import reference_kernels as k
    if family == "gelu_tanh":
        return racer.launch(racer.triton(k.gelu_tanh, BLOCK=128, num_warps=4), grid=2,
                            args=[racer.read(t["x"]), racer.write(t["out"]), 200])
    if family == "swiglu":
        return racer.launch(racer.triton(k.swiglu, BLOCK=128, num_warps=4), grid=1,
                            args=[racer.read(t["a"]), racer.read(t["b"]), racer.write(t["out"]), 100])
    if family == "cross_entropy":
        return racer.launch(corpus("triton", "cross_entropy.sm90.ptx", "cross_entropy"), grid=4, block=32,
                            args=[racer.read(t["logits"]), racer.read(t["labels"]), racer.write(t["loss"]), 32, -100,
                                  None, None])
    if family == "cross_entropy_smoothed":
        # PyTorch multiplies by float32(1 - 0.1) (computed in double): a kernel computing 1 - s
        # in float32 differs from it by a rounding of that constant (equal_up_to_rounding).
        return racer.launch(racer.triton(k.cross_entropy_smooth_host_keep, BLOCK=32, num_warps=1), grid=4,
                            args=[racer.read(t["logits"]), racer.read(t["labels"]), racer.write(t["loss"]), 32, -100,
                                  np.float32(1 - 0.1), np.float32(0.1)])
    if family == "rope":
        return racer.launch(corpus("triton", "rope_neox.sm90.ptx", "rope_neox"), grid=2, block=32,
                            args=[racer.read(t["x"]), racer.read(t["cosv"]), racer.read(t["sinv"]), racer.write(t["out"]),
                                  None, None])
    if family == "gather":
        return racer.launch(racer.triton(k.embedding, D=16, num_warps=1), grid=6,
                            args=[racer.read(t["table"]), racer.read(t["idx"]), racer.write(t["out"])])
    if family == "matmul_f16":
        return racer.launch(corpus("triton", "matmul.sm80.ptx", "matmul"), grid=(2, 2), block=32, shared_bytes=1024,
                            args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 32, 32, 32, None, None])
    if family == "matmul_f32":
        return racer.launch(corpus("cuda", "matmul.sm90.ptx", "matmul_tiled"), grid=(2, 2), block=(16, 16),
                            args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 20, 24, 40])
    if family == "attention":
        return racer.launch(own(os.path.join("tc_triton", "attn_s32_d16.sm80.ptx"), "attn_fwd"), grid=2, block=32,
                            shared_bytes=1024, args=[racer.read(t["Q"]), racer.read(t["K"]), racer.read(t["V"]),
                                                     racer.write(t["O"]), None, None])
    raise KeyError(family)


def tensors_of(family):
    if family in ("softmax", "log_softmax"):
        return softmax_tensors()
    if family == "layer_norm":
        return {"x": racer.input((2, 64), "f32"), "w": racer.input(64, "f32"), "b": racer.input(64, "f32"),
                "y": racer.empty((2, 64), "f32")}
    if family == "rms_norm":
        return rms_tensors()
    if family in ("gelu_erf", "gelu_tanh", "silu"):
        return unary_tensors()
    if family == "swiglu":
        return {"a": racer.input(100, "f32"), "b": racer.input(100, "f32"), "out": racer.empty(100, "f32")}
    if family.startswith("cross_entropy"):
        return ce_tensors()
    if family == "rope":
        return rope_tensors()
    if family == "gather":
        return {"table": racer.input((10, 16), "f32"), "idx": racer.values(np.array([7, 0, 3, 3, 9, 1], dtype=np.int32)),
                "out": racer.empty((6, 16), "f32")}
    if family == "matmul_f16":
        return mm_tensors(32, 32, 32, "f16")
    if family == "matmul_f32":
        return mm_tensors(20, 24, 40, "f32")
    t = {n: racer.input((32, 16), "f16") for n in "QKV"}
    t["O"] = racer.empty((32, 16), "f32")
    return t


TRITON_BUILT = {"gelu_tanh", "swiglu", "cross_entropy_smoothed", "gather"}
FAMILIES = ["softmax", "log_softmax", "layer_norm", "rms_norm", "gelu_erf", "gelu_tanh", "silu", "swiglu",
            "cross_entropy", "cross_entropy_smoothed", "rope", "gather", "matmul_f16", "matmul_f32", "attention"]


@pytest.mark.parametrize("family", [pytest.param(f, marks=needs_triton) if f in TRITON_BUILT else f for f in FAMILIES])
def test_kernel_equals_its_pytorch_reference(family, monkeypatch):
    t = tensors_of(family)
    launch = launch_of(family, t)
    ref = reference(family, monkeypatch)
    outputs = [n for n, v in t.items() if v.init == "empty"]
    r = racer.check(tensors=t, program_a=[launch], reference=ref, outputs=outputs, time_limit=300)
    assert_equivalent(r)


def mutant_of(family, t):
    """The mutated kernel of a family: test_reference.py's mutation, at these shapes."""
    import reference_kernels as k
    triton_mutants = {"log_softmax": ("log_softmax_no_max", ["x", "y"], [64], {"BLOCK": 64}, 4),
                      "rms_norm": ("rmsnorm_eps_outside", ["x", "w", "y"], [128, np.float32(1e-5)], {"BLOCK": 128}, 4),
                      "gelu_erf": ("gelu_erf_wrong_scale", ["x", "out"], [200], {"BLOCK": 128}, 2),
                      "gelu_tanh": ("gelu_tanh_wrong_cube", ["x", "out"], [200], {"BLOCK": 128}, 2),
                      "swiglu": ("swiglu_swapped", ["a", "b", "out"], [100], {"BLOCK": 128}, 1),
                      "cross_entropy_smoothed": ("cross_entropy_smooth_wrong", ["logits", "labels", "loss"],
                                                 [32, -100, np.float32(0.1)], {"BLOCK": 32, "num_warps": 1}, 4),
                      "gather": ("embedding_row_stride_bug", ["table", "idx", "out"], [], {"D": 16, "num_warps": 1}, 6),
                      "silu": ("silu_exp2_unscaled", ["x", "out"], [200], {"BLOCK": 128}, 2)}
    if family in triton_mutants:
        name, tensors, scalars, options, grid = triton_mutants[family]
        access = [racer.write(t[n]) if t[n].init == "empty" else racer.read(t[n]) for n in tensors]
        return racer.launch(racer.triton(getattr(k, name), **options), grid=grid, args=access + scalars)
    if family == "softmax":
        return racer.launch(corpus("cuda", "reduce.sm90.ptx", "softmax_cols"), grid=1, block=64,
                            args=[racer.read(t["x"]), racer.write(t["y"]), 4, 64])
    if family == "layer_norm":
        return racer.launch(corpus("triton", "layernorm_eps_outside.sm90.ptx", "layernorm_eps_outside"), grid=2, block=64,
                            shared_bytes=8, args=[racer.read(t["x"]), racer.read(t["w"]), racer.read(t["b"]),
                                                  racer.write(t["y"]), 64, np.float32(1e-5), None, None])
    if family == "cross_entropy":
        return racer.launch(corpus("triton", "cross_entropy_noignore.sm90.ptx", "cross_entropy_noignore"), grid=4, block=32,
                            args=[racer.read(t["logits"]), racer.read(t["labels"]), racer.write(t["loss"]), 32, -100,
                                  None, None])
    if family == "rope":
        return racer.launch(corpus("cuda", "indexing.sm90.ptx", "rope_gptj"), grid=2, block=1,
                            args=[racer.read(t["x"]), racer.read(t["cosv"]), racer.read(t["sinv"]), racer.write(t["out"]), 8])
    if family == "matmul_f32":
        return racer.launch(corpus("cuda", "matmul.sm90.ptx", "matmul_tiled"), grid=(2, 2), block=(16, 16),
                            args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 20, 24, 39])
    if family == "matmul_f16":
        # mma.sync fed B through ldmatrix without .trans; one CTA per 16x8 tile of C.
        return racer.launch(own("tc.sm90a.ptx", "mm_mma_ldmatrix_notrans"), grid=(4, 2), block=32,
                            args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 32, 32, 32])
    if family == "attention":
        return racer.launch(own(os.path.join("tc_triton", "attn_s32_d16_norescale.sm80.ptx"), "attn_fwd"), grid=2,
                            block=32, shared_bytes=1024, args=[racer.read(t["Q"]), racer.read(t["K"]), racer.read(t["V"]),
                                                               racer.write(t["O"]), None, None])
    raise KeyError(family)


TRITON_MUTANTS = {"log_softmax", "rms_norm", "gelu_erf", "gelu_tanh", "silu", "swiglu", "cross_entropy_smoothed", "gather"}


@pytest.mark.parametrize("family", [pytest.param(f, marks=needs_triton) if f in TRITON_MUTANTS else f for f in FAMILIES])
def test_mutated_kernel_is_refuted_against_its_pytorch_reference(family, monkeypatch):
    t = tensors_of(family)
    launch = mutant_of(family, t)
    ref = reference(family, monkeypatch)
    outputs = [n for n, v in t.items() if v.init == "empty"]
    assert_manifest(racer.check(tensors=t, program_a=[launch], reference=ref, outputs=outputs, time_limit=300))


needs_torch = pytest.mark.skipif(not LIVE, reason="needs torch (scripts/install-deps.sh skipped it: RACER_SKIP_TORCH)")


@needs_torch
def test_the_recorded_graphs_are_todays_capture():
    # Machines without torch check the kernels against the recorded graphs: a change to the
    # capture or the lowering must re-record them (torch_references.py), or those checks go stale.
    import torch
    import torch_references
    recorded = json.load(gzip.open(RECORDED, "rt"))
    assert recorded["torch"].split("+")[0] == torch.__version__.split("+")[0], "recorded with another torch"
    stale = []
    for family, (fn, tensors, outputs) in torch_references.FAMILIES.items():
        g = racer.reference.trace(fn, tensors, outputs)
        live = json.loads(json.dumps({k: g[k] for k in ("nodes", "outputs")}))  # as recorded: tuples become lists
        if live != {k: recorded["graphs"][family][k] for k in ("nodes", "outputs")}:
            stale.append(family)
    assert not stale, f"re-record with `python3 tests/python/torch_references.py`: {stale} changed"


@needs_torch
def test_unsupported_torch_operator_is_refused_by_name_at_the_users_line():
    import torch
    t = [{"name": "x", "shape": [4, 8], "dtype": "f32", "init": "input"},
         {"name": "y", "shape": [4, 8], "dtype": "f32", "init": "empty"}]

    def ref(x):
        return torch.sort(x, dim=-1).values  # sorted
    with pytest.raises(racer.RacerError) as e:
        racer.reference.trace(ref, t, ["y"])
    assert "aten.sort.default is not supported" in str(e.value)
    assert str(e.value).startswith(f"{os.path.abspath(__file__)}:{line_of('# sorted', __file__)}:")


@needs_torch
def test_torch_branch_on_tensor_values_is_refused_at_the_users_line():
    t = [{"name": "x", "shape": [4], "dtype": "f32", "init": "input"}, {"name": "y", "shape": [4], "dtype": "f32", "init": "empty"}]

    @racer.reference.from_torch  # it names no torch operation: nothing else says it is PyTorch code
    def ref(x):
        if x.sum() > 0:  # a branch on data
            return x
        return -x
    with pytest.raises(racer.RacerError) as e:
        racer.reference.trace(ref, t, ["y"])
    assert "could not capture the reference without data" in str(e.value)
    assert str(e.value).startswith(f"{os.path.abspath(__file__)}:{line_of('# a branch on data', __file__)}:")
