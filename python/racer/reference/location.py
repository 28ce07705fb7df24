"""The user's line for a traced operation: the innermost frame outside Racer and NumPy."""
import inspect
import os

_RACER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SKIP = [_RACER_DIR + os.sep, os.path.dirname(os.path.abspath(os.__file__)) + os.sep]  # Racer, the standard library
try:
    import numpy
    _SKIP.append(os.path.dirname(os.path.abspath(numpy.__file__)) + os.sep)
except ImportError:  # pragma: no cover
    pass


def add_library_dir(path):
    """Frames under `path` are library code, never the user's line."""
    _SKIP.append(os.path.abspath(path) + os.sep)


def user_line():
    frame = inspect.currentframe()
    try:
        while frame is not None:
            name = frame.f_code.co_filename
            if not name.startswith("<"):
                path = os.path.abspath(name)
                if not any(path.startswith(s) for s in _SKIP):
                    return path, frame.f_lineno
            frame = frame.f_back
        return None, None
    finally:
        del frame
