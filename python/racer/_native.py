"""Finding the compiled core (racer._core, built by CMake into build/python/racer)."""
import importlib
import os

_core = None


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


def core():
    global _core
    if _core is None:
        try:
            _core = importlib.import_module("racer._core")
        except ImportError as e:
            from .errors import RacerError
            raise RacerError("racer's compiled core (racer._core) is not built or does not load: "
                             f"{e}; run `bash scripts/build.sh` (or set RACER_CORE_DIR)", code=4) from None
    return _core


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
