"""Thread-block clusters from the Python API: the cluster shape of a launch, and its errors."""
import os

import racer
from conftest import raises_at

THIS = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(THIS)))
CASES_PTX = os.path.join(ROOT, "tests", "cases", "ptx", "cluster.sm90a.ptx")
VECTORS_PTX = os.path.join(ROOT, "tests", "ptx", "cluster", "cluster.sm90a.ptx")


def _row_sum(entry, cluster=(4, 1, 1)):
    x, out = racer.input((2, 128), "f32"), racer.empty((2, 32), "f32")
    a = racer.launch(racer.ptx(CASES_PTX, entry), grid=(4, 2), block=32, cluster=cluster,
                     args=[racer.read(x), racer.write(out), 128])
    b = racer.launch(racer.ptx(CASES_PTX, "row_sum_plain"), grid=2, block=32, args=[racer.read(x), racer.write(out), 128])
    return racer.case(tensors={"x": x, "out": out}, program_a=[a], program_b=[b], outputs=["out"], name=entry)


def test_a_cluster_reduction_through_distributed_shared_memory_is_equivalent():
    r = racer.check(_row_sum("cluster_row_sum_ok"))
    assert r.verdict == "equivalent", r.report()
    assert r.defects == []


def test_a_missing_cluster_barrier_is_a_race():
    r = racer.check(_row_sum("cluster_row_sum_no_barrier"))
    assert r.verdict == "unknown" and "a data race makes the outputs depend on the schedule" in r.report()
    assert {(d["program"], d["kind"]) for d in r.defects} == {("a", "race")}, r.report()


def test_the_launch_describes_its_cluster():
    case = _row_sum("cluster_row_sum_ok")
    assert case.description()["a"][0]["cluster"] == [4, 1, 1]
    assert "cluster" not in case.description()["b"][0]


def test_cluster_shapes_cuda_would_refuse_are_errors():
    k = racer.ptx(CASES_PTX, "cluster_row_sum_ok")
    x, out = racer.input((2, 128), "f32"), racer.empty((2, 32), "f32")
    args = [racer.read(x), racer.write(out), 128]
    raises_at(lambda: racer.launch(k, grid=(4, 2), block=32, cluster=(3, 1, 1), args=args),
              "dimension x 4 is not a multiple of 3")
    raises_at(lambda: racer.launch(k, grid=(16, 2), block=32, cluster=(16, 1, 1), args=args),
              "cluster (16, 1, 1): dimension x must be an integer from 1 to 8")
    raises_at(lambda: racer.launch(k, grid=(8, 4, 2), block=32, cluster=(4, 2, 2), args=args),
              "cluster (4, 2, 2) has 16 CTAs; the portable maximum is 8")


def test_a_launch_contradicting_reqnctapercluster_is_an_error_at_its_line():
    k = racer.ptx(VECTORS_PTX, "cluster_sregs_req")
    i, out = racer.input((4,), "i32"), racer.empty((256,), "i32")
    a = [racer.launch(k, grid=4, block=32, cluster=(4, 1, 1), args=[racer.read(i), racer.write(out)])]
    raises_at(lambda: racer.check(racer.case(tensors={"i": i, "out": out}, program_a=a, program_b=a, outputs=["out"],
                                             name="req")),
              "entry 'cluster_sregs_req' requires clusters of (2,1,1) CTAs (.reqnctapercluster), the launch declares (4,1,1)",
              THIS + ":")
