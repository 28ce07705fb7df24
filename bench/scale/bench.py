#!/usr/bin/env python3
"""Scale benchmark (issue 20): `racer check` on bench/scale instances written by gen.py at the
issue's shapes, with one or two builds, the median of --runs runs each (one process per run, runs
of the builds interleaved so that the machine's load falls on both alike). Prints a Markdown
table: verdict, thread-instructions, median wall seconds, median CPU seconds (user + system: on a
machine others load, wall time measures the load as much as the build), median peak resident memory
(MB, the process's own maximum RSS), the phases' seconds, and the ratio of the builds.

  python3 bench/scale/bench.py --after build/racer --runs 3 tiled64:64x64x64 tiled64:64x64x512
  python3 bench/scale/bench.py --before /work/wt-base/build/racer --after build/racer --runs 3 ROW...

A row is KIND:SHAPE as gen.py takes it; --time-limit (default 120) is passed to every run."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import pathlib

HERE = pathlib.Path(__file__).resolve().parent


def run_once(racer, toml, time_limit):
    start = time.perf_counter()
    p = subprocess.Popen([racer, "check", "--json", "--time-limit", str(time_limit), str(toml)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    j = json.loads(out)
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024, "json": j}


def cell(runs, key):
    return statistics.median(r[key] for r in runs)


def describe(runs):
    j = runs[0]["json"]
    verdict = j["verdict"] + (f' ({j["reason"][:60]})' if j["verdict"] == "unknown" else "")
    phases = statistics.median(r["json"]["exec_seconds"] for r in runs), statistics.median(
        r["json"]["self_check_seconds"] for r in runs)
    return verdict, j.get("thread_instructions", 0), phases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", nargs="+", help="KIND:SHAPE, as bench/scale/gen.py takes them")
    ap.add_argument("--before", help="a racer binary to compare against")
    ap.add_argument("--after", required=True, help="the racer binary measured")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=120)
    a = ap.parse_args()
    builds = ([("before", a.before)] if a.before else []) + [("after", a.after)]
    with tempfile.TemporaryDirectory() as tmp:
        files = subprocess.run([sys.executable, str(HERE / "gen.py"), tmp, *a.rows], check=True,
                               capture_output=True, text=True).stdout.split()
        head = "| case | verdict | thread-instructions |"
        for name, _ in builds:
            head += f" {name}: wall s | {name}: CPU s | {name}: peak MB | {name}: exec s | {name}: self-check s |"
        if a.before:
            head += " wall ratio | CPU ratio | memory ratio |"
        print(head)
        print("|" + " --- |" * (head.count("|") - 1))
        for toml in files:
            runs = {name: [] for name, _ in builds}
            for _ in range(a.runs):
                for name, racer in builds:
                    runs[name].append(run_once(racer, toml, a.time_limit))
            verdict, instrs, _ = describe(runs["after"])
            if a.before and describe(runs["before"])[0] != verdict:
                verdict = f'{describe(runs["before"])[0]} / {verdict}'
            line = f"| {pathlib.Path(toml).stem} | {verdict} | {instrs:,} |"
            for name, _ in builds:
                _, _, (ex, sc) = describe(runs[name])
                line += (f" {cell(runs[name], 'wall'):.2f} | {cell(runs[name], 'cpu'):.2f} | {cell(runs[name], 'rss_mb'):.0f} |"
                         f" {ex:.2f} | {sc:.2f} |")
            if a.before:
                line += (f" {cell(runs['before'], 'wall') / cell(runs['after'], 'wall'):.1f}x"
                         f" | {cell(runs['before'], 'cpu') / cell(runs['after'], 'cpu'):.1f}x"
                         f" | {cell(runs['before'], 'rss_mb') / cell(runs['after'], 'rss_mb'):.1f}x |")
            print(line, flush=True)


if __name__ == "__main__":
    main()
