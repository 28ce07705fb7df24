"""The reference tracer (racer.reference): what a NumPy function becomes, what it refuses and
where it says so, the API's ways to give a reference, and TOML instances naming one."""
import json
import os
import subprocess
from fractions import Fraction

import numpy as np
import pytest

import racer
import racer.reference as R
from conftest import RACER_BIN, ROOT, line_of, needs_racer_bin
from racer.reference import trace

HERE = os.path.abspath(__file__)
CASES = os.path.join(ROOT, "tests", "cases", "reference")


def tensors(**shapes):
    out = [{"name": n, "shape": list(s), "dtype": "f32", "init": "input"} for n, s in shapes.items() if n != "y"]
    out.append({"name": "y", "shape": list(shapes["y"]), "dtype": "f32", "init": "empty"})
    return out


def node(graph, i):
    return graph["nodes"][i]


def test_elementwise_ops_become_nodes_over_input_cells():
    g = trace(lambda x: np.exp(x) * 2 + 1, tensors(x=(3,), y=(3,)), ["y"])
    root = node(g, g["outputs"]["y"][1])
    assert root[0] == "add"
    ops = {n[0] for n in g["nodes"]}
    assert {"in", "exp", "mul", "add", "c"} <= ops
    assert ["in", "x", 1] in g["nodes"]


def test_constants_are_exact_python_floats_as_written_numpy_floats_as_held():
    g = trace(lambda x: x * 0.1 + np.float32(0.1), tensors(x=(1,), y=(1,)), ["y"])
    consts = {n[1] for n in g["nodes"] if n[0] == "c"}
    assert "1/10" in consts
    q = Fraction(float(np.float32(0.1)))
    assert f"{q.numerator}/{q.denominator}" in consts


def test_equal_subexpressions_are_one_node():
    g = trace(lambda x: np.exp(x) / np.sum(np.exp(x)), tensors(x=(4,), y=(4,)), ["y"])
    assert sum(1 for n in g["nodes"] if n[0] == "exp") == 4


def test_reductions_matmul_and_einsum_agree():
    a = trace(lambda x, w: x @ w, tensors(x=(2, 3), w=(3, 4), y=(2, 4)), ["y"])
    b = trace(lambda x, w: np.einsum("ik,kj->ij", x, w), tensors(x=(2, 3), w=(3, 4), y=(2, 4)), ["y"])
    assert a["nodes"] == b["nodes"] and a["outputs"] == b["outputs"]


def test_argmax_is_a_chain_of_selects_and_cumsum_chains_adds():
    g = trace(lambda x: np.argmax(x, axis=1) + np.cumsum(x, axis=1)[:, -1], tensors(x=(2, 5), y=(2,)), ["y"])
    assert any(n[0] == "select" for n in g["nodes"])
    assert any(n[0] == "lt" for n in g["nodes"])


def test_where_on_a_symbolic_condition_is_a_select_and_on_a_known_one_picks():
    g = trace(lambda x: np.where(x > 0, x, 0.0), tensors(x=(2,), y=(2,)), ["y"])
    assert node(g, g["outputs"]["y"][0])[0] == "select"
    g = trace(lambda x: np.where(np.array([True, False]), x, 0.0), tensors(x=(2,), y=(2,)), ["y"])
    assert node(g, g["outputs"]["y"][0]) == ["in", "x", 0]
    assert node(g, g["outputs"]["y"][1]) == ["c", "0"]


def test_known_integer_tensors_arrive_as_numpy_arrays_and_gather():
    t = [{"name": "table", "shape": [4, 2], "dtype": "f32", "init": "input"},
         {"name": "idx", "shape": [3], "dtype": "i32", "init": {"values": [3, 0, 3]}},
         {"name": "y", "shape": [3, 2], "dtype": "f32", "init": "empty"}]
    seen = {}

    def ref(table, idx):
        seen["idx"] = idx
        return table[idx]
    g = trace(ref, t, ["y"])
    assert isinstance(seen["idx"], np.ndarray) and list(seen["idx"]) == [3, 0, 3]
    assert [node(g, i) for i in g["outputs"]["y"][:2]] == [["in", "table", 6], ["in", "table", 7]]


def test_output_lines_point_at_the_users_line():
    def ref(x):
        y = np.exp(x)
        return y + 1  # the output's line
    g = trace(ref, tensors(x=(2,), y=(2,)), ["y"])
    line = g["lines"][g["output_lines"]["y"][0]]
    assert line == f"{HERE}:{line_of('# the output' + chr(39) + 's line', HERE)}"


def refusal(fn, t=None, outputs=("y",)):
    with pytest.raises(racer.RacerError) as e:
        trace(fn, t or tensors(x=(3,), y=(3,)), list(outputs))
    return str(e.value)


@pytest.mark.parametrize("fn,marker,words", [
    (lambda x: np.sort(x), "np.sort", "np.sort is not supported"),
    (lambda x: x if x[0] > 0 else -x, "truth test", "a Python truth test"),
    (lambda x: x ** x, "symbolic exponent", "symbolic exponent"),
    (lambda x: x ** Fraction(1, 3), "exponents have an exact", "x ** 1/3"),
    (lambda x: np.floor(x), "np.floor", "np.floor is not supported"),
])
def test_unsupported_operations_are_refused_by_name_at_the_users_line(fn, marker, words):
    msg = refusal(fn)
    assert words in msg
    assert msg.startswith(HERE + ":"), msg


