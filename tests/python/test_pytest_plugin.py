"""racer.assert_equivalent and the pytest plugin (pytest --racer DIR), with and without xdist."""
import os
import re
import subprocess
import sys
import textwrap

import pytest

import racer
from conftest import EXAMPLES, ROOT
from instance_files import CASES, copy_case

VEC_ADD = os.path.join(EXAMPLES, "vec_add_check.toml")


def test_assert_equivalent_passes_and_returns_the_result():
    r = racer.assert_equivalent(VEC_ADD)
    assert r.verdict == "equivalent" and r.exit_code == 0


def test_assert_equivalent_fails_with_the_report_witness_and_defect_source_lines():
    with pytest.raises(AssertionError) as e:
        racer.assert_equivalent(os.path.join(CASES, "t_mem_07_overread_last.toml"))
    msg = str(e.value)
    assert "verdict inequivalent, exit code 1" in msg
    assert "INEQUIVALENT" in msg and "witness: the outputs differ at" in msg
    assert re.search(r"a: oob_read at .*\n\s+first at launch 0, CTA .*PTX line \d+ \(\S+\.cu:\d+:\d+\)", msg), msg


def test_assert_equivalent_on_a_python_instance(tmp_path):
    r = racer.assert_equivalent(os.path.join(EXAMPLES, "vec_add_ptx.py"))
    assert r.verdict == "equivalent"


def test_assert_equivalent_names_a_directory_given_for_a_file(tmp_path):
    with pytest.raises(racer.RacerError, match="is a directory"):
        racer.assert_equivalent(str(tmp_path))


PY_INSTANCES = textwrap.dedent(f'''
    import racer
    PTX = {os.path.join(EXAMPLES, "vec_add.ptx")!r}

    class VecAddSame(racer.Instance):
        def setup(self):
            self.x = racer.input((256,), "f32")
            self.y = racer.input((256,), "f32")
            self.out = racer.empty((256,), "f32")
        def program_a(self):
            racer.launch(racer.ptx(PTX, "vec_add"), grid=2, block=128,
                         args=[racer.read(self.x), racer.read(self.y), racer.write(self.out), 256])
            return {{"out": self.out}}
        def program_b(self):
            racer.launch(racer.ptx(PTX, "vec_add_grid_stride"), grid=1, block=64,
                         args=[racer.read(self.x), racer.read(self.y), racer.write(self.out), 256])
            return {{"out": self.out}}

    class VecAddSwapped(VecAddSame):
        expect = "inequivalent"
        def program_b(self):
            racer.launch(racer.ptx(PTX, "vec_add_grid_stride"), grid=1, block=64,
                         args=[racer.read(self.y), racer.read(self.y), racer.write(self.out), 256])
            return {{"out": self.out}}
''')


@pytest.fixture(scope="module")
def instance_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("instances")
    copy_case("t_flt_02_sub_swapped", d)                                       # inequivalent, as expected
    copy_case("t_mem_07_overread_last", d)                                     # inequivalent + oob_read, as expected
    copy_case("t_flt_02_sub_swapped", d, verdict="equivalent", new_name="t_flt_02_expected_equal")  # fails
    copy_case("t_sync_02_reverse_missing_barrier", d, verdict="equivalent", diagnostics=[],
              new_name="t_sync_02_unknown")                                    # Unknown: skipped
    (d / "vec_add_instances.py").write_text(PY_INSTANCES)
    (d / "helpers.py").write_text("raise SystemExit('a file that does not import racer is not imported')\n")
    sub = d / "kernels"
    sub.mkdir()
    copy_case("t_flt_02_sub_swapped", sub, verdict="equivalent")               # in a subfolder: not collected
    return d


def run_pytest(*args, cwd=ROOT):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "racer.pytest_plugin", "-p", "no:cacheprovider",
                           "-rs", *args], capture_output=True, text=True, cwd=cwd, env=env)


def summary(out):
    counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) (passed|failed|skipped|error)", out.splitlines()[-1]))
    return counts


def test_plugin_collects_the_directory_and_compares_expectations(instance_dir):
    p = run_pytest("--racer", str(instance_dir), "-v")
    out = p.stdout + p.stderr
    assert summary(p.stdout) == {"passed": 4, "failed": 1, "skipped": 1}, out
    assert p.returncode == 1
    for item in ("t_flt_02_sub_swapped.toml::t_flt_02_sub_swapped PASSED", "t_mem_07_overread_last.toml::t_mem_07_overread_last PASSED",
                 "vec_add_instances.py::VecAddSame PASSED", "vec_add_instances.py::VecAddSwapped PASSED",
                 "t_flt_02_expected_equal.toml::t_flt_02_expected_equal FAILED", "t_sync_02_unknown.toml::t_sync_02_unknown SKIPPED"):
        assert item in out, out
    # the failure shows what differs and the report with its witness
    assert "expected equivalent, got inequivalent" in out and "witness: the outputs differ at" in out
    # the skip says why
    assert re.search(r"SKIPPED \[1\] .*Unknown: .*--racer-strict", out), out
    # neither subfolders nor the invocation directory are collected (no item lies below kernels/)
    assert not re.search(r"kernels/\S*::", out) and "test_api" not in out, out


def test_plugin_strict_fails_unknown(instance_dir):
    p = run_pytest("--racer", str(instance_dir), "--racer-strict")
    assert summary(p.stdout) == {"passed": 4, "failed": 2}, p.stdout + p.stderr


def test_plugin_under_xdist_gives_the_same_outcome(instance_dir):
    p = run_pytest("--racer", str(instance_dir), "-n", "2")
    assert "created: 2/2 workers" in p.stdout, p.stdout + p.stderr
    assert summary(p.stdout) == {"passed": 4, "failed": 1, "skipped": 1}, p.stdout + p.stderr


def test_plugin_rejects_a_racer_path_that_is_not_a_directory(tmp_path):
    p = run_pytest("--racer", str(tmp_path / "missing"))
    assert p.returncode == 4 and "not a directory of checking instances" in p.stderr, p.stderr


def test_plugin_is_inert_without_the_option(tmp_path):
    (tmp_path / "stray.toml").write_text("not an instance\n")
    (tmp_path / "test_plain.py").write_text("def test_one():\n    assert True\n")
    p = run_pytest(str(tmp_path))
    assert summary(p.stdout) == {"passed": 1}, p.stdout + p.stderr


def test_plugin_sets_the_inputs_of_the_float_hazard_search(tmp_path):
    # A failing item shows the report, whose hazard summary says how many inputs ran.
    copy_case("t_flt_02_sub_swapped", tmp_path, verdict="equivalent", new_name="t_flt_02_expected_equal")
    five = run_pytest("--racer", str(tmp_path), "--racer-hazard-points", "5")
    assert "float hazards: 0 found at 5 inputs" in five.stdout, five.stdout + five.stderr
    off = run_pytest("--racer", str(tmp_path), "--racer-hazard-points", "0")
    assert "float hazard search off" in off.stdout, off.stdout + off.stderr
