"""Kernels checked against NumPy references (issue 21): for each family a Triton or CUDA kernel
proved equivalent to the eager NumPy code it replaces, and a mutation refuted with a witness
that replays as manifest; the tracer's refusals, located at the user's line."""
import os

import numpy as np
import pytest

import racer
import racer.reference as R
from conftest import CORPUS, ROOT, needs_triton

PTX = os.path.join(CORPUS, "ptx")
CASES_PTX = os.path.join(ROOT, "tests", "cases", "ptx")


def corpus(kind, module, entry):
    return racer.ptx(os.path.join(PTX, kind, module), entry)


def own(path, entry):
    return racer.ptx(os.path.join(CASES_PTX, path), entry)


def check(tensors, launches, reference, outputs, **kw):
    return racer.check(tensors=tensors, program_a=launches, reference=reference, outputs=outputs, **kw)


def assert_equivalent(r):
    assert r.verdict == "equivalent", r.report()


def assert_manifest(r):
    assert r.verdict == "inequivalent", r.report()
    assert r.counterexample["replay"]["kind"] == "manifest", r.report()
    assert "replay: manifest" in r.report()
    assert "program b is the reference" in r.report()


def null():
    return None


# ---- softmax and log-softmax ----------------------------------------------------------------

def softmax_tensors():
    return {"x": racer.input((4, 64), "f32"), "y": racer.empty((4, 64), "f32")}


def test_triton_softmax_equals_numpy_softmax():
    t = softmax_tensors()
    launch = racer.launch(corpus("triton", "softmax.sm90.ptx", "softmax"), grid=4, block=128, shared_bytes=8,
                          args=[racer.read(t["x"]), racer.write(t["y"]), 64, None, None])
    assert_equivalent(check(t, [launch], lambda x: np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True), ["y"]))


def test_softmax_over_the_wrong_axis_is_refuted_against_numpy():
    t = softmax_tensors()
    launch = racer.launch(corpus("cuda", "reduce.sm90.ptx", "softmax_cols"), grid=1, block=64,
                          args=[racer.read(t["x"]), racer.write(t["y"]), 4, 64])
    assert_manifest(check(t, [launch], lambda x: R.softmax(x, axis=-1), ["y"]))


def test_triton_log_softmax_equals_numpy():
    t = softmax_tensors()
    launch = racer.launch(corpus("triton", "log_softmax.sm90.ptx", "log_softmax"), grid=4, block=128, shared_bytes=8,
                          args=[racer.read(t["x"]), racer.write(t["y"]), 64, None, None])
    assert_equivalent(check(t, [launch], lambda x: x - np.log(np.sum(np.exp(x), axis=1, keepdims=True)), ["y"]))


@needs_triton
def test_log_softmax_missing_max_inside_exp_is_refuted():
    from reference_kernels import log_softmax_no_max
    t = softmax_tensors()
    launch = racer.launch(racer.triton(log_softmax_no_max, BLOCK=64, num_warps=4), grid=4,
                          args=[racer.read(t["x"]), racer.write(t["y"]), 64])
    assert_manifest(check(t, [launch], lambda x: R.log_softmax(x), ["y"]))


# ---- normalizations -------------------------------------------------------------------------

def layernorm_ref(x, w, b):
    mu = x.mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + np.float32(1e-5)) * w + b


def layernorm_case(module):
    t = {"x": racer.input((2, 64), "f32"), "w": racer.input(64, "f32"), "b": racer.input(64, "f32"),
         "y": racer.empty((2, 64), "f32")}
    entry = module.split(".")[0]
    launch = racer.launch(corpus("triton", module, entry), grid=2, block=64, shared_bytes=8,
                          args=[racer.read(t["x"]), racer.read(t["w"]), racer.read(t["b"]), racer.write(t["y"]), 64,
                                np.float32(1e-5), None, None])
    return check(t, [launch], layernorm_ref, ["y"])


def test_triton_layer_norm_equals_numpy():
    assert_equivalent(layernorm_case("layernorm.sm90.ptx"))


def test_layer_norm_with_eps_outside_the_sqrt_is_refuted():
    assert_manifest(layernorm_case("layernorm_eps_outside.sm90.ptx"))


