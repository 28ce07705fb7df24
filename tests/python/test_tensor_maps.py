"""Tensor maps (TMA) from the Python API: the same maps as an instance file's [tensor_maps],
checked by the same rules, with errors located at the user's line."""
import inspect
import os

import pytest

import racer
from conftest import raises_at

THIS = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(THIS)))
TC_PTX = os.path.join(ROOT, "tests", "cases", "ptx", "tc.sm90a.ptx")


class TmaTile(racer.Instance):
    """t_tc_20 from Python: a tile of A and all of B loaded by TMA against a plain loop"""

    swizzle_a = "none"
    entry_a = "mm_tma"

    def setup(self):
        self.A = racer.input((32, 32), "f16")
        self.B = racer.input((32, 16), "f16")
        self.C = racer.empty((32, 16), "f32")

    def program_a(self):
        tm_a = racer.tensor_map(self.A, box=(16, 32), swizzle=self.swizzle_a)
        tm_b = racer.tensor_map(self.B, box=(32, 16))
        racer.launch(racer.ptx(TC_PTX, self.entry_a), grid=(1, 2), block=(16, 16),
                     args=[tm_a, tm_b, racer.write(self.C), 32, 16, 32])
        return {"C": self.C}

    def program_b(self):
        racer.launch(racer.ptx(TC_PTX, "mm_naive"), grid=(1, 1), block=(16, 32),
                     args=[racer.read(self.A), racer.read(self.B), racer.write(self.C), 32, 16, 32])
        return {"C": self.C}


def test_tma_tile_through_python_tensor_maps_is_equivalent():
    r = racer.check(TmaTile)
    assert r.verdict == "equivalent", r.report()
    assert r.defects == []


def test_swizzled_map_read_by_a_swizzle_aware_kernel_is_equivalent():
    class Swizzled(TmaTile):
        swizzle_a, entry_a = "64B", "mm_tma_swizzled"
    r = racer.check(Swizzled)
    assert r.verdict == "equivalent", r.report()


def test_a_map_whose_swizzle_the_kernel_does_not_undo_is_inequivalent():
    # The map decides the shared-memory layout: the plain kernel reading a 64B-swizzled box
    # multiplies permuted elements.
    class WrongSwizzle(TmaTile):
        swizzle_a = "64B"
    r = racer.check(WrongSwizzle)
    assert r.verdict == "inequivalent", r.report()


def test_described_maps_mirror_the_toml_keys():
    case = racer.instance.from_class(TmaTile)
    maps = case.description()["tensor_maps"]
    assert [(m["name"], m["tensor"], m["box"], m["swizzle"]) for m in maps] == [
        ("tm_A", "A", [16, 32], "none"), ("tm_B", "B", [32, 16], "none")]
    arg = case.description()["a"][0]["args"][0]
    assert arg == {"tensor_map": "tm_A"}


def test_bad_maps_are_refused_in_python_with_the_users_line():
    a = racer.input((32, 32), "f16")
    line = inspect.currentframe().f_lineno + 1
    raises_at(lambda: racer.tensor_map("A", box=(16, 32)), "racer.tensor_map takes a tensor", f"{THIS}:{line}")
    raises_at(lambda: racer.tensor_map(a, box=(16, 32), swizzle="16B"),
              "swizzle must be one of none, 32B, 64B, 128B, not '16B'")
    raises_at(lambda: racer.tensor_map(a, box=(16, "x")), "every dimension must be an integer")
    raises_at(lambda: racer.tensor_map(a, box=None), "box must be a tuple of integers")
    tm = racer.tensor_map(a, box=(16, 32))
    out = racer.empty((32, 16), "f32")
    k = racer.ptx(TC_PTX, "mm_naive")
    raises_at(lambda: racer.launch(k, grid=1, block=(16, 32), args=[tm, racer.read(a), racer.write(out), 32, 16, 32]),
              "argument 0 is a tensor map but parameter 0 of 'mm_naive' is .u64")


def _case_with_map(tm, a, b, c, name):
    k = racer.ptx(TC_PTX, "mm_tma")
    naive = racer.ptx(TC_PTX, "mm_naive")
    tm_b = racer.tensor_map(b, box=(32, 16))
    la = racer.launch(k, grid=(1, 2), block=(16, 16), args=[tm, tm_b, racer.write(c), 32, 16, 32])
    lb = racer.launch(naive, grid=1, block=(16, 32), args=[racer.read(a), racer.read(b), racer.write(c), 32, 16, 32])
    return racer.case(tensors={"A": a, "B": b, "C": c}, program_a=[la], program_b=[lb], outputs=["C"], name=name)


@pytest.mark.parametrize("box,swizzle,needle", [
    ((16,), "none", "box has 1 dimensions, tensor 'A' has 2"),
    ((16, 300), "none", "box dimension 300 must be in 1..256"),
    ((16, 32), "32B", "the box's innermost dimension is 64 bytes, wider than the 32-byte swizzle span"),
    ((16, 4), "none", "the box's innermost dimension is 8 bytes; TMA needs a multiple of 16 bytes"),
])
def test_maps_the_driver_would_reject_are_errors_at_the_maps_line(box, swizzle, needle):
    a, b, c = racer.input((32, 32), "f16"), racer.input((32, 16), "f16"), racer.empty((32, 16), "f32")
    tm = racer.tensor_map(a, box=box, swizzle=swizzle); line = inspect.currentframe().f_lineno  # noqa: E702
    msg = raises_at(lambda: racer.check(_case_with_map(tm, a, b, c, "bad_map")), "tensor map 'tm_A'", needle)
    assert f"{THIS}:{line}:" in msg


def test_a_tensor_whose_rows_are_not_16_byte_multiples_is_an_error():
    a = racer.input((32, 32), "f16", strides=(36, 1))  # 72-byte rows
    b, c = racer.input((32, 16), "f16"), racer.empty((32, 16), "f32")
    tm = racer.tensor_map(a, box=(16, 32))
    raises_at(lambda: racer.check(_case_with_map(tm, a, b, c, "bad_stride")),
              "tensor 'A' has a stride of 72 bytes in dimension 0; a tensor map needs strides that are multiples of 16 bytes")
