"""The package `pip install .` installed (scripts/install-package.sh, run by setup.sh and
test.sh): the racer command, python -m racer and the pytest plugin's entry point, from a clean
environment (no PYTHONPATH, no source tree on the path). Skipped when the package is not installed."""
import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES

CLEAN = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RACER_CORE_DIR", "RACER_BIN", "RACER_PYTHON_DIR")}


def clean_python(*args, cwd):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=CLEAN)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("elsewhere")
    p = clean_python("-c", "import os, racer; print(os.path.dirname(racer.__file__))", cwd=cwd)
    where = p.stdout.strip()
    if p.returncode != 0 or not os.path.isfile(os.path.join(where, "bin", "racer")):  # a source tree's, not a wheel's
        pytest.skip("the racer package is not pip-installed for this interpreter (scripts/install-package.sh)")
    return cwd, where


def test_installed_package_carries_its_core_and_cli(installed):
    cwd, where = installed
    p = clean_python("-c", "import racer._core as c; print(c.__file__)", cwd=cwd)
    assert p.returncode == 0 and os.path.dirname(p.stdout.strip()) == where, p.stderr


def test_python_m_racer_checks_an_example(installed):
    cwd, _ = installed
    p = clean_python("-m", "racer", "--version", cwd=cwd)
    assert p.returncode == 0 and p.stdout.startswith("racer "), p.stderr
    for example in ("vec_add_check.toml", "vec_add_ptx.py"):
        p = clean_python("-m", "racer", "check", os.path.join(EXAMPLES, example), cwd=cwd)
        assert p.returncode == 0 and ": EQUIVALENT" in p.stdout, p.stdout + p.stderr


def test_pytest_plugin_loads_through_its_entry_point(installed, tmp_path):
    cwd, _ = installed
    case = tmp_path / "cases"
    case.mkdir()
    from instance_files import copy_case
    copy_case("t_flt_02_sub_swapped", case)
    p = clean_python("-m", "pytest", "-p", "no:cacheprovider", "--racer", str(case), "-q", cwd=cwd)
    assert p.returncode == 0 and "1 passed" in p.stdout, p.stdout + p.stderr
