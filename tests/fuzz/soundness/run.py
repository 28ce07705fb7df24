#!/usr/bin/env python3
"""Soundness fuzzer: generate labelled kernel pairs, check each with racer, count wrong verdicts.

usage: run.py --seed S --pairs N [--start I] [--jobs J] [--out DIR] [--racer PATH] [--batch B]
              [--time-limit SECONDS]

Pairs are numbered start .. start+N-1 and cut into batches of B (one nvcc run each). Every pair
depends only on (seed, its number), so a run is reproducible and resumable: each batch keeps its
files and a results.jsonl under DIR/batches/, and a rerun with the same DIR skips the pairs
already checked. Exit status: 1 iff some verdict is WRONG (equivalent on a mutant, inequivalent
on a rewrite), 2 when nvcc or Triton is missing, else 0. Unknown and refused verdicts are counted
and grouped by reason, never failures. WRONG pairs are copied to DIR/wrong/<name>/ (instance,
PTX, racer's report) to become regression cases. `--check-dir DIR` checks the instances of DIR
(tests/fuzz/soundness/regressions) against their [expect] verdicts instead, with the same outcomes.
"""
import argparse
import concurrent.futures as cf
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from classify import outcome, parse_run, reason_key  # noqa: E402
from report import summarize  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def check_tools():
    """nvcc and Triton are installed by scripts/install-deps.sh on every machine: say so if not."""
    import build
    problems = []
    if not (os.path.isfile(build.NVCC) and os.access(build.NVCC, os.X_OK)):
        problems.append(f"nvcc not found (looked for {build.NVCC}; set NVCC or install the CUDA toolkit)")
    try:
        import triton  # noqa: F401
    except ImportError as e:
        problems.append(f"triton cannot be imported ({e}); pip install triton (3.6)")
    return problems


def run_batch(args, first, last, done):
    """Builds pairs first..last-1 (except those in done), checks them; returns their result rows."""
    from pairs import make_pair
    from build import build_batch
    bdir = os.path.join(args.out, "batches", f"b{first:06d}")
    os.makedirs(bdir, exist_ok=True)
    rows, pairs = [], []
    for i in range(first, last):
        if i in done:
            continue
        p, why = make_pair(args.seed, i)
        if p is None:
            rows.append({"idx": i, "outcome": "gen_reject", "reason": why, "reason_key": why.split(":")[0]})
        else:
            pairs.append(p)
    t0 = time.time()
    errors = build_batch(pairs, bdir) if pairs else {}
    build_s = time.time() - t0
    for p in pairs:
        base = {"idx": p.idx, "name": p.name, "label": p.label, "category": p.category, "how": p.how,
                "a": p.a.impl.text(), "b": p.b.impl.text(), "spec_a": p.a.spec.text(), "spec_b": p.b.spec.text(),
                "model_rel": p.max_rel, "toml": os.path.relpath(os.path.join(bdir, f"p{p.idx:06d}.toml"), args.out),
                "build_s": build_s / max(1, len(pairs))}
        if p.idx in errors:
            rows.append(dict(base, outcome="build_error", reason=errors[p.idx], reason_key=errors[p.idx][:80]))
            continue
        rows.append(dict(base, **check_one(args, os.path.join(bdir, f"p{p.idx:06d}.toml"), p.label)))
    with open(os.path.join(bdir, "results.jsonl"), "a") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    return rows


def check_one(args, toml, label):
    cmd = [args.racer, "check", toml, "--json", "--time-limit", str(args.time_limit)]
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.time_limit + 15)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = -1, "", f"runner timeout after {args.time_limit + 15:.0f} s"
    wall = time.time() - t0
    verdict, reason, rep = parse_run(rc, out, err)
    if rc == -1:
        verdict = "unknown"
    res = {"verdict": verdict, "rc": rc, "outcome": outcome(label, verdict), "seconds": round(wall, 3),
           "reason": reason[:2000], "reason_key": reason_key(reason) if verdict != label else "",
           "defects": [f"{d.get('program', '?')}:{d.get('kind', '?')}" for d in (rep or {}).get("defects", [])
                       if isinstance(d, dict)] if rep else []}
    if res["outcome"] == "WRONG" or (res["outcome"] == "rounding" and label == "inequivalent"):
        keep_case(args, toml, out, err)
    return res


