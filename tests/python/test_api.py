"""Every entry point of the Python API, and every error it gives, with a clear located message."""
import inspect
import json
import tempfile
import os
import subprocess
from fractions import Fraction

import numpy as np
import pytest

import racer
from conftest import RACER_BIN, ROOT, needs_nvcc, needs_racer_bin, needs_triton, raises_at
from sample_kernels import AXPY, VEC_ADD_PTX

THIS = os.path.abspath(__file__)


def here():
    """file:line of the caller's line, as errors name it."""
    return f"{THIS}:{inspect.currentframe().f_back.f_lineno}"


# ---- tensors ---------------------------------------------------------------------------------

def test_tensor_constructors_record_shape_dtype_and_init():
    x = racer.input((2, 3), "f32", range=(-1, 1))
    assert (x.shape, x.dtype, x.init, x.range) == ((2, 3), "f32", "input", [-1, 1])
    assert racer.empty(4, np.float16).dtype == "f16"
    assert racer.zeros((4,), "i32").init == "zeros"
    assert racer.full((4,), 0.1, "f32").init == {"full": "0.1"}  # as written, like TOML
    v = racer.values(np.array([[0.1, 2]], dtype=np.float32))
    assert v.shape == (1, 2) and v.dtype == "f32"
    assert Fraction(v.init["values"][0]) == Fraction(float(np.float32(0.1)))  # the exact stored value
    assert racer.values([1, 2, 3], dtype="i32").init == {"values": [1, 2, 3]}


def test_wrong_shape_is_located():
    raises_at(lambda: racer.input((4, 0), "f32"), "every dimension must be a positive integer, not 0", THIS + ":")
    raises_at(lambda: racer.input((), "f32"), "at least one dimension")
    raises_at(lambda: racer.empty("abc"), "positive integer")
    raises_at(lambda: racer.input((2, 2), strides=(1,)), "strides (1,) has 1 entries but the shape (2, 2) has 2")
    raises_at(lambda: racer.values(np.zeros(6), shape=(4,)), "values has 6 numbers but the shape (4,) has 4 cells")


def test_error_names_the_users_line():
    with pytest.raises(racer.RacerError) as e:
        line = here(); racer.input((4, -1), "f32")  # noqa: E702
    assert str(e.value).startswith(line + ": ")


def test_unknown_dtype():
    raises_at(lambda: racer.input((4,), "f23"), "unknown dtype 'f23'; did you mean 'f32'?")
    raises_at(lambda: racer.zeros((4,), "complex"), "unknown dtype 'complex'")


def test_bad_values():
    raises_at(lambda: racer.full((2,), float("nan")), "NaN")
    raises_at(lambda: racer.full((2,), 1.5, "i32"), "does not fit i32: not an integer")
    raises_at(lambda: racer.values([300], dtype="u8"), "value 300 does not fit u8 (0 to 255)")
    raises_at(lambda: racer.input((2,), range=(1, -1)), "range lower bound 1 is greater than upper bound -1")
    raises_at(lambda: racer.read("x"), "racer.read takes a tensor")


# ---- kernels -----------------------------------------------------------------------------------

def test_ptx_from_path_and_text_and_missing_entry():
    k = racer.ptx(VEC_ADD_PTX, "vec_add")
    assert k.entry == "vec_add" and k.params == ["u64", "u64", "u64", "u32"]
    with open(VEC_ADD_PTX) as f:
        t = racer.ptx(f.read(), "vec_add_grid_stride")
    assert t.entry == "vec_add_grid_stride" and os.path.isfile(t.ptx)
    raises_at(lambda: racer.ptx(VEC_ADD_PTX, "vec_sub"),
              "no entry 'vec_sub' in", "its entries are: vec_add, vec_add_grid_stride")
    raises_at(lambda: racer.ptx("nowhere.ptx", "k"), "PTX file not found: nowhere.ptx")


