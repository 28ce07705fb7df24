"""python3 -m racer.cli describe FILE.py --out DESCRIPTIONS.json: the instances a Python file
defines, described as JSON for `racer check FILE.py`, which checks and reports them itself (the
C++ CLI runs this; checking happens there, in the same process as for TOML, so this side loads
only the front end: PTX entries, CUDA and Triton lowering).

DESCRIPTIONS.json is a list in file order, one entry an instance: {"instance": description} (the
format of src/instance/json.hpp), or {"error": message, "code": exit code} for one that could not
be built. Exit code 0 when the list is written; else the file itself is at fault (it cannot be
read, raises while loading, or defines no instance), said on stderr: 3, or a RacerError's code."""
import argparse
import importlib.util
import json
import os
import sys
from .errors import RacerError
from .instance import Case, Instance, from_class
from .user_code import user_traceback


def load_instances(path):
    """The racer.Instance subclasses and racer.case(...) values the file defines, in file order."""
    path = os.path.abspath(path)
    name = "racer_user_" + "".join(c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))
    sys.modules[name] = module
    spec.loader.exec_module(module)
    found = []
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Instance) and value is not Instance \
                and value.__module__ == name and not value.__dict__.get("abstract", False):
            found.append(value)
        elif isinstance(value, Case):
            found.append(value)
    return found


def describe(found, file):
    """One entry a found instance: its description, or why it could not be built."""
    entries = []
    for item in found:
        try:
            case = item if isinstance(item, Case) else from_class(item)
            entries.append({"instance": case.description()})
        except RacerError as e:
            entries.append({"error": str(e), "code": e.code})
        except Exception as e:  # the user's setup or program raised: show their frames, as Python does
            sys.stderr.write(user_traceback(e))
            entries.append({"error": f"{file}: {getattr(item, '__name__', 'an instance')} raised an exception "
                                     "while it was built", "code": 3})
    return entries


def run_describe(args):
    if not os.path.isfile(args.file):
        print(f"{args.file}: cannot read the instance file", file=sys.stderr)
        return 3
    try:
        found = load_instances(args.file)
    except RacerError as e:
        print(e, file=sys.stderr)
        return e.code
    except Exception as e:  # the user's file itself fails: show their frames, as Python does
        sys.stderr.write(user_traceback(e))
        print(f"{args.file}: the file raised an exception while loading", file=sys.stderr)
        return 3
    if not found:
        print(f"{args.file}: defines no racer.Instance subclass and no racer.case(...)", file=sys.stderr)
        return 3
    entries = describe(found, args.file)
    sys.stdout.flush()
    with open(args.out, "w") as f:
        json.dump(entries, f)
    return 0


def _non_negative(kind):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not v >= 0 or v == float("inf"):
            raise argparse.ArgumentTypeError(f"'{text}' is not a finite number >= 0")
        return v
    return parse


def main(argv=None):
    p = argparse.ArgumentParser(prog="racer", description="Racer's Python side: instances described for `racer check`")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("describe", help="describe every instance a Python file defines, as JSON")
    d.add_argument("file")
    d.add_argument("--out", required=True, help="where to write the descriptions")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:  # argparse's 2 for bad usage would read as "unknown"
        return 0 if e.code == 0 else 3
    try:
        return run_describe(args)
    except RacerError as e:
        print(e, file=sys.stderr)
        return e.code


if __name__ == "__main__":
    sys.exit(main())
