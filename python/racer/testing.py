"""Racer in a test suite: assert_equivalent, and the expectations the pytest plugin compares.

    def test_softmax():
        racer.assert_equivalent(SoftmaxTritonVsCuda)      # AssertionError carrying the report

An instance is what racer.check takes (a racer.Instance subclass or object, a racer.case(...),
or its keywords) or the path of an instance file (.toml, or .py defining instances)."""
import os

from . import _native
from .errors import RacerError

# A race leaves the outputs to the schedule: "not_equivalent" accepts inequivalent or unknown,
# as `racer corpus` does for [expect] verdict = "not_equivalent".
_ACCEPTS = {"equivalent": {"equivalent"}, "inequivalent": {"inequivalent"},
            "equal_up_to_rounding": {"equal_up_to_rounding"}, "not_equivalent": {"inequivalent", "unknown"}}


class FileResult:
    """The result of checking a TOML instance file: what racer.Result holds, less what needs the
    Python description of the instance (witness arrays, explain)."""

    def __init__(self, path, raw):
        import json
        self.path = path
        self.text = raw["text"]
        self.json = json.loads(raw["json"])
        self.exit_code = raw["exit_code"]
        self.expected = raw["expected"]
        self.mismatch = raw["mismatch"]
        self.name = self.json["name"]
        self.verdict = self.json["verdict"]
        self.reason = self.json["reason"]
        self.defects = self.json["defects"]
        self.counterexample = self.json.get("counterexample")

    @property
    def equivalent(self):
        return self.exit_code == 0

    def report(self):
        return self.text

    def __repr__(self):
        return f"<racer.FileResult {self.name}: {self.verdict}, exit code {self.exit_code}>"


def hazard_points_arg(hazard_points):
    """The core's hazard_points: -1 for None (the default search: 3 inputs, fewer for big kernels)."""
    if hazard_points is None:
        return -1
    if isinstance(hazard_points, bool) or not isinstance(hazard_points, int) or hazard_points < 0:
        raise RacerError(f"hazard_points must be None or a whole number of inputs (>= 0), not {hazard_points!r}")
    return hazard_points


def progress_arg(progress):
    """The core's progress: None, or a callable (checked here, so a wrong one fails before the check runs)."""
    if progress is not None and not callable(progress):
        raise RacerError(f"progress must be None or a callable taking a dict, not {progress!r}")
    return progress


def check_toml(path, time_limit=60, memory_limit_mb=4096, self_check_points=2, hazard_points=None, progress=None):
    """Checks a TOML instance file as `racer check FILE.toml` does (hazard_points and progress as racer.check)."""
    if os.path.isdir(path):
        raise RacerError(f"{path}: is a directory; expected an instance file (.toml or .py)")
    raw = _native.call(_native.core().check_file, os.fspath(path), float(time_limit), int(memory_limit_mb),
                       int(self_check_points), hazard_points=hazard_points_arg(hazard_points),
                       progress=progress_arg(progress))
    return FileResult(os.fspath(path), raw)


def check_path(path, **limits):
    """Every instance of an instance file, checked: a list of results (one for a .toml file)."""
    path = os.fspath(path)
    if path.endswith(".py"):
        from .cli import load_instances
        from .instance import check
        if not os.path.isfile(path):
            raise RacerError(f"{path}: cannot read the instance file")
        return [check(inst, **limits) for inst in load_instances(path)]
    return [check_toml(path, **limits)]


def failure_message(result):
    """The AssertionError text: what was asserted against, then the report `racer check` prints
    (verdict, counts, witness, defects with their source lines)."""
    return (f"racer: {result.name} is not equivalent: verdict {result.verdict}, exit code {result.exit_code}"
            + (f" ({len(result.defects)} defect{'s' if len(result.defects) != 1 else ''})" if result.defects else "")
            + "\n" + result.text)


def assert_equivalent(instance=None, *, time_limit=60, memory_limit_mb=4096, self_check_points=2, hazard_points=None, **case):
    """Checks and raises AssertionError (its message the report) unless every compared cell is
    proved equal and neither program has a defect. Returns the result (a list of results for a
    .py file defining several instances). hazard_points as racer.check (float hazards never fail it)."""
    limits = dict(time_limit=time_limit, memory_limit_mb=memory_limit_mb, self_check_points=self_check_points,
                  hazard_points=hazard_points)
    if isinstance(instance, (str, os.PathLike)):
        results = check_path(instance, **limits)
        if not results:
            raise RacerError(f"{os.fspath(instance)}: defines no racer.Instance subclass and no racer.case(...)")
    else:
        from .instance import check
        results = [check(instance, **case, **limits)]
    for r in results:
        if not r.equivalent:
            raise AssertionError(failure_message(r))
    return results[0] if len(results) == 1 else results


def expectation_of(instance):
    """The `expect` a Python instance declares: ("verdict", ["a:race", ...]). A string is the
    verdict with no defects; a dict has "verdict" and optional "defects". None: must be
    equivalent without defects."""
    e = getattr(instance, "expect", None)
    if e is None:
        return "equivalent", []
    if isinstance(e, str):
        e = {"verdict": e}
    if not isinstance(e, dict) or e.get("verdict") not in _ACCEPTS:
        raise RacerError(f"{getattr(instance, '__name__', instance)!r}: expect must be one of "
                         f"{', '.join(sorted(_ACCEPTS))}, or a dict with 'verdict' and 'defects' (['a:race', ...])")
    return e["verdict"], sorted(set(e.get("defects", [])))


def mismatch(expected, expected_defects, result):
    """What differs between a result and an expectation, as `racer corpus` words it ("" if none)."""
    why = ""
    if result.verdict not in _ACCEPTS[expected]:
        why = f"verdict {result.verdict}" + (f": {result.reason}" if result.reason else "")
    got = sorted({f"{d['program']}:{d['kind']}" for d in result.defects})
    if got != list(expected_defects):
        why += ("; " if why else "") + f"defects {','.join(got) or 'none'}, expected {','.join(expected_defects) or 'none'}"
    return why