def test_ptx_syntax_error_is_reported_with_its_line(tmp_path):
    bad = tmp_path / "bad.ptx"
    bad.write_text(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n")
    raises_at(lambda: racer.ptx(str(bad), "k"), "bad.ptx:6")


@needs_nvcc
def test_cuda_compiles_and_finds_mangled_entries():
    k = racer.cuda(AXPY, "axpy")
    assert k.params == ["f32", "u64", "u64", "u64", "u32"]
    m = racer.cuda(AXPY, "scale_mangled")  # not extern "C": the one mangled match is taken
    assert m.entry.startswith("_Z13scale_mangled")
    raises_at(lambda: racer.cuda(AXPY, "saxpy"), "no entry 'saxpy'", "axpy")


@needs_nvcc
def test_cuda_compile_error_carries_nvccs_message():
    src = 'extern "C" __global__ void k(float* x) { x[0] = undefined_name; }\n'
    msg = raises_at(lambda: racer.cuda(src, "k"), "nvcc failed", "undefined_name", "(CUDA source)")
    assert THIS in msg  # the CUDA text was given on a line of this file


@needs_nvcc
def test_cuda_source_file(tmp_path):
    cu = tmp_path / "k.cu"
    cu.write_text(AXPY)
    assert racer.cuda(str(cu), "axpy").label == str(cu)
    raises_at(lambda: racer.cuda(str(tmp_path / "missing.cu"), "axpy"), "CUDA source file not found")


@needs_triton
def test_triton_compile_error_carries_tritons_message():
    import triton
    import triton.language as tl

    @triton.jit
    def bad(x, BLOCK: tl.constexpr):
        tl.store(x + tl.arange(0, BLOCK), 1.0)

    x = racer.empty((100,), "f32")
    raises_at(lambda: racer.launch(racer.triton(bad, BLOCK=100), grid=1, args=[racer.write(x)]),
              "Triton could not compile bad", "power of 2")
    raises_at(lambda: racer.triton(bad, BLOK=64), "'BLOK' is not a parameter of Triton kernel bad")
    raises_at(lambda: racer.triton(lambda x: x), "racer.triton takes a @triton.jit function")


# ---- launches ----------------------------------------------------------------------------------

def test_argument_count_mismatch():
    k = racer.ptx(VEC_ADD_PTX, "vec_add")
    x, out = racer.input((8,)), racer.empty((8,))
    raises_at(lambda: racer.launch(k, grid=1, block=8, args=[racer.read(x), racer.write(out), 8]),
              "kernel 'vec_add'", "takes 4 arguments (u64, u64, u64, u32), but 3 are given")


def test_launch_argument_errors():
    k = racer.ptx(VEC_ADD_PTX, "vec_add")
    x, out = racer.input((8,)), racer.empty((8,))
    raises_at(lambda: racer.launch(k, grid=1, block=8, args=[x, racer.read(x), racer.write(out), 8]),
              "argument 0 is a bare tensor", "racer.read(")
    raises_at(lambda: racer.launch(k, grid=1, block=8, args=[racer.read(x), racer.read(x), 8, racer.write(out)]),
              "parameter 3 of 'vec_add' is .u32, not a 64-bit pointer")
    raises_at(lambda: racer.launch(k, grid=(1, 0), block=8, args=[racer.read(x), racer.read(x), racer.write(out), 8]),
              "grid (1, 0): dimension y must be an integer from 1 to 65535, not 0")
    raises_at(lambda: racer.launch(k, grid=1, block=(32, 64), args=[racer.read(x), racer.read(x), racer.write(out), 8]),
              "2048 threads; a CTA has at most 1024")
    raises_at(lambda: racer.launch("vec_add", grid=1, block=1, args=[]), "kernel must come from racer.ptx")
    raises_at(lambda: racer.launch(k, grid=1, args=[racer.read(x), racer.read(x), racer.write(out), 8]), "give block=")


def _vec_add_case(n=64, name="vec_add_py"):
    a = racer.ptx(VEC_ADD_PTX, "vec_add")
    b = racer.ptx(VEC_ADD_PTX, "vec_add_grid_stride")
    x, y, out = racer.input((n,)), racer.input((n,)), racer.empty((n,))
    args = [racer.read(x), racer.read(y), racer.write(out), n]
    return racer.case(name=name, tensors={"x": x, "y": y, "out": out},
                      program_a=[racer.launch(a, grid=2, block=32, args=args)],
                      program_b=[racer.launch(b, grid=1, block=16, args=args)], outputs=["out"])


def test_plain_call_form_is_equivalent():
    r = racer.check(_vec_add_case())
    assert r.equivalent, r.report()
    assert r.verdict == "equivalent" and r.exit_code == 0 and r.witness is None
    assert r.outputs == [{"tensor": "out", "cells": 64, "proved": 64, "refuted": 0, "unknown": 0, "negligible": 0, "skipped": 0,
                          "not_reached": 0, "cell_outcomes": [{"outcome": "proved", "first": 0, "last": 63}]}]
    assert "vec_add_py: EQUIVALENT" in r.report()


def test_keyword_form_and_program_blocks():
    k = racer.ptx(VEC_ADD_PTX, "vec_add")
    x, y, out = racer.input((32,)), racer.input((32,)), racer.empty((32,))
    with racer.program() as a:
        racer.launch(k, grid=1, block=32, args=[racer.read(x), racer.read(y), racer.write(out), 32])
    with racer.program() as b:
        racer.launch(k, grid=1, block=32, args=[racer.read(y), racer.read(x), racer.write(out), 32])
    r = racer.check(tensors={"x": x, "y": y, "out": out}, program_a=a, program_b=b, outputs=[out], name="swapped_add")
    assert r.verdict == "equivalent", r.report()


def test_instance_errors():
    k = racer.ptx(VEC_ADD_PTX, "vec_add")
    x, out, stray = racer.input((8,)), racer.empty((8,)), racer.empty((8,))
    l = racer.launch(k, grid=1, block=8, args=[racer.read(x), racer.read(x), racer.write(stray), 8])
    raises_at(lambda: racer.case(tensors={"x": x, "out": out}, program_a=[l], program_b=[l], outputs=["out"]),
              "uses a tensor that is not declared (declared: x, out)")
    ok = racer.launch(k, grid=1, block=8, args=[racer.read(x), racer.read(x), racer.write(out), 8])
    raises_at(lambda: racer.case(tensors={"x": x, "out": out}, program_a=[ok], program_b=[], outputs=["out"]),
              "program b has no launches")
    raises_at(lambda: racer.case(tensors={"x": x, "out": out}, program_a=[ok], program_b=[ok], outputs=["y"]),
              "output 'y' is not a declared tensor")
    raises_at(lambda: racer.check(42), "racer.check takes a racer.Instance subclass")
    raises_at(lambda: racer.check(tensors={"x": x}), "racer.check needs an instance")


@needs_nvcc
class Axpy(racer.Instance):
    """axpy against axpy with x and y swapped: an inequivalence with a witness"""

    def setup(self):
        self.x = racer.input((6,), "f32", range=(-4, 4))
        self.y = racer.values(np.arange(6, dtype=np.float32) / 4)
        self.out = racer.full((6,), -1.0, "f32")

    def program_a(self):
        racer.launch(racer.cuda(AXPY, "axpy"), grid=1, block=8,
                     args=[racer.scalar(2.0, "f32"), racer.read(self.x), racer.read(self.y), racer.write(self.out), 6])
        return {"out": self.out}

    def program_b(self):
        racer.launch(racer.cuda(AXPY, "axpy_swapped"), grid=1, block=8,
                     args=[np.float32(2.0), racer.read(self.x), racer.read(self.y), racer.write(self.out), 6])
        return self.out


@needs_nvcc
def test_class_form_witness_explain_and_replays(tmp_path, monkeypatch):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    r = racer.check(Axpy)
    assert r.name == "axpy" and r.verdict == "inequivalent" and r.exit_code == 1 and not r.equivalent
    w = r.witness
    assert set(w) == {"x"} and w["x"].dtype == np.float32 and w["x"].shape == (6,)
    cell = r.counterexample["cell"]
    i = int(cell[cell.index("[") + 1:-1])
    (name, value), = r.witness_values
    assert name == f"x[{i}]" and w["x"][i] == float(value) and -4 <= value <= 4
    # a*x + y differs from a*y + x exactly where x != y: the witness must show that.
    assert value != Fraction(i, 4)
    assert "witness: the outputs differ at" in r.report()
    text = r.explain()
    assert f"program a:" in text and "decided:   refuted" in text
    cpu = r.replay()
    assert cpu["refusal"] == "" and cpu["differing_count"] >= 1 and cpu["at_witness"][0] == cell
    assert not list(scratch.iterdir()), "replay left its witness file behind"
    saved = r.save_witness(str(tmp_path / "w.json"))
    j = json.load(open(saved))
    assert j["format"] == "racer-witness-1" and j["replay"]["a"][0]["param_types"] == ["f32", "u64", "u64", "u64", "u32"]
    assert "axpy" in j["replay"]["a"][0]["ptx_text"] and j["values"][0]["dtype"] == "f32"


@needs_nvcc
def test_one_refuted_cell_per_output_unless_all_cells():
    # a*x + y against a*y + x: every cell differs; by default the first refuted cell settles
    # its output and the rest are reported as skipped, with all_cells=True each is decided.
    (first,), (every,) = racer.check(Axpy).outputs, racer.check(Axpy, all_cells=True).outputs
    assert first["refuted"] == 1 and first["skipped"] == 5 and first["proved"] == 0
    assert every["refuted"] == 6 and every["skipped"] == 0


@needs_nvcc
@needs_racer_bin
def test_cli_replays_a_python_witness(tmp_path):
    r = racer.check(Axpy)
    w = r.save_witness(str(tmp_path / "w.json"))
    p = subprocess.run([RACER_BIN, "replay", w], capture_output=True, text=True)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "replay at the witness (bit-exact IEEE emulation on the CPU)" in p.stdout and "DIFFER" in p.stdout


def test_outputs_must_agree_between_programs():
    class Mismatch(racer.Instance):
        def setup(self):
            self.x, self.out, self.other = racer.input((8,)), racer.empty((8,)), racer.empty((8,))

        def program_a(self):
            racer.launch(racer.ptx(VEC_ADD_PTX, "vec_add"), grid=1, block=8,
                         args=[racer.read(self.x), racer.read(self.x), racer.write(self.out), 8])
            return {"out": self.out}

        def program_b(self):
            racer.launch(racer.ptx(VEC_ADD_PTX, "vec_add"), grid=1, block=8,
                         args=[racer.read(self.x), racer.read(self.x), racer.write(self.other), 8])
            return {"other": self.other}

    raises_at(lambda: racer.check(Mismatch), "program_a returns outputs ['out'] but program_b returns ['other']")

    class NoReturn(Mismatch):
        def program_b(self):
            racer.launch(racer.ptx(VEC_ADD_PTX, "vec_add"), grid=1, block=8,
                         args=[racer.read(self.x), racer.read(self.x), racer.write(self.out), 8])

    raises_at(lambda: racer.check(NoReturn), "program_b returned nothing")


def test_core_errors_point_at_the_launch_line():
    # .reqntid is checked by the core (prepare): its error names this file and the launch's line.
    ptx = open(VEC_ADD_PTX).read().replace(".visible .entry vec_add(", ".visible .entry vec_add(", 1)
    ptx = ptx.replace(")\n{", ")\n.reqntid 64\n{", 1)
    k = racer.ptx(ptx, "vec_add")
    x, out = racer.input((8,)), racer.empty((8,))
    a = [racer.launch(k, grid=1, block=32, args=[racer.read(x), racer.read(x), racer.write(out), 8])]; line = here()  # noqa: E702
    msg = raises_at(lambda: racer.check(racer.case(tensors={"x": x, "out": out}, program_a=a, program_b=a,
                                                   outputs=["out"], name="reqntid")),
                    "requires 64 threads per block (.reqntid), the launch has 32")
    assert line + ":" in msg  # file:line:col


@needs_nvcc
def test_defects_name_the_line_of_the_python_file_holding_the_cuda_source():
    import sample_kernels
    from conftest import line_of
    x, out = racer.input((20,)), racer.empty((20,))
    args = [racer.read(x), racer.write(out), 20]
    r = racer.check(tensors={"x": x, "out": out}, outputs=[out], name="unguarded",
                    program_a=[racer.launch(racer.cuda(sample_kernels.UNGUARDED, "copy_guarded"), grid=1, block=32, args=args)],
                    program_b=[racer.launch(racer.cuda(sample_kernels.UNGUARDED, "copy_unguarded"), grid=1, block=32, args=args)])
    kinds = {(d["program"], d["kind"]) for d in r.defects}
    assert ("b", "oob_read") in kinds and ("b", "oob_write") in kinds and r.exit_code == 1, r.report()
    store = next(d for d in r.defects if d["kind"] == "oob_write")
    path = os.path.abspath(sample_kernels.__file__)
    assert store["site"]["source"].startswith(f"{path}:{line_of('UNGUARDED STORE', path)}:"), store


@needs_triton
def test_triton_entry_points_and_their_errors():
    import triton
    import triton.language as tl

    @triton.jit
    def scale(x, y, n, alpha, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + o, alpha * tl.load(x + o, mask=o < n), mask=o < n)

    x, y = racer.input((100,)), racer.empty((100,))
    args = [racer.read(x), racer.write(y), 100, 2.0]
    # A triton.jit function given straight to launch, with its options there.
    direct = racer.launch(scale, grid=2, args=args, constexprs={"BLOCK": 64}, num_warps=2)
    assert direct.block == (64, 1, 1) and direct.kernel.params[-2:] == ["u64", "u64"]
    assert direct.kernel.params[:4] == ["u64", "u64", "u32", "f32"]
    k = racer.triton(scale, BLOCK=64, num_warps=2)
    same = racer.launch(k, grid=2, block=64, args=args)
    assert same.kernel.ptx == direct.kernel.ptx
    r = racer.check(tensors={"x": x, "y": y}, program_a=[direct], program_b=[same], outputs=[y], name="scale")
    assert r.equivalent, r.report()
    raises_at(lambda: racer.launch(k, grid=2, block=128, args=args),
              "block (128, 1, 1) does not match the 64 threads (2 warps) kernel")
    raises_at(lambda: racer.launch(k, grid=2, args=args[:3]),
              "Triton kernel scale takes 4 arguments (x, y, n, alpha) besides its constexprs, but 3 are given")
    raises_at(lambda: racer.triton(scale, BLOCK=64, signature=["*fp32"]).compile(),
              "signature has 1 types but Triton kernel scale has 4 parameters")
    raises_at(lambda: racer.launch(k, grid=2, args=[racer.read(x), racer.write(y), 100, object()]),
              "argument 3 must be racer.read/write/readwrite(tensor), racer.tensor_map(...), a number or None")
    kp = racer.ptx(VEC_ADD_PTX, "vec_add")
    raises_at(lambda: racer.launch(kp, grid=1, block=1, args=[], num_warps=4),
              "constexprs, num_warps and num_stages apply to a triton.jit kernel")


@needs_triton
def test_triton_constexpr_named_like_a_launch_option():
    """A kernel with constexprs named num_warps / num_stages (liger's kernels take num_warps:
    tl.constexpr) launches: Triton's launcher gives such a parameter the option's value, and so
    does Racer; the two given apart and different is an error at the user's line."""
    import triton
    import triton.language as tl

    @triton.jit
    def times_warps(x, y, n, BLOCK: tl.constexpr, num_warps: tl.constexpr, num_stages: tl.constexpr):
        o = tl.arange(0, BLOCK)
        tl.store(y + o, tl.load(x + o, mask=o < n) * num_warps + num_stages, mask=o < n)

    @triton.jit
    def affine(x, y, n, a, b, BLOCK: tl.constexpr):
        o = tl.arange(0, BLOCK)
        tl.store(y + o, tl.load(x + o, mask=o < n) * a + b, mask=o < n)

    x, y = racer.input((64,)), racer.empty((64,))
    args = [racer.read(x), racer.write(y), 64]
    k = racer.triton(times_warps, BLOCK=64, num_warps=2, num_stages=3)
    assert k.constexprs == {"BLOCK": 64, "num_warps": 2, "num_stages": 3}
    a = racer.launch(k, grid=1, args=args)
    assert a.block == (64, 1, 1)  # two warps
    b = racer.launch(racer.triton(affine, BLOCK=64, num_warps=2), grid=1, args=args + [2.0, 3.0])
    r = racer.check(tensors={"x": x, "y": y}, program_a=[a], program_b=[b], outputs=[y], name="warps")
    assert r.equivalent, r.report()
    # Given only as a constexpr, it is the warp count too; given neither way, the default.
    assert racer.launch(times_warps, grid=1, args=args, constexprs={"BLOCK": 64, "num_warps": 1, "num_stages": 1}).block == (32, 1, 1)
    assert racer.triton(times_warps, BLOCK=64).constexprs == {"BLOCK": 64, "num_warps": 4, "num_stages": 1}
    wrong = racer.launch(racer.triton(times_warps, BLOCK=64, num_warps=4, num_stages=3), grid=1, args=args)
    r = racer.check(tensors={"x": x, "y": y}, program_a=[wrong], program_b=[b], outputs=[y], name="warps")
    assert r.verdict == "inequivalent", r.report()
    with pytest.raises(racer.RacerError) as e:
        line = here(); racer.triton(times_warps, constexprs={"BLOCK": 64, "num_warps": 4}, num_warps=2)  # noqa: E702
    assert str(e.value).startswith(line + ": "), str(e.value)
    assert "num_warps=2 and constexpr num_warps=4 disagree" in str(e.value)
    raises_at(lambda: racer.triton(affine, BLOCK=64, num_warps=0), "num_warps must be a positive integer, not 0")


def test_hazard_points_set_the_float_hazard_search():
    from racer.testing import check_toml
    h07 = os.path.join(ROOT, "tests", "hazards", "h07_cube_overflows_then_clamped.toml")
    default = check_toml(h07)
    assert default.json["float_hazards"]["runs"] == 3
    (h,) = default.json["float_hazards"]["hazards"]
    assert h["intermediate"] and h["kind"] == "overflow" and h["program"] == "a" and h["bits"] == 0x7f800000
    assert check_toml(h07, hazard_points=7).json["float_hazards"]["runs"] == 7
    assert check_toml(h07, hazard_points=0).json["float_hazards"]["summary"] == "float hazard search off"
    r = racer.check(_vec_add_case(), hazard_points=5)
    assert r.json["float_hazards"]["runs"] == 5 and r.float_hazards == []
    raises_at(lambda: racer.check(_vec_add_case(), hazard_points=-1), "hazard_points must be None or a whole number")
    raises_at(lambda: check_toml(h07, hazard_points=2.5), "hazard_points must be None or a whole number")


@needs_nvcc
def test_a_scalar_argument_whose_value_is_an_input():
    """racer.scalar(tensor, type): a by-value parameter (a GEMM's alpha) that is an input, symbolic
    like every other: proved for every alpha against itself, refuted against a constant alpha with
    a witness giving alpha a value, replayed; a tensor of several cells is refused at the call."""
    def case(b_alpha):
        alpha = racer.input((1,), "f32", range=(-4, 4))
        x = racer.input((6,), "f32", range=(-4, 4))
        y = racer.input((6,), "f32", range=(-4, 4))
        out = racer.empty((6,), "f32")

        k = racer.cuda(AXPY, "axpy")
        with racer.program() as a:
            racer.launch(k, grid=1, block=8, args=[racer.scalar(alpha, "f32"), racer.read(x), racer.read(y), racer.write(out), 6])
        with racer.program() as b:
            given = racer.scalar(alpha, "f32") if b_alpha is None else racer.scalar(b_alpha, "f32")
            racer.launch(k, grid=1, block=8, args=[given, racer.read(x), racer.read(y), racer.write(out), 6])
        return racer.check(tensors={"alpha": alpha, "x": x, "y": y, "out": out}, program_a=a, program_b=b, outputs=[out],
                           name="axpy_alpha")

    assert case(None).verdict == "equivalent"
    r = case(2.0)
    assert r.verdict == "inequivalent"
    assert "alpha" in r.witness and r.witness["alpha"][0] != 2.0
    assert r.replay()["differing_count"] >= 1
    raises_at(lambda: racer.scalar(racer.input((2,), "f32"), "f32"), "a tensor of one cell")