def rms_tensors():
    return {"x": racer.input((4, 128), "f32"), "w": racer.input(128, "f32"), "y": racer.empty((4, 128), "f32")}


def rmsnorm_ref(x, w):
    return x / np.sqrt(np.mean(np.square(x), axis=-1, keepdims=True) + np.float32(1e-5)) * w


def test_triton_rms_norm_equals_numpy():
    t = rms_tensors()
    launch = racer.launch(corpus("triton", "rmsnorm.sm90.ptx", "rmsnorm"), grid=4, block=128, shared_bytes=16,
                          args=[racer.read(t["x"]), racer.read(t["w"]), racer.write(t["y"]), 128, np.float32(1e-5),
                                None, None])
    assert_equivalent(check(t, [launch], rmsnorm_ref, ["y"]))


@needs_triton
def test_rms_norm_with_eps_outside_the_sqrt_is_refuted():
    from reference_kernels import rmsnorm_eps_outside
    t = rms_tensors()
    launch = racer.launch(racer.triton(rmsnorm_eps_outside, BLOCK=128, num_warps=4), grid=4,
                          args=[racer.read(t["x"]), racer.read(t["w"]), racer.write(t["y"]), 128, np.float32(1e-5)])
    assert_manifest(check(t, [launch], rmsnorm_ref, ["y"]))


# ---- activations ----------------------------------------------------------------------------

def unary_tensors(n=200):
    return {"x": racer.input(n, "f32"), "out": racer.empty(n, "f32")}


def test_triton_gelu_erf_equals_numpy():
    t = unary_tensors()
    launch = racer.launch(corpus("triton", "gelu.sm90.ptx", "gelu"), grid=2, block=128,
                          args=[racer.read(t["x"]), racer.write(t["out"]), 200, None, None])
    assert_equivalent(check(t, [launch], lambda x: R.gelu(x), ["out"]))


@needs_triton
def test_gelu_erf_with_the_wrong_scale_is_refuted():
    from reference_kernels import gelu_erf_wrong_scale
    t = unary_tensors()
    launch = racer.launch(racer.triton(gelu_erf_wrong_scale, BLOCK=128, num_warps=4), grid=2,
                          args=[racer.read(t["x"]), racer.write(t["out"]), 200])
    assert_manifest(check(t, [launch], lambda x: 0.5 * x * (1 + R.erf(x * np.float32(0.7071067811865476))), ["out"]))


@needs_triton
@pytest.mark.parametrize("kernel,equivalent", [("gelu_tanh", True), ("gelu_tanh_wrong_cube", False)])
def test_triton_gelu_tanh_against_numpy(kernel, equivalent):
    import reference_kernels
    t = unary_tensors()
    launch = racer.launch(racer.triton(getattr(reference_kernels, kernel), BLOCK=128, num_warps=4), grid=2,
                          args=[racer.read(t["x"]), racer.write(t["out"]), 200])
    r = check(t, [launch], lambda x: R.gelu(x, approximate="tanh"), ["out"])
    assert_equivalent(r) if equivalent else assert_manifest(r)


def test_triton_silu_equals_numpy():
    t = unary_tensors()
    launch = racer.launch(corpus("triton", "silu.sm90.ptx", "silu"), grid=2, block=128,
                          args=[racer.read(t["x"]), racer.write(t["out"]), 200, None, None])
    assert_equivalent(check(t, [launch], lambda x: x / (1 + np.exp(-x)), ["out"]))


@needs_triton
def test_silu_with_an_unscaled_exp2_is_refuted_against_numpy():
    import reference_kernels
    t = unary_tensors()
    launch = racer.launch(racer.triton(reference_kernels.silu_exp2_unscaled, BLOCK=128, num_warps=4), grid=2,
                          args=[racer.read(t["x"]), racer.write(t["out"]), 200])
    assert_manifest(check(t, [launch], lambda x: x / (1 + np.exp(-x)), ["out"]))


