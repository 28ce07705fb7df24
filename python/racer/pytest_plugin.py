"""pytest plugin: `pytest --racer DIR` runs every checking instance in DIR as a test item.

Items are the *.toml instances directly in DIR (as `racer corpus DIR` scores them) and the
instances each .py file there defines (a file that imports racer). A TOML instance passes when
the check matches its [expect] (verdict and defects, as the scoreboard compares them); a Python
instance when it matches its `expect` attribute ("inequivalent", or {"verdict": ...,
"defects": ["a:race"]}), or without one when it is equivalent without defects. An Unknown
verdict that misses the expectation is skipped with its reason, or fails with --racer-strict.
Registered through the package's pytest11 entry point; without the package installed:
`pytest -p racer.pytest_plugin --racer DIR`."""
import os
import re

import pytest

_IMPORTS_RACER = re.compile(r"^\s*(import racer\b|from racer\b)", re.M)


def pytest_addoption(parser):
    g = parser.getgroup("racer", "Racer checking instances")
    g.addoption("--racer", action="append", default=[], metavar="DIR",
                help="collect the checking instances in DIR (*.toml; .py files defining racer instances) as tests")
    g.addoption("--racer-strict", action="store_true", default=False,
                help="an Unknown verdict fails instead of being skipped")
    g.addoption("--racer-time-limit", type=float, default=60.0, metavar="S", help="seconds per instance (default 60)")
    g.addoption("--racer-memory-limit", type=int, default=4096, metavar="MB", help="MiB per instance (default 4096)")
    g.addoption("--racer-hazard-points", type=int, default=None, metavar="N",
                help="inputs of the float hazard search per instance (default: 3, fewer for big kernels; 0: off; "
                     "24 as racer check --float-hazards); the hazards are in the report, never a failure")


def _racer_dirs(config):
    return [os.path.realpath(d) for d in config.getoption("racer", default=None) or []]


def pytest_configure(config):
    dirs = config.getoption("racer", default=None) or []
    for d in dirs:
        if not os.path.isdir(d):
            raise pytest.UsageError(f"--racer {d}: not a directory of checking instances")
    if not dirs:
        return
    # `pytest --racer DIR` alone collects DIR, not the invocation directory; with paths given
    # (or on an xdist worker, which receives them) the racer directories are added once.
    explicit = getattr(config, "args_source", None) == pytest.Config.ArgsSource.ARGS
    args = list(config.args) if explicit else []
    have = {os.path.realpath(os.path.join(str(config.invocation_params.dir), a.split("::")[0])) for a in args}
    args += [os.path.abspath(d) for d in dirs if os.path.realpath(d) not in have]
    config.args[:] = args


def _in_racer_dir(file_path, config):
    dirs = _racer_dirs(config)
    return bool(dirs) and os.path.dirname(os.path.realpath(file_path)) in dirs


def pytest_ignore_collect(collection_path, config):
    """Subdirectories of a racer directory hold kernels and PTX, not instances (as for racer corpus)."""
    dirs = _racer_dirs(config)
    if not dirs or not collection_path.is_dir():
        return None
    p = os.path.realpath(collection_path)
    return True if any(p != d and p.startswith(d + os.sep) for d in dirs) else None


def pytest_collect_file(file_path, parent):
    if not _in_racer_dir(file_path, parent.config):
        return None
    if file_path.suffix == ".toml":
        return TomlInstanceFile.from_parent(parent, path=file_path)
    if file_path.suffix == ".py" and file_path.name not in ("conftest.py", "__init__.py") \
            and _IMPORTS_RACER.search(file_path.read_text(errors="replace")):
        return PythonInstanceFile.from_parent(parent, path=file_path)
    return None


class RacerMismatch(Exception):
    """The check did not give what the instance expects; carries the report."""

    def __init__(self, why, report):
        super().__init__(why)
        self.why, self.report = why, report


def _limits(config):
    return dict(time_limit=config.getoption("racer_time_limit"), memory_limit_mb=config.getoption("racer_memory_limit"),
                hazard_points=config.getoption("racer_hazard_points"))


class InstanceItem(pytest.Item):
    def _judge(self, expected, why, result):
        if not why:
            return
        if result.verdict == "unknown" and not self.config.getoption("racer_strict"):
            pytest.skip(f"Unknown: {result.reason or why} (--racer-strict fails it)")
        raise RacerMismatch(f"expected {expected}, got {result.verdict}: {why}", result.text)

    def repr_failure(self, excinfo, style=None):
        e = excinfo.value
        if isinstance(e, RacerMismatch):
            return f"{self.name}: {e.why}\n\n{e.report}"
        from .errors import RacerError
        if isinstance(e, RacerError):
            return f"{self.name}: bad input or refused (exit code {e.code}):\n{e}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"racer instance {self.name}"


class TomlInstance(InstanceItem):
    def runtest(self):
        from .testing import check_toml
        r = check_toml(str(self.path), **_limits(self.config))
        if r.expected is None:  # no [expect]: the instance is asserted equivalent
            from .testing import mismatch
            self._judge("equivalent", mismatch("equivalent", [], r), r)
        else:
            self._judge(r.expected, r.mismatch, r)


class TomlInstanceFile(pytest.File):
    def collect(self):
        yield TomlInstance.from_parent(self, name=self.path.stem)


class PythonInstance(InstanceItem):
    def __init__(self, *, instance, **kw):
        super().__init__(**kw)
        self.instance = instance

    def runtest(self):
        from .instance import check
        from .testing import expectation_of, mismatch
        expected, defects = expectation_of(self.instance)
        r = check(self.instance, **_limits(self.config))
        self._judge(expected, mismatch(expected, defects, r), r)


class PythonInstanceFile(pytest.File):
    def collect(self):
        from .cli import load_instances
        for inst in load_instances(str(self.path)):
            name = getattr(inst, "__name__", None) or inst.name
            yield PythonInstance.from_parent(self, name=name, instance=inst)
