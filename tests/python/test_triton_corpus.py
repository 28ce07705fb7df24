"""The Triton front end compiles the shared corpus' kernels.py itself, and every corpus case built
on those kernels gets the same verdict with the freshly compiled PTX as with the shipped PTX."""
import glob
import os
import re
import subprocess
import sys

import pytest

import racer
from conftest import CORPUS, RACER_BIN, needs_racer_bin, needs_triton

TRITON_DIR = os.path.join(CORPUS, "triton")
pytestmark = [needs_triton, needs_racer_bin,
              pytest.mark.skipif(not os.path.isdir(TRITON_DIR), reason=f"needs the shared corpus at {CORPUS}")]


def _manifest():
    sys.path.insert(0, TRITON_DIR)
    try:
        import compile_ptx
    finally:
        sys.path.remove(TRITON_DIR)
    return compile_ptx.MANIFEST, compile_ptx.ARCHS


@pytest.fixture(scope="module")
def fresh_ptx(tmp_path_factory):
    """<name>.sm<arch>.ptx for every kernel of the manifest, compiled by racer.triton."""
    out = tmp_path_factory.mktemp("triton_ptx")
    manifest, archs = _manifest()
    for name, fn, sig, consts, warps, stages in manifest:
        for arch in archs:
            k = racer.triton(fn, constexprs=consts, num_warps=warps, num_stages=stages, arch=f"sm_{arch}",
                             signature=sig).compile()
            os.symlink(k.ptx, out / f"{name}.sm{arch}.ptx")
    return out


def _triton_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "cases", "*.toml"))):
        if "../ptx/triton/" in open(path).read():
            cases.append(path)
    return cases


def _verdict(case):
    p = subprocess.run([RACER_BIN, "check", case, "--time-limit", "30"], capture_output=True, text=True)
    m = re.match(r"\S+: (\w+)", p.stdout)
    return (m.group(1) if m else "error: " + p.stderr.strip()[:200]), p.returncode


def test_manifest_compiles(fresh_ptx):
    manifest, archs = _manifest()
    assert len(os.listdir(fresh_ptx)) == len(manifest) * len(archs)


@pytest.mark.parametrize("case", _triton_cases(), ids=os.path.basename)
def test_same_verdict_as_shipped_ptx(case, fresh_ptx, tmp_path):
    text = open(case).read()
    rewritten = re.sub(r'"\.\./ptx/triton/([^"]+)"', lambda m: f'"{fresh_ptx / m.group(1)}"', text)
    rewritten = re.sub(r'"\.\./ptx/cuda/', f'"{CORPUS}/ptx/cuda/', rewritten)
    assert rewritten != text
    mine = tmp_path / os.path.basename(case)
    mine.write_text(rewritten)
    assert _verdict(str(mine)) == _verdict(case)


def test_there_are_triton_cases():
    assert len(_triton_cases()) >= 10