@needs_triton
@pytest.mark.parametrize("kernel,equivalent", [("swiglu", True), ("swiglu_swapped", False)])
def test_triton_swiglu_against_numpy(kernel, equivalent):
    import reference_kernels
    t = {"a": racer.input(100, "f32"), "b": racer.input(100, "f32"), "out": racer.empty(100, "f32")}
    launch = racer.launch(racer.triton(getattr(reference_kernels, kernel), BLOCK=128, num_warps=4), grid=1,
                          args=[racer.read(t["a"]), racer.read(t["b"]), racer.write(t["out"]), 100])
    r = check(t, [launch], lambda a, b: R.silu(a) * b, ["out"])
    assert_equivalent(r) if equivalent else assert_manifest(r)


# ---- cross entropy --------------------------------------------------------------------------

LABELS = [3, -100, 7, 0]


def ce_tensors():
    return {"logits": racer.input((4, 32), "f32"), "labels": racer.values(np.array(LABELS, dtype=np.int32)),
            "loss": racer.empty(4, "f32")}


def cross_entropy_ref(smoothing=0, ignore_index=-100):
    def ref(logits, labels):
        keep = labels != ignore_index
        picked = logits[np.arange(len(labels)), np.where(keep, labels, 0)]   # a gather by the labels
        lse = R.logsumexp(logits, axis=-1)
        nll = lse - picked
        smooth = lse - logits.mean(axis=-1)
        # (1 - s) * nll + s * smooth, written so that no float32 arithmetic happens on the
        # constant alone: NumPy would round 1 - float32(0.1) before the tracer sees it.
        return np.where(keep, nll + smoothing * (smooth - nll), 0.0)
    return ref


@pytest.mark.parametrize("module,equivalent", [("cross_entropy.sm90.ptx", True), ("cross_entropy_noignore.sm90.ptx", False)])
def test_triton_cross_entropy_with_ignore_index_against_numpy(module, equivalent):
    t = ce_tensors()
    launch = racer.launch(corpus("triton", module, module.split(".")[0]), grid=4, block=32,
                          args=[racer.read(t["logits"]), racer.read(t["labels"]), racer.write(t["loss"]), 32, -100,
                                None, None])
    r = check(t, [launch], cross_entropy_ref(), ["loss"])
    assert_equivalent(r) if equivalent else assert_manifest(r)


@needs_triton
@pytest.mark.parametrize("kernel,equivalent", [("cross_entropy_smooth", True), ("cross_entropy_smooth_wrong", False)])
def test_triton_cross_entropy_with_label_smoothing_against_numpy(kernel, equivalent):
    import reference_kernels
    t = ce_tensors()
    launch = racer.launch(racer.triton(getattr(reference_kernels, kernel), BLOCK=32, num_warps=1), grid=4,
                          args=[racer.read(t["logits"]), racer.read(t["labels"]), racer.write(t["loss"]), 32, -100,
                                np.float32(0.1)])
    r = check(t, [launch], cross_entropy_ref(smoothing=np.float32(0.1)), ["loss"])
    assert_equivalent(r) if equivalent else assert_manifest(r)


# ---- indexing: rope, gathers ------------------------------------------------------------------

def rope_tensors():
    return {"x": racer.input((2, 8), "f32"), "cosv": racer.input((2, 4), "f32"), "sinv": racer.input((2, 4), "f32"),
            "out": racer.empty((2, 8), "f32")}


def rope_neox_ref(x, cosv, sinv):
    x1, x2 = x[..., :4], x[..., 4:]
    return np.concatenate([x1 * cosv - x2 * sinv, x2 * cosv + x1 * sinv], axis=-1)


def test_triton_rope_equals_numpy():
    t = rope_tensors()
    launch = racer.launch(corpus("triton", "rope_neox.sm90.ptx", "rope_neox"), grid=2, block=32,
                          args=[racer.read(t["x"]), racer.read(t["cosv"]), racer.read(t["sinv"]), racer.write(t["out"]),
                                None, None])
    assert_equivalent(check(t, [launch], rope_neox_ref, ["out"]))


def test_rope_pairing_adjacent_elements_is_refuted_against_neox_numpy():
    t = rope_tensors()
    launch = racer.launch(corpus("cuda", "indexing.sm90.ptx", "rope_gptj"), grid=2, block=1,
                          args=[racer.read(t["x"]), racer.read(t["cosv"]), racer.read(t["sinv"]), racer.write(t["out"]), 8])
    assert_manifest(check(t, [launch], rope_neox_ref, ["out"]))


