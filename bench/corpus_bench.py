#!/usr/bin/env python3
"""End-to-end benchmark of `racer check` over a directory of checking instances.

For every case: wall time, time spent executing the programs symbolically, thread-
instructions executed, and peak resident memory of the process, each the median of
--runs runs (one process per run, so peak memory is per case). Prints a Markdown table.

  python3 bench/corpus_bench.py ../shared/corpus/cases --runs 5 > /tmp/table.md
  python3 bench/corpus_bench.py tests/cases --match 't_math_*.toml' --runs 3
"""
import argparse
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time


def run_once(racer, case):
    start = time.perf_counter()
    proc = subprocess.Popen([racer, "check", "--json", str(case)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    try:
        result = json.loads(out)
    except json.JSONDecodeError:
        result = {"verdict": "error", "exec_seconds": 0, "thread_instructions": 0}
    return wall, usage.ru_maxrss / 1024.0, result


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--match", default="*.toml", help="which instance files of DIR (a glob)")
    ap.add_argument("--racer", default=str(pathlib.Path(__file__).resolve().parent.parent / "build" / "racer"))
    a = ap.parse_args()
    cases = sorted(pathlib.Path(a.dir).glob(a.match))
    print(f"Machine: {os.cpu_count()} cores, {cpu_model()}; {a.runs} runs per case, medians.\n")
    print("| case | verdict | wall s | exec s | decide s | decide us/cell | thread-instr | M thread-instr/s | peak MiB |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    totals = {"instr": 0, "exec": 0.0}
    walls = []
    for case in cases:
        samples = [run_once(a.racer, case) for _ in range(a.runs)]
        wall = statistics.median(s[0] for s in samples)
        rss = statistics.median(s[1] for s in samples)
        res = samples[0][2]
        exec_s = statistics.median(s[2].get("exec_seconds", 0) for s in samples)
        decide_s = statistics.median(max(0.0, s[2].get("seconds", 0) - s[2].get("exec_seconds", 0)) for s in samples)
        cells = sum(o.get("cells", 0) for o in res.get("outputs", []))
        per_cell = decide_s / cells * 1e6 if cells else 0
        instr = res.get("thread_instructions", 0)
        rate = instr / exec_s / 1e6 if exec_s > 0 else 0
        totals["instr"] += instr
        totals["exec"] += exec_s
        walls.append(wall)
        print(f"| {case.stem} | {res.get('verdict')} | {wall:.3f} | {exec_s:.4f} | {decide_s:.4f} | {per_cell:.0f} | {instr} | {rate:.1f} | {rss:.0f} |")
        sys.stdout.flush()
    rate = totals["instr"] / totals["exec"] / 1e6 if totals["exec"] else 0
    print(f"\nAll cases: {totals['instr']} thread-instructions in {totals['exec']:.3f} s of symbolic execution "
          f"= {rate:.1f} M thread-instructions/s; median wall time per case {statistics.median(walls):.3f} s, "
          f"max {max(walls):.3f} s.")


if __name__ == "__main__":
    main()
