"""python3 -m racer.cli check FILE.py: every instance a Python file defines, checked and reported
exactly as `racer check` does for TOML (the C++ CLI runs this for .py files).

Exit code: 0 all equivalent without defects, 1 an inequivalence or a defect, 2 an unknown, 3 bad
input or a refusal, 4 internal error; for several instances the most severe (4, 3, 1, 2, 0)."""
import argparse
import importlib.util
import json
import os
import sys
from .errors import RacerError
from .instance import Case, Instance, check
from .user_code import report_user_exception

_SEVERITY = [0, 2, 1, 3, 4]  # least to most severe


def worst(codes):
    return max(codes, key=_SEVERITY.index) if codes else 0


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


def _per_instance_path(base, name, several):
    if not several:
        return base
    root, ext = os.path.splitext(base)
    return f"{root}.{name}{ext or '.json'}"


def run_check(args):
    if not os.path.isfile(args.file):
        print(f"{args.file}: cannot read the instance file", file=sys.stderr)
        return 3
    try:
        instances = load_instances(args.file)
    except RacerError as e:
        print(e, file=sys.stderr)
        return e.code
    except Exception as e:  # the user's file itself fails: show where, as Python does
        return report_user_exception(e, args.file, "while loading")
    if not instances:
        print(f"{args.file}: defines no racer.Instance subclass and no racer.case(...)", file=sys.stderr)
        return 3
    codes, reports = [], []
    with_witness = []
    limits = dict(time_limit=args.time_limit, memory_limit_mb=args.memory_limit, self_check_points=args.self_check_points)
    for inst in instances:
        try:
            if args.sarif or args.html:
                from .reports import check_with_reports
                r = check_with_reports(inst, html=bool(args.html), **limits)
            else:
                r = check(inst, **limits)
        except RacerError as e:
            print(e, file=sys.stderr)
            codes.append(e.code)
            continue
        except Exception as e:  # setup() or a program of the user's instance raised
            codes.append(report_user_exception(e, args.file, f"while building instance {getattr(inst, '__name__', inst)!r}"))
            continue
        codes.append(r.exit_code)
        if args.json:
            reports.append(r.json)
        else:
            sys.stdout.write(r.text)
            sys.stdout.flush()
        if r.witness_json:
            with_witness.append(r)
        for path, text in ((args.sarif, getattr(r, "sarif", None)), (args.html, getattr(r, "html", None))):
            if path:
                with open(_per_instance_path(path, r.name, len(instances) > 1), "w") as f:
                    f.write(text)
    if args.json:
        print(json.dumps(reports[0] if len(instances) == 1 and reports else reports, indent=2))
    if args.witness:
        if not with_witness:
            print("no witness to save: no instance is inequivalent", file=sys.stderr)
        for r in with_witness:
            r.save_witness(_per_instance_path(args.witness, r.name, len(with_witness) > 1))
    return worst(codes)


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
    p = argparse.ArgumentParser(prog="racer", description="Racer's Python side")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="check every instance a Python file defines")
    c.add_argument("file")
    c.add_argument("--json", action="store_true", help="write the result as JSON")
    c.add_argument("--witness", help="save the witness of an inequivalence to this file")
    c.add_argument("--sarif", help="also write a SARIF 2.1.0 log to this file")
    c.add_argument("--html", help="also write an HTML report to this file")
    c.add_argument("--time-limit", type=_non_negative(float), default=60.0)
    c.add_argument("--memory-limit", type=_non_negative(int), default=4096)
    c.add_argument("--self-check-points", type=_non_negative(int), default=2)
    try:
        args = p.parse_args(argv)
    except SystemExit as e:  # argparse's 2 for bad usage would read as "unknown"
        return 0 if e.code == 0 else 3
    try:
        return run_check(args)
    except RacerError as e:
        print(e, file=sys.stderr)
        return e.code


if __name__ == "__main__":
    sys.exit(main())
