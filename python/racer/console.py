"""The `racer` command of an installed package (console script, `python -m racer`): runs the
CLI binary the wheel carries in racer/bin, with this package and its compiled core on the path
of the Python processes it starts and this interpreter as theirs."""
import os
import sys

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def binary():
    """The racer CLI: the wheel's, else $RACER_BIN, else the source tree's build/racer."""
    repo = os.path.dirname(os.path.dirname(_PACKAGE))
    build = os.environ.get("RACER_BUILD_DIR", "build")
    for path in (os.path.join(_PACKAGE, "bin", "racer"), os.environ.get("RACER_BIN", ""),
                 os.path.join(build if os.path.isabs(build) else os.path.join(repo, build), "racer")):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def main():
    exe = binary()
    if exe is None:
        print("racer: the racer CLI binary is not built or installed: run `pip install .` in the source tree "
              "(or `bash scripts/build.sh`, or set RACER_BIN)", file=sys.stderr)
        return 4
    env = dict(os.environ)
    if os.path.dirname(exe) == os.path.join(_PACKAGE, "bin"):  # installed: this package, not the source tree's
        env.setdefault("RACER_PYTHON_DIR", os.path.dirname(_PACKAGE))
        env.setdefault("RACER_CORE_DIR", _PACKAGE)
    env.setdefault("RACER_PYTHON", sys.executable)
    sys.stdout.flush()
    os.execve(exe, [exe, *sys.argv[1:]], env)


if __name__ == "__main__":
    sys.exit(main())
