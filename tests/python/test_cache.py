"""Lowered PTX is cached by content hash: the same input compiles once."""
import os

import racer
from conftest import needs_nvcc, needs_triton
from sample_kernels import AXPY, VEC_ADD_PTX
from racer import _native


def test_ptx_text_is_stored_under_its_content_hash(fresh_cache):
    text = open(VEC_ADD_PTX).read()
    a, b = racer.ptx(text, "vec_add"), racer.ptx(text, "vec_add_grid_stride")
    assert a.ptx == b.ptx and os.path.dirname(a.ptx) == str(fresh_cache)
    assert os.path.basename(a.ptx) == _native.frontend().content_hash(text) + ".ptx"
    assert racer.ptx(text + "\n// changed\n", "vec_add").ptx != a.ptx


def test_content_hash_is_stable():
    h = _native.frontend().content_hash
    assert h("") == h("") and len(h("abc")) == 32 and h("abc") != h("abd") and h("ab") != h("ab\0")


@needs_nvcc
def test_cuda_compiles_once(fresh_cache):
    first = racer.cuda(AXPY, "axpy")
    stamp = os.stat(first.ptx).st_mtime_ns
    again = racer.cuda(AXPY, "axpy_swapped")
    assert again.ptx == first.ptx and os.stat(again.ptx).st_mtime_ns == stamp
    assert racer.cuda(AXPY, "axpy", options=["-O1"]).ptx != first.ptx  # options are part of the key
    assert racer.cuda(AXPY, "axpy", arch="sm_80").ptx != first.ptx
    assert ".target sm_80" in open(racer.cuda(AXPY, "axpy", arch="sm_80").ptx).read()


@needs_triton
def test_triton_compiles_once(fresh_cache, monkeypatch):
    import triton
    import triton.language as tl

    @triton.jit
    def double(x, y, n, BLOCK: tl.constexpr):
        o = tl.arange(0, BLOCK)
        tl.store(y + o, 2 * tl.load(x + o, mask=o < n), mask=o < n)

    x, y = racer.input((16,)), racer.empty((16,))
    k = racer.triton(double, BLOCK=16, num_warps=1)
    first = racer.launch(k, grid=1, args=[racer.read(x), racer.write(y), 16])
    assert first.block == (32, 1, 1) and first.kernel.extra_null_params == 2
    calls = []
    real = triton.compile
    monkeypatch.setattr(triton, "compile", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    second = racer.launch(k, grid=1, args=[racer.read(x), racer.write(y), 16])
    assert second.kernel.ptx == first.kernel.ptx and calls == []
    racer.launch(racer.triton(double, BLOCK=16, num_warps=2), grid=1, args=[racer.read(x), racer.write(y), 16])
    assert calls == [1]  # num_warps is part of the key


@needs_nvcc
def test_cuda_recompiles_when_a_local_header_changes(fresh_cache, tmp_path):
    (tmp_path / "scale.cuh").write_text("#pragma once\n#include \"factor.cuh\"\n__device__ float scale(float v) { return FACTOR * v; }\n")
    (tmp_path / "factor.cuh").write_text("#define FACTOR 2.f\n")
    cu = tmp_path / "k.cu"
    cu.write_text('#include "scale.cuh"\nextern "C" __global__ void k(float* x) { x[threadIdx.x] = scale(x[threadIdx.x]); }\n')
    first = racer.cuda(str(cu), "k")
    assert racer.cuda(str(cu), "k").ptx == first.ptx
    (tmp_path / "factor.cuh").write_text("#define FACTOR 3.f\n")  # a header the header includes
    second = racer.cuda(str(cu), "k")
    assert second.ptx != first.ptx
    assert "0f40400000" in open(second.ptx).read() and "0f40400000" not in open(first.ptx).read()
