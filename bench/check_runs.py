"""What bench/hazard_bench.py and bench/self_check_bench.py share: every case of a directory
checked --runs times in each of two modes (`racer check --json` with the mode's flags), and the
median of a field over one mode's runs."""
import argparse
import json
import pathlib
import statistics
import subprocess


def check_json(racer, case, flags):
    out = subprocess.run([racer, "check", "--json", *flags, str(case)], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        return {}


def arguments():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--racer", default=str(pathlib.Path(__file__).resolve().parent.parent / "build" / "racer"))
    return ap.parse_args()


def runs_in_two_modes(a, on_flags, off_flags):
    """Per case of a.dir: (case, the reports with on_flags, the reports with off_flags)."""
    for case in sorted(pathlib.Path(a.dir).glob("*.toml")):
        on = [check_json(a.racer, case, on_flags) for _ in range(a.runs)]
        off = [check_json(a.racer, case, off_flags) for _ in range(a.runs)]
        yield case, on, off


def median(reports, field):
    """field(report) -> seconds; the median over the reports."""
    return statistics.median(field(r) for r in reports)
