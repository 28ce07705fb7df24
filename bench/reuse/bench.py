#!/usr/bin/env python3
"""Shape reduction benchmark (issue 20): `racer check` on the instances of bench/reuse with two
builds, the median of --runs runs each (one process per run, runs of the builds interleaved so
that the machine's load falls on both alike). Prints a Markdown table: verdict, cells, classes,
wall seconds, and the deciding time (the check's seconds minus execution and self-check).

  python3 bench/reuse/bench.py --before /work/main/build/racer --after build/racer --runs 5
  python3 bench/reuse/bench.py --before build/racer --before-args="--all-cells --no-shape-reduction" \
      --after build/racer --runs 5     # one build: every cell decided on its own, against the default
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import time

HERE = pathlib.Path(__file__).resolve().parent
CASES = ["softmax_wrong_axis_32x64", "softmax_stable_vs_naive_32x64",
         "sumsq_dev_32x32", "sumsq_dev_128x32", "sumsq_dev_512x32"]


def run_once(racer, case, extra):
    start = time.perf_counter()
    p = subprocess.run([racer, "check", "--json", str(HERE / f"{case}.toml")] + extra,
                       capture_output=True, text=True)
    wall = time.perf_counter() - start
    j = json.loads(p.stdout)
    decide = j["seconds"] - j["exec_seconds"] - j["self_check_seconds"]
    return wall, decide, j


def summary(j):
    o = j["outputs"][0]
    counts = f'{o["proved"]} proved, {o["refuted"]} refuted'
    if o.get("skipped"):
        counts += f', {o["skipped"]} skipped'
    shape = j.get("shape_reduction")
    classes = "-" if shape is None else f'{shape["classes"]} ({shape["cells"]} cell{"" if shape["cells"] == 1 else "s"})'
    return j["verdict"], o["cells"], counts, classes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True, help="racer binary without shape reduction")
    ap.add_argument("--after", required=True, help="racer binary with it")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--all-cells", action="store_true", help="pass --all-cells to the after build")
    ap.add_argument("--before-args", default="", help="options for the before build (one string)")
    a = ap.parse_args()
    print("| case | verdict | cells | before: cells decided | after: cells decided | after: classes "
          "| before: wall s | after: wall s | ratio | before: deciding s | after: deciding s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for case in CASES:
        runs = {"before": [], "after": []}
        for _ in range(a.runs):
            runs["before"].append(run_once(a.before, case, a.before_args.split()))
            runs["after"].append(run_once(a.after, case, ["--all-cells"] if a.all_cells else []))
        med = {k: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for k, v in runs.items()}
        vb, cells, counts_b, _ = summary(runs["before"][0][2])
        va, _, counts_a, classes = summary(runs["after"][0][2])
        verdict = vb if vb == va else f"{vb} / {va}"
        print(f"| {case} | {verdict} | {cells} | {counts_b} | {counts_a} | {classes} "
              f"| {med['before'][0]:.2f} | {med['after'][0]:.2f} | {med['before'][0] / med['after'][0]:.1f}x "
              f"| {med['before'][1]:.2f} | {med['after'][1]:.3f} |")


if __name__ == "__main__":
    main()
