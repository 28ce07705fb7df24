"""racer check FILE.py: the same report and exit codes as for TOML."""
import json
import os
import re
import subprocess
import textwrap

import pytest

from conftest import EXAMPLES, RACER_BIN, ROOT, needs_racer_bin

pytestmark = needs_racer_bin

VEC_ADD_TOML = os.path.join(EXAMPLES, "vec_add_check.toml")


def racer_cli(*args, cwd=ROOT):
    return subprocess.run([RACER_BIN, *args], capture_output=True, text=True, cwd=cwd)


def without_timing(text):
    return re.sub(r"\(\d+\.\d+ s, \d+ expression nodes\)", "(T)", text)


MIRROR = textwrap.dedent(f'''
    import racer
    PTX = {os.path.join(EXAMPLES, "vec_add.ptx")!r}

    class VecAddOnePerThreadVsGridStride(racer.Instance):
        name = "vec_add_one_per_thread_vs_grid_stride"

        def setup(self):
            self.x = racer.input((1000,), "f32")
            self.y = racer.input((1000,), "f32")
            self.out = racer.empty((1000,), "f32")

        def program_a(self):
            racer.launch(racer.ptx(PTX, "vec_add"), grid=8, block=128,
                         args=[racer.read(self.x), racer.read(self.y), racer.write(self.out), 1000])
            return {{"out": self.out}}

        def program_b(self):
            racer.launch(racer.ptx(PTX, "vec_add_grid_stride"), grid=2, block=256,
                         args=[racer.read(self.x), racer.read(self.y), racer.write(self.out), 1000])
            return {{"out": self.out}}
''')


def test_python_instance_reports_exactly_as_toml(tmp_path):
    py = tmp_path / "vec_add.py"
    py.write_text(MIRROR)
    t, p = racer_cli("check", VEC_ADD_TOML), racer_cli("check", str(py))
    assert (t.returncode, p.returncode) == (0, 0), p.stderr
    assert without_timing(p.stdout) == without_timing(t.stdout)
    tj, pj = json.loads(racer_cli("check", VEC_ADD_TOML, "--json").stdout), json.loads(racer_cli("check", str(py), "--json").stdout)
    for j in (tj, pj):
        for k in ("seconds", "exec_seconds", "self_check_seconds", "self_check_emulation_seconds", "expression_nodes"):
            j.pop(k)
        j["float_hazards"].pop("seconds")
    assert tj == pj


def test_exit_codes_and_witness_for_several_instances(tmp_path):
    w = tmp_path / "w.json"
    p = racer_cli("check", os.path.join(EXAMPLES, "split_k_pipeline.py"), "--witness", str(w))
    assert p.returncode == 1, p.stdout + p.stderr
    assert "split_k_ceil_chunk: EQUIVALENT" in p.stdout and "split_k_truncated_chunk: INEQUIVALENT" in p.stdout
    assert json.load(open(w))["cell"].startswith("C[")
    r = racer_cli("replay", str(w))
    assert r.returncode == 1 and "DIFFER" in r.stdout, r.stdout + r.stderr


def test_bad_python_files_exit_3(tmp_path):
    none = tmp_path / "nothing.py"
    none.write_text("import racer\nX = 1\n")
    p = racer_cli("check", str(none))
    assert p.returncode == 3 and "defines no racer.Instance subclass" in p.stderr
    broken = tmp_path / "broken.py"
    broken.write_text("import racer\nx = racer.input((4, 0))\n")
    p = racer_cli("check", str(broken))
    assert p.returncode == 3 and f"{broken}:2: shape (4, 0)" in p.stderr, p.stderr
    crash = tmp_path / "crash.py"
    crash.write_text("raise RuntimeError('boom')\n")
    p = racer_cli("check", str(crash))
    assert p.returncode == 3 and "RuntimeError: boom" in p.stderr
    p = racer_cli("check", str(tmp_path / "missing.py"))
    assert p.returncode == 3 and "cannot read" in p.stderr


def test_an_instance_that_cannot_be_built_is_reported_beside_the_others(tmp_path):
    # The order of the most severe code (4, 3, 1, 2, 5, 0) is tested in tests/unit/support.
    two = tmp_path / "two.py"
    two.write_text(MIRROR + textwrap.dedent('''
        class Broken(racer.Instance):
            def setup(self):
                self.x = racer.input((4, 0), "f32")
    '''))
    p = racer_cli("check", str(two))
    assert p.returncode == 3, p.stdout + p.stderr
    assert "vec_add_one_per_thread_vs_grid_stride: EQUIVALENT" in p.stdout
    assert f"{two}:" in p.stderr and "shape (4, 0)" in p.stderr
    j = json.loads(racer_cli("check", str(two), "--json").stdout)
    assert isinstance(j, list) and [r["name"] for r in j] == ["vec_add_one_per_thread_vs_grid_stride"]


def test_python_side_loads_only_the_front_end(tmp_path):
    # The CLI checks what the Python side describes: a package that finds racer._frontend but no
    # racer._core still gives the full report.
    py = tmp_path / "vec_add.py"
    py.write_text(MIRROR)
    core_dir = os.environ.get("RACER_CORE_DIR", os.path.join(ROOT, "build", "python", "racer"))
    only = tmp_path / "only_frontend"
    only.mkdir()
    for f in os.listdir(core_dir):
        if f.startswith("_frontend"):
            os.symlink(os.path.join(core_dir, f), only / f)
    env = dict(os.environ, RACER_CORE_DIR=str(only), RACER_BUILD_DIR=str(tmp_path / "no_build"))
    p = subprocess.run([RACER_BIN, "check", str(py)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert p.returncode == 0 and "EQUIVALENT" in p.stdout, p.stdout + p.stderr


def test_missing_interpreter_is_bad_input(tmp_path):
    py = tmp_path / "vec_add.py"
    py.write_text(MIRROR)
    env = dict(os.environ, RACER_PYTHON=str(tmp_path / "no_python3"))
    p = subprocess.run([RACER_BIN, "check", str(py)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert p.returncode == 3 and "cannot run" in p.stderr and "RACER_PYTHON" in p.stderr, p.stderr


def test_replay_gpu_without_a_gpu_says_so(tmp_path):
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            pytest.skip("a GPU is present: the replay itself is tested in test_gpu_replay.py")
    except Exception:
        pass
    w = tmp_path / "w.json"
    racer_cli("check", os.path.join(EXAMPLES, "split_k_pipeline.py"), "--witness", str(w))
    p = racer_cli("replay", "--gpu", str(w))
    assert p.returncode == 3 and "no GPU to replay on" in p.stderr, p.stdout + p.stderr


def test_explain_takes_a_python_instance(tmp_path):
    py = tmp_path / "vec_add.py"
    py.write_text(MIRROR)
    p = racer_cli("explain", str(py), "--cell", "out[7]")
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("vec_add_one_per_thread_vs_grid_stride: out[7]")
    assert "program a: y[7] + x[7]" in p.stdout and "decided:   proved" in p.stdout
    wrong = racer_cli("explain", str(py), "--cell", "out[7]", "--instance", "nope")
    assert wrong.returncode == 3 and "defines no instance named 'nope'" in wrong.stderr
    assert "vec_add_one_per_thread_vs_grid_stride" in wrong.stderr