def keep_case(args, toml, stdout, stderr):
    """Copies a pair's instance, PTX and racer's report to DIR/wrong/<name>/."""
    d = os.path.join(args.out, "wrong", os.path.basename(toml)[:-5])
    os.makedirs(d, exist_ok=True)
    stem = os.path.basename(toml)[:-5]
    src = os.path.dirname(toml)
    for f in os.listdir(src):
        if f.startswith(stem + "."):
            shutil.copy(os.path.join(src, f), d)
    with open(os.path.join(d, "racer.json"), "w") as f:
        f.write(stdout or stderr)


def load_done(out):
    rows = []
    bd = os.path.join(out, "batches")
    if os.path.isdir(bd):
        for b in sorted(os.listdir(bd)):
            p = os.path.join(bd, b, "results.jsonl")
            if os.path.exists(p):
                rows += [json.loads(l) for l in open(p) if l.strip()]
    return rows


def check_dir(args, d):
    """Checks every instance in d (the regressions) against its [expect] verdict as the label."""
    import tomllib
    wrong = 0
    for f in sorted(os.listdir(d)):
        if not f.endswith(".toml"):
            continue
        label = tomllib.load(open(os.path.join(d, f), "rb"))["expect"]["verdict"]
        r = subprocess.run([args.racer, "check", os.path.join(d, f), "--json", "--time-limit", str(args.time_limit)],
                           capture_output=True, text=True, timeout=args.time_limit + 15)
        verdict, reason, _ = parse_run(r.returncode, r.stdout, r.stderr)
        o = outcome(label, verdict)
        wrong += o == "WRONG"
        print(f"{f:<44} expected {label:<13} got {verdict:<22} {o}" + (f"  ({reason_key(reason)})" if reason else ""))
    print(f"{wrong} WRONG")
    return 1 if wrong else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--check-dir", help="only check the instances of this directory (e.g. regressions/)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--out", default="soundness-out")
    ap.add_argument("--racer", default=os.environ.get("RACER_BIN", os.path.join(REPO, "build", "racer")))
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--quiet", action="store_true", help="no line per batch")
    ap.add_argument("--fresh", action="store_true", help="forget earlier results in --out (CI: check anew)")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    args.racer = os.path.abspath(args.racer)
    if args.check_dir:
        return check_dir(args, args.check_dir)
    problems = check_tools()
    if not os.access(args.racer, os.X_OK):
        problems.append(f"racer binary not found at {args.racer} (--racer or RACER_BIN)")
    if problems:
        print("soundness fuzzer cannot run:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    if args.fresh and os.path.isdir(os.path.join(args.out, "batches")):
        shutil.rmtree(os.path.join(args.out, "batches"))
        shutil.rmtree(os.path.join(args.out, "wrong"), ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "run.json"), "w") as f:
        json.dump({"seed": args.seed, "pairs": args.pairs, "start": args.start, "batch": args.batch,
                   "racer": args.racer, "time_limit": args.time_limit, "argv": sys.argv}, f, indent=1)
    done = {r["idx"] for r in load_done(args.out)}
    todo = []
    end = args.start + args.pairs
    for first in range(args.start, end, args.batch):
        last = min(first + args.batch, end)
        if any(i not in done for i in range(first, last)):
            todo.append((first, last))
    t0 = time.time()
    if todo:
        print(f"seed {args.seed}: pairs {args.start}..{end - 1}, {len(todo)} batches to run "
              f"({len(done)} pairs already checked), {args.jobs} jobs", flush=True)
        with cf.ProcessPoolExecutor(max_workers=args.jobs) as ex:
            futs = {ex.submit(run_batch, args, a, b, done): (a, b) for a, b in todo}
            for k, fut in enumerate(cf.as_completed(futs), 1):
                rows = fut.result()
                if not args.quiet:
                    bad = [r for r in rows if r["outcome"] == "WRONG"]
                    print(f"  batch {futs[fut][0]:6d}: {len(rows)} pairs, "
                          f"{sum(r['outcome'] == 'correct' for r in rows)} correct"
                          + (f", {len(bad)} WRONG: {[r['name'] for r in bad]}" if bad else "")
                          + f"  [{k}/{len(todo)}, {time.time() - t0:.0f} s]", flush=True)
    rows = [r for r in load_done(args.out) if args.start <= r["idx"] < end]
    text, wrong = summarize(rows)
    print(text)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(args.out, "results.jsonl"), "w") as f:
        for r in sorted(rows, key=lambda r: r["idx"]):
            f.write(json.dumps(r) + "\n")
    print(f"wall {time.time() - t0:.1f} s; results in {args.out}/results.jsonl")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
