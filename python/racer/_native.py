"""Finding the compiled modules, built by CMake into build/python/racer: racer._frontend (PTX
entries, the PTX cache, CUDA lowering: what describing an instance needs) and racer._core (the
checker: check, explain, replay). `racer check FILE.py` loads only the first in Python."""
import importlib
import os

_loaded = {}


def _candidates():
    if os.environ.get("RACER_CORE_DIR"):
        yield os.environ["RACER_CORE_DIR"]
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.environ.get("RACER_BUILD_DIR", "build")
    yield os.path.join(build if os.path.isabs(build) else os.path.join(repo, build), "python", "racer")


def extend_package_path(package_path):
    """Lets `from racer import _core` find the module in the build directory."""
    for d in _candidates():
        if os.path.isdir(d) and d not in package_path:
            package_path.append(d)


def _module(name):
    if name not in _loaded:
        try:
            _loaded[name] = importlib.import_module(f"racer.{name}")
        except ImportError as e:
            from .errors import RacerError
            raise RacerError(f"racer's compiled core (racer.{name}) is not built or does not load: "
                             f"{e}; run `bash scripts/build.sh` (or set RACER_CORE_DIR)", code=4) from None
    return _loaded[name]


def core():
    """The checker: check, explain, replay."""
    return _module("_core")


def frontend():
    """The front end: ptx_entries, store_ptx, default_cache_dir, content_hash, compile_cuda, find_nvcc."""
    return _module("_frontend")


def call(fn, *args, loc=None, **kwargs):
    """Calls into the core, turning its errors into RacerError (with the user's line when given)."""
    from .errors import RacerError, where
    try:
        return fn(*args, **kwargs)
    except RacerError:
        raise
    except ValueError as e:
        code = e.args[1] if len(e.args) > 1 and isinstance(e.args[1], int) else 3
        msg = str(e.args[0]) if e.args else str(e)
        raise RacerError((where(loc) if loc else "") + msg, code=code) from None