@needs_triton
@pytest.mark.parametrize("kernel,equivalent", [("embedding", True), ("embedding_row_stride_bug", False)])
def test_triton_gather_by_an_index_tensor_against_numpy(kernel, equivalent):
    import reference_kernels
    t = {"table": racer.input((10, 16), "f32"), "idx": racer.values(np.array([7, 0, 3, 3, 9, 1], dtype=np.int32)),
         "out": racer.empty((6, 16), "f32")}
    launch = racer.launch(racer.triton(getattr(reference_kernels, kernel), D=16, num_warps=1), grid=6,
                          args=[racer.read(t["table"]), racer.read(t["idx"]), racer.write(t["out"])])
    r = check(t, [launch], lambda table, idx: table[idx], ["out"])
    assert_equivalent(r) if equivalent else assert_manifest(r)


# ---- matmul ---------------------------------------------------------------------------------

def mm_tensors(m, n, k, dtype):
    return {"A": racer.input((m, k), dtype), "B": racer.input((k, n), dtype), "C": racer.empty((m, n), "f32")}


@pytest.mark.parametrize("kernel", ["wmma", "triton_mma"])
def test_f16_tensor_core_matmul_equals_numpy(kernel):
    t = mm_tensors(32, 32, 32, "f16")
    if kernel == "wmma":
        launch = racer.launch(corpus("cuda", "matmul.sm90.ptx", "matmul_wmma"), grid=(2, 2), block=32,
                              args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 32, 32, 32])
    else:
        launch = racer.launch(corpus("triton", "matmul.sm80.ptx", "matmul"), grid=(2, 2), block=32, shared_bytes=1024,
                              args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 32, 32, 32, None, None])
    assert_equivalent(check(t, [launch], lambda A, B: A @ B, ["C"]))


def test_f16_mma_with_a_missing_ldmatrix_transpose_is_refuted():
    t = {"A": racer.input((32, 32), "f16"), "B": racer.input((32, 16), "f16"), "C": racer.empty((32, 16), "f32")}
    launch = racer.launch(own("tc.sm90a.ptx", "mm_mma_ldmatrix_notrans"), grid=(2, 2), block=32,
                          args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 32, 16, 32])
    assert_manifest(check(t, [launch], lambda A, B: np.einsum("mk,kn->mn", A, B), ["C"]))


@pytest.mark.parametrize("k_arg,equivalent", [(40, True), (39, False)])
def test_f32_tiled_matmul_against_numpy(k_arg, equivalent):
    # The mutation passes K - 1: the last product of every dot is dropped.
    t = mm_tensors(20, 24, 40, "f32")
    launch = racer.launch(corpus("cuda", "matmul.sm90.ptx", "matmul_tiled"), grid=(2, 2), block=(16, 16),
                          args=[racer.read(t["A"]), racer.read(t["B"]), racer.write(t["C"]), 20, 24, k_arg])
    r = check(t, [launch], lambda A, B: np.matmul(A, B), ["C"])
    assert_equivalent(r) if equivalent else assert_manifest(r)


# ---- attention ------------------------------------------------------------------------------

def attention_ref(Q, K, V):
    s = Q @ K.T * 0.25            # 1/sqrt(D), D = 16
    return R.softmax(s, axis=-1) @ V


@pytest.mark.parametrize("module,equivalent", [("attn_s32_d16.sm80.ptx", True), ("attn_s32_d16_norescale.sm80.ptx", False)])
def test_triton_flash_attention_against_numpy(module, equivalent):
    t = {n: racer.input((32, 16), "f16") for n in "QKV"}
    t["O"] = racer.empty((32, 16), "f32")
    launch = racer.launch(own(os.path.join("tc_triton", module), "attn_fwd"), grid=2, block=32, shared_bytes=1024,
                          args=[racer.read(t["Q"]), racer.read(t["K"]), racer.read(t["V"]), racer.write(t["O"]), None, None])
    r = check(t, [launch], attention_ref, ["O"], time_limit=300)
    assert_equivalent(r) if equivalent else assert_manifest(r)
