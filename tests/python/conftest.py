"""Shared set-up of the Python API tests: the package of this tree, and skips that say why."""
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "python") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "python"))

import racer  # noqa: E402
from racer import _native  # noqa: E402

EXAMPLES = os.path.join(ROOT, "examples")
CORPUS = os.environ.get("RACER_CORPUS_DIR", os.path.join(ROOT, "..", "shared", "corpus"))
RACER_BIN = os.environ.get("RACER_BIN", os.path.join(ROOT, "build", "racer"))


def _has_triton():
    try:
        import triton  # noqa: F401
        return True
    except Exception:
        return False


needs_nvcc = pytest.mark.skipif(not _native.frontend().find_nvcc(), reason="needs nvcc (the CUDA toolkit) to lower CUDA C++")
needs_triton = pytest.mark.skipif(not _has_triton(), reason="needs the triton package (scripts/install-deps.sh)")
needs_racer_bin = pytest.mark.skipif(not os.path.exists(RACER_BIN), reason=f"needs the racer CLI at {RACER_BIN}")


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("RACER_CACHE_DIR", str(d))
    return d


def line_of(marker, path):
    """The line number of the first line containing marker in path."""
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if marker in line:
                return i
    raise AssertionError(f"{marker} not in {path}")


def raises_at(fn, *needles):
    """Calls fn, expecting a RacerError whose message holds every needle; returns the message."""
    with pytest.raises(racer.RacerError) as e:
        fn()
    msg = str(e.value)
    for n in needles:
        assert n in msg, f"{n!r} not in {msg!r}"
    return msg