def test_indexing_by_symbolic_data_is_refused_with_what_to_do():
    t = [{"name": "x", "shape": [4], "dtype": "f32", "init": "input"},
         {"name": "i", "shape": [2], "dtype": "i32", "init": "input"},
         {"name": "y", "shape": [2], "dtype": "f32", "init": "empty"}]
    msg = refusal(lambda x, i: x[i], t)
    assert "symbolic" in msg and "racer.values" in msg and msg.startswith(HERE + ":")


def test_wrong_outputs_and_parameters_are_located_errors():
    assert "of shape (3, 1)" in refusal(lambda x: x[:, None])
    assert "names no tensor" in refusal(lambda z: z)
    assert "which is empty" in refusal(lambda y: y)
    assert "'z', which is not an output" in refusal(lambda x: {"z": x})


def test_helpers_also_run_on_plain_numpy():
    x = np.linspace(-3, 3, 7)
    assert np.allclose(R.softmax(x).sum(), 1)
    assert np.allclose(np.exp(R.log_softmax(x)), R.softmax(x))
    assert np.allclose(R.gelu(np.array([1.0])), [0.8413447460685429], rtol=1e-6)
    assert np.allclose(R.gelu(np.array([1.0]), approximate="tanh"), [0.8411920], rtol=1e-5)


# ---- the API's ways to give a reference, and the core's view of it ----------------------------

def vec_add():
    return racer.ptx(os.path.join(ROOT, "examples", "vec_add.ptx"), "vec_add")


def add_tensors():
    return {"x": racer.input(8, "f32"), "y_in": racer.input(8, "f32"), "out": racer.empty(8, "f32")}


def add_launch(t):
    return racer.launch(vec_add(), grid=1, block=8, args=[racer.read(t["x"]), racer.read(t["y_in"]), racer.write(t["out"]), 8])


def test_check_with_reference_keyword_and_instance_with_program_b_over_arrays():
    t = add_tensors()
    r = racer.check(tensors=t, program_a=[add_launch(t)], reference=lambda x, y_in: x + y_in, outputs=["out"])
    assert r.verdict == "equivalent", r.report()

    class VecAdd(racer.Instance):
        def setup(self):
            for k, v in add_tensors().items():
                setattr(self, k, v)

        def program_a(self):
            racer.launch(vec_add(), grid=1, block=8, args=[racer.read(self.x), racer.read(self.y_in), racer.write(self.out), 8])
            return {"out": self.out}

        def program_b(self, x, y_in):
            return x - y_in  # a wrong reference

    r = racer.check(VecAdd)
    assert r.verdict == "inequivalent" and r.counterexample["replay"]["kind"] == "manifest", r.report()
    assert f"{HERE}:{line_of('# a wrong reference', HERE)}" in r.report()


def test_witness_of_a_reference_instance_replays_on_the_cpu(tmp_path):
    t = add_tensors()
    r = racer.check(tensors=t, program_a=[add_launch(t)], reference=lambda x, y_in: x * y_in, outputs=["out"])
    assert r.verdict == "inequivalent", r.report()
    w = json.load(open(r.save_witness(str(tmp_path / "w.json"))))
    assert "reference" in w["replay"]  # the witness file carries the traced reference
    rep = r.replay(str(tmp_path / "w.json"))
    assert rep["refusal"] == "" and rep["differing_count"] > 0


# ---- TOML instances naming a reference ----------------------------------------------------------

@needs_racer_bin
def test_toml_instances_naming_references_meet_their_expectations():
    p = subprocess.run([RACER_BIN, "corpus", CASES, "--time-limit", "300"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "3 passed, 0 failed" in p.stdout


@needs_racer_bin
def test_a_toml_reference_that_uses_an_unsupported_operation_is_bad_input(tmp_path):
    src = open(os.path.join(CASES, "gelu_erf_cuda_vs_numpy.toml")).read()
    src = src.replace('"refs.py:gelu"', '"refs.py:uses_sort"').replace("../ptx/", os.path.join(ROOT, "tests", "cases", "ptx") + "/")
    case = tmp_path / "bad.toml"
    case.write_text(src)
    (tmp_path / "refs.py").write_text(open(os.path.join(CASES, "refs.py")).read())
    p = subprocess.run([RACER_BIN, "check", str(case)], capture_output=True, text=True)
    assert p.returncode == 3, p.stdout + p.stderr
    assert "np.sort is not supported" in p.stderr and f"{tmp_path / 'refs.py'}:" in p.stderr, p.stderr
    assert "bad.toml:" in p.stderr  # located at the reference line of the instance


def test_gpu_replay_evaluates_a_reference_side_on_the_host_like_the_cpu_replay(tmp_path):
    from racer import gpu_replay
    t = {"x": racer.input(8, "f32"), "out": racer.empty(8, "f32")}
    launch = racer.launch(racer.ptx(os.path.join(ROOT, "tests", "cases", "ptx", "math.sm90.ptx"), "cu_gelu_erf"),
                          grid=1, block=8, args=[racer.read(t["x"]), racer.write(t["out"]), 8])
    r = racer.check(tensors=t, program_a=[launch], reference=lambda x: R.gelu(x, approximate="tanh"), outputs=["out"])
    assert r.verdict == "inequivalent", r.report()
    w = json.load(open(r.save_witness(str(tmp_path / "w.json"))))
    inst = w["replay"]
    host = gpu_replay.initial_host_tensors(inst, w["values"])
    out = gpu_replay.evaluate_reference(inst, host)[1]
    cpu = r.replay(str(tmp_path / "w.json"))
    cell = int(w["cell"].split("[")[1].rstrip("]"))
    assert cpu["at_witness"][2] == pytest.approx(float(out[cell]), rel=1e-6)
