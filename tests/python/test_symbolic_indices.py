"""Integer input tensors with a declared range used as indices (racer.input(shape, "i32"/"i64",
range=(lo, hi))): the addresses they make are enumerated over the range (exec/indexed_address.hpp),
in Triton kernels as in CUDA ones."""
import os

import racer
from conftest import ROOT, needs_triton

SYMIDX_PTX = os.path.join(ROOT, "tests", "cases", "ptx", "symidx.sm90.ptx")


def _triton_kernels():
    import triton
    import triton.language as tl

    @triton.jit
    def pick(X, T, out, V: tl.constexpr, SHIFT: tl.constexpr):
        # Cross-entropy's picked logit: X[row, t[row]].
        row = tl.program_id(0)
        t = tl.load(T + row)
        tl.store(out + row, tl.load(X + row * V + t + SHIFT))

    @triton.jit
    def masked_sum(X, T, out, V: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, V)
        t = tl.load(T + row)
        x = tl.load(X + row * V + cols)
        tl.store(out + row, tl.sum(tl.where(cols == t, x, 0.0), axis=0))

    @triton.jit
    def embed(Tok, W, out, D: tl.constexpr):
        t = tl.program_id(0)
        d = tl.arange(0, D)
        tok = tl.load(Tok + t)
        tl.store(out + t * D + d, tl.load(W + tok * D + d))

    return pick, masked_sum, embed


def _pick_case(shift, hi):
    pick, masked_sum, _ = _triton_kernels()
    X = racer.input((4, 16), "f32")
    T = racer.input((4,), "i64", range=(0, hi))
    out = racer.empty((4,), "f32")
    args = [racer.read(X), racer.read(T), racer.write(out)]
    a = racer.launch(racer.triton(pick, V=16, SHIFT=shift, num_warps=1), grid=4, args=args)
    b = racer.launch(racer.triton(masked_sum, V=16, num_warps=1), grid=4, args=args)
    return racer.check(tensors={"X": X, "T": T, "out": out}, program_a=[a], program_b=[b], outputs=[out], name="pick")


@needs_triton
def test_triton_picked_logit_with_symbolic_targets_is_proved():
    r = _pick_case(0, 15)
    assert r.verdict == "equivalent", r.report()
    assert not r.defects, r.report()


@needs_triton
def test_triton_picked_logit_of_the_next_class_is_refuted_and_replays():
    r = _pick_case(1, 14)  # t + 1 <= 15 stays in the row
    assert r.verdict == "inequivalent", r.report()
    assert not r.defects, r.report()
    rep = r.replay()
    assert rep["differing_count"] > 0, rep


@needs_triton
def test_triton_target_past_the_row_is_an_out_of_bounds_read_only_where_it_is():
    # Targets up to 16 in rows of 16: the last row's X[3, 16] is past the end of X.
    r = _pick_case(0, 16)
    oob = [d for d in r.defects if d["kind"] == "oob_read"]
    assert oob and "only where T[3] = 16" in oob[0]["detail"], r.report()
    assert r.verdict == "inequivalent", r.report()


@needs_triton
def test_triton_embedding_against_the_cuda_gather():
    _, _, embed = _triton_kernels()
    tok = racer.input((5,), "i32", range=(0, 7))
    W = racer.input((8, 16), "f32")
    out = racer.empty((5, 16), "f32")
    a = racer.launch(racer.triton(embed, D=16, num_warps=1), grid=5, args=[racer.read(tok), racer.read(W), racer.write(out)])
    b = racer.launch(racer.ptx(SYMIDX_PTX, "sidx_embed"), grid=1, block=128,
                     args=[racer.read(tok), racer.read(W), racer.write(out), 5, 16])
    r = racer.check(tensors={"tok": tok, "W": W, "out": out}, program_a=[a], program_b=[b], outputs=[out], name="embed")
    assert r.verdict == "equivalent", r.report()
