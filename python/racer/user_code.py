"""Errors raised by the user's own instance code: reported as bad input (exit code 3) with the
user's frames of the traceback, not Racer's."""
import os
import sys
import traceback

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _users(frame):
    f = frame.filename
    return not (os.path.abspath(f).startswith(_PACKAGE_DIR) or f.startswith("<frozen "))


def user_traceback(exc):
    """The traceback text of exc with Racer's and the import machinery's frames left out."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if _users(f)]
    text = "Traceback (most recent call last):\n" if frames else ""
    return text + "".join(traceback.format_list(frames)) + "".join(traceback.format_exception_only(type(exc), exc))


def report_user_exception(exc, path, when, file=None):
    """Prints the user's traceback and what Racer was doing; returns exit code 3 (bad input)."""
    file = file or sys.stderr
    file.write(user_traceback(exc))
    print(f"{path}: the instance code raised {type(exc).__name__} {when}", file=file)
    return 3
