"""Errors of the Python API: each names the user's file and line and what is wrong."""
import inspect
import os

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class RacerError(ValueError):
    """Bad input to Racer (exit code 3), or an internal error (exit code 4)."""

    def __init__(self, message, code=3):
        super().__init__(message)
        self.code = code


def user_location():
    """(file, line) of the innermost caller outside the racer package, or (None, None)."""
    frame = inspect.currentframe()
    try:
        while frame is not None:
            name = frame.f_code.co_filename
            path = name if name.startswith("<") else os.path.abspath(name)
            if not path.startswith(_PACKAGE_DIR + os.sep) and not name.startswith("<frozen"):
                return path, frame.f_lineno
            frame = frame.f_back
        return None, None
    finally:
        del frame


def where(loc):
    file, line = loc
    if not file:
        return ""
    return f"{file}:{line}: " if line else f"{file}: "


def fail(message, loc=None):
    """Raises RacerError located at `loc` (default: the user's calling line)."""
    raise RacerError(where(loc or user_location()) + message)


def suggestion(word, candidates):
    import difflib
    close = difflib.get_close_matches(str(word), list(candidates), n=1, cutoff=0.6)
    if close:
        return f"; did you mean '{close[0]}'?"
    return "; expected one of " + ", ".join(candidates)
