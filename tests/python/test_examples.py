"""Every example in examples/ runs and gets its expected verdict and defects."""
import glob
import os

import pytest

import racer
from conftest import EXAMPLES, needs_nvcc, needs_triton
from racer.cli import load_instances

# example file -> [(instance name, verdict, sorted (program, defect kind) pairs)]
EXPECTED = {
    "vec_add_ptx.py": [("vec_add_ptx", "equivalent", [])],
    "softmax_triton_vs_cuda.py": [("softmax_triton_vs_cuda", "equivalent", [])],
    "rope_pairing_bug.py": [("rope_pairing", "inequivalent", [])],
    "atomic_sum_uninitialized.py": [("atomic_sum_uninitialized", "inequivalent", [("b", "uninit_read")])],
    "rmsnorm_eps_below_tolerance.py": [("rmsnorm_eps_outside_sqrt", "inequivalent", [])],
    "split_k_pipeline.py": [("split_k_ceil_chunk", "equivalent", []), ("split_k_truncated_chunk", "inequivalent", [])],
    "triton_unmasked_store.py": [("unmasked_store", "equivalent", [("b", "oob_write")])],
}
USES = {"vec_add_ptx.py": set(), "softmax_triton_vs_cuda.py": {"nvcc", "triton"}, "rope_pairing_bug.py": {"nvcc"},
        "atomic_sum_uninitialized.py": {"nvcc"}, "rmsnorm_eps_below_tolerance.py": {"nvcc", "triton"},
        "split_k_pipeline.py": {"nvcc"}, "triton_unmasked_store.py": {"triton"}}


def test_every_example_has_an_expectation():
    found = {os.path.basename(p) for p in glob.glob(os.path.join(EXAMPLES, "*.py"))}
    assert found == set(EXPECTED) and len(found) >= 6


def _marks(name):
    marks = []
    if "nvcc" in USES[name]:
        marks.append(needs_nvcc)
    if "triton" in USES[name]:
        marks.append(needs_triton)
    return marks


@pytest.mark.parametrize("example", [pytest.param(n, marks=_marks(n)) for n in sorted(EXPECTED)])
def test_example(example):
    instances = load_instances(os.path.join(EXAMPLES, example))
    got = []
    for inst in instances:
        r = racer.check(inst, time_limit=30)
        defects = sorted({(d["program"], d["kind"]) for d in r.defects})
        got.append((r.name, r.verdict, defects))
        assert r.seconds < 5, f"{r.name} took {r.seconds:.1f} s"
        if r.verdict == "inequivalent":
            assert r.witness_values and r.counterexample["cell"], r.report()
    assert got == EXPECTED[example], "\n".join(racer.check(i).report() for i in instances)
