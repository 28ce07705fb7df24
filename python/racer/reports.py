"""Checks whose result also carries the SARIF log and, on request, the HTML report (what
`racer check FILE.py --sarif/--html` writes)."""
import json

from . import _native
from .instance import Case, from_class
from .result import Result


def check_with_reports(instance, time_limit=60, memory_limit_mb=4096, self_check_points=2, html=False):
    """racer.check for a racer.Instance subclass or a racer.case(...), with `.sarif` (text) and
    `.html` (text, or None unless html=True) on the result."""
    case = instance if isinstance(instance, Case) else from_class(instance)
    desc = case.description()
    raw = _native.call(_native.core().check, json.dumps(desc), float(time_limit), int(memory_limit_mb),
                       int(self_check_points), bool(html))
    result = Result(case, desc, raw)
    result.sarif, result.html = raw["sarif"], raw.get("html")
    return result
