#!/usr/bin/env python3
"""The real-world corpus: every instance of tests/realworld/instances/ checked by Racer, each row
classified, the scoreboard written, CI failing on a WRONG row or fewer decided rows than recorded.

usage: run.py [--jobs 2] [--time-limit 60] [--only REGEX] [--scoreboard tests/SCOREBOARD.md]
              [--threshold tests/realworld/THRESHOLD] [--results out.jsonl]

Each instance runs in its own process (`racer check FILE.py` cannot time one instance out
without the others). Outcomes per row:
  proved    expected equivalent, got equivalent
  refuted   expected inequivalent, got inequivalent with a manifest witness (the report's replay: line)
  WRONG     equivalent on a mutation, or inequivalent with a manifest witness on a library kernel
  unknown / refused / error (with the first line of the reason), rounding (equal_up_to_rounding),
  hidden    inequivalent without a manifest witness
Exit status 1 on any WRONG row or when fewer rows are decided (proved + refuted) than THRESHOLD says.
"""
import argparse
import collections
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
INSTANCES = os.path.join(HERE, "instances")
SECTION = "## Real-world kernels"


def discover(only):
    """(file, class, expect, doc) of every instance, in file order; loads the files without checking."""
    sys.path.insert(0, HERE)
    from racer.cli import load_instances
    from common import Mutation
    rows = []
    for f in sorted(os.listdir(INSTANCES)):
        if not f.endswith(".py"):
            continue
        for cls in load_instances(os.path.join(INSTANCES, f)):
            key = f"{f[:-3]}.{cls.__name__}"
            if only and not re.search(only, key):
                continue
            doc = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
            rows.append({"file": f, "name": cls.__name__, "expect": cls.expect, "doc": doc,
                         "kind": "mutation" if issubclass(cls, Mutation) else "library"})
    return rows


ONE = r"""
import json, os, sys, traceback
sys.path.insert(0, {here!r})
from racer.cli import load_instances
from racer.errors import RacerError
from racer.instance import check
path, name, limit = {path!r}, {name!r}, {limit!r}
out = {{}}
try:
    cls = next(c for c in load_instances(path) if c.__name__ == name)
    r = check(cls, time_limit=limit)
    cx = r.json.get("counterexample") or {{}}
    out = {{"verdict": r.verdict, "exit": r.exit_code, "report": r.text,
           "replay": (cx.get("replay") or {{}}).get("kind", "")}}
except RacerError as e:
    out = {{"verdict": "error", "exit": e.code, "report": str(e)}}
except Exception:
    out = {{"verdict": "error", "exit": 4, "report": traceback.format_exc()}}
print("@@RESULT@@" + json.dumps(out))
"""


def check_row(row, limit):
    code = ONE.format(here=HERE, path=os.path.join(INSTANCES, row["file"]), name=row["name"], limit=limit)
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=limit + 120)
        m = re.search(r"@@RESULT@@(.*)$", p.stdout, re.M)
        res = json.loads(m.group(1)) if m else {"verdict": "error", "exit": p.returncode,
                                                 "report": (p.stderr or p.stdout)[-3000:]}
    except subprocess.TimeoutExpired:
        res = {"verdict": "error", "exit": -1, "report": f"runner timeout after {limit + 120:.0f} s"}
    res["seconds"] = round(time.time() - t0, 1)
    return dict(row, **res, **classify(row["expect"], res))


def replay_of(report):
    m = re.search(r"^\s*replay:\s*(\S+)", report or "", re.M)
    return m.group(1).rstrip(",;") if m else ""


def reason_of(report):
    """(reason, group): the first line that says why a row is not decided, with where it happened;
    and the same with names, numbers and positions taken out, which side (library program a or
    reference program b) and the refused instruction's opcode, so rows refused for one construct group together."""
    lines = [l.strip() for l in (report or "").splitlines() if l.strip()]
    field = lambda key: next((l[len(key):].strip() for l in lines if l.startswith(key)), "")
    where, refused = field("reason:"), field("refused:")
    if refused:
        side = re.match(r"program ([ab])", where)
        op = re.search(r"\): (?:@!?%\w+ )?([a-z][\w.:]*)", where)
        side = ("library" if side.group(1) == "a" else "reference") if side else "?"
        return f"{refused} ({where})", f"[{op.group(1) if op else '?'} in the {side}] {refused}"
    cell = next((l for l in lines if re.match(r"unknown \w+\[[^\]]*\]:", l)), "")
    if cell:
        why = cell.split(":", 1)[1].strip()
        return why, why
    if where:
        # The checker's note on a race that stands: the load whose value reaches an output.
        reach = next((k for k, l in enumerate(lines) if l.startswith("note: ") and "reaches output" in l), None)
        if reach is not None and reach + 1 < len(lines):
            side = "library" if lines[reach][6:].startswith("a") else "reference"
            src = re.search(r"\(([^()]*?([^/()]+:\d+):\d+)\): ", lines[reach + 1])
            output = re.search(r"reaches output (\w+)", lines[reach]).group(1)
            at = src.group(2) if src else "?"
            return (f"{where}: the load at {at} in the {side} reads while another thread stores there, and its value "
                    f"reaches {output}", f"{where} ({side}: a racing load at {at} reaches {output})")
        race = next((l for l in lines if re.match(r"[ab]: race at ", l)), "")
        if race:
            side = "library" if race.startswith("a") else "reference"
            return f"{where}: {race}", f"{where} ({side}: {re.sub(r'at [^ ]+ ', '', race[3:]).split(',')[0]})"
        return where, where
    err = next((l for l in lines if "error:" in l), "")
    if err:
        why = err.split("error:", 1)[1].strip()
        return why, why
    if lines and lines[0].startswith("Traceback"):
        return lines[-1], lines[-1]
    first = lines[0] if lines else "(no reason given)"
    first = re.sub(r"^\S+\.py:\d+: ", "", first)
    return first, first


def classify(expect, res):
    v, rep = res.get("verdict") or "error", res.get("report", "")
    reason, group = reason_of(rep)
    if v == "error" and re.search(r"refus|unknown instruction|not accepted|not supported", reason):
        v = "refused"
    manifest = (res.get("replay") or replay_of(rep)) == "manifest"
    out = _outcome(expect, v, manifest, rep, reason)
    out["group"] = group if out["outcome"] not in DECIDED else ""
    return out


def _outcome(expect, v, manifest, rep, reason):
    if v == "equivalent":
        return {"outcome": "proved" if expect == "equivalent" else "WRONG", "reason": "" if expect == "equivalent"
                else "equivalent on a mutation"}
    if v == "inequivalent":
        if expect == "inequivalent":
            return {"outcome": "refuted" if manifest else "hidden",
                    "reason": "" if manifest else f"replay: {replay_of(rep) or '(none)'}"}
        return {"outcome": "WRONG" if manifest else "hidden",
                "reason": "inequivalent with a manifest witness on a library kernel" if manifest
                else f"inequivalent, replay {replay_of(rep) or '(none)'}"}
    if v in ("unknown", "refused", "equal_up_to_rounding"):
        return {"outcome": "rounding" if v == "equal_up_to_rounding" else v, "reason": reason}
    return {"outcome": "error", "reason": reason}


_NORMALIZE = [
    (re.compile(r"program [ab], launch \d+ \([^)]*\), CTA \([^)]*\), thread \([^)]*\), PTX line \d+(?: \([^)]*\))?: "), ""),
    (re.compile(r"%[a-z]+\d+"), "%r"),
    (re.compile(r"\b0[fFxX][0-9A-Fa-f]+\b"), "HEX"),
    (re.compile(r"(?<![\w.])-?\d+(\.\d+)?(e-?\d+)?\b"), "N"),
    (re.compile(r"\b\w+\[[^\]]*\]"), "cell"),
]


def group_of(reason):
    """A reason with positions, registers and numbers taken out: rows refused for one construct group together."""
    r = reason
    for pat, rep in _NORMALIZE:
        r = pat.sub(rep, r)
    return r.strip()[:150]


DECIDED = ("proved", "refuted")


def scoreboard(rows, racer_rev, wall):
    n = len(rows)
    lib = [r for r in rows if r["kind"] == "library"]
    mut = [r for r in rows if r["kind"] == "mutation"]
    cnt = collections.Counter(r["outcome"] for r in rows)
    decided = sum(cnt[o] for o in DECIDED)
    out = [SECTION, "",
           f"`python3 tests/realworld/run.py --jobs 2 --time-limit 60` at {racer_rev}: {n} rows "
           f"({len(lib)} library kernels against a naive reference, {len(mut)} deliberate mutations), "
           f"{decided} decided, {wall:.0f} s wall on 2 cores. Library kernels: "
           f"{sum(r['outcome'] == 'proved' for r in lib)} proved equivalent"
           + "".join(f", {sum(r['outcome'] == 'refuted' for r in lib)} refuted (a genuine difference, inspected)"
                     for _ in [0] if any(r['outcome'] == 'refuted' for r in lib))
           + "; mutations: "
           f"{sum(r['outcome'] == 'refuted' for r in mut)} refuted with a manifest witness. "
           + ", ".join(f"{cnt[o]} {o}" for o in ("unknown", "refused", "rounding", "hidden", "error", "WRONG") if cnt[o])
           + ". Kernels are read from liger-kernel 0.8.5, flag-gems 5.0.2, fla-core 0.6.0, unsloth 2026.10.9, sglang 0.5.23, torchao 0.18.0, flashinfer-python 0.7.4, vllm 0.34.0, lmdeploy 0.18.0, xformers 0.0.35, bitsandbytes 0.50.2, deepspeed 0.19.8, gemlite 0.6.0.post2, lightllm 0.0.1, cut-cross-entropy 25.1.1, sageattention 1.0.6, lightning_attn 0.0.5, aqlm 1.1.7, mamba-ssm 2.3.2.post1, flash-attn 2.8.3.post2, colossalai 0.5.0, mlstm_kernels 2.0.6 and axolotl 0.21.0 "
           "(`tests/realworld/README.md`); `realworld` (ctest -L realworld) fails on a WRONG row or "
           "fewer decided rows than `tests/realworld/THRESHOLD`.", "", "```"]
    for r in rows:
        out.append(f"{r['file'][:-3] + '.' + r['name']:<62} {r['expect']:<12} {r.get('verdict') or '-':<20} "
                   f"{r['seconds']:6.1f} {r['outcome']}")
    out += ["```", "", "Reasons of the rows not decided, grouped (count, reason, rows):", ""]
    groups = collections.defaultdict(list)
    for r in rows:
        if r["outcome"] not in DECIDED:
            groups[(r["outcome"], group_of(r.get("group") or r["reason"]))].append(r)
    for (o, g), rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        out.append(f"- {len(rs)} {o}: {g} ({', '.join(r['name'] for r in rs)})")
    out += ["", "Every row's reason (first line):", ""]
    for r in rows:
        if r["outcome"] not in DECIDED:
            out.append(f"- {r['name']} ({r['outcome']}): {r['reason']}")
    return "\n".join(out) + "\n", decided


def write_section(path, text):
    old = open(path).read() if os.path.exists(path) else ""
    if SECTION in old:
        a = old.index(SECTION)
        m = re.search(r"^## ", old[a + len(SECTION):], re.M)
        old = old[:a] + text + ("\n" + old[a + len(SECTION) + m.start():] if m else "")
    else:
        old = old.rstrip("\n") + "\n\n" + text
    with open(path, "w") as f:
        f.write(old)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--only", help="regex over FILE.Class")
    ap.add_argument("--scoreboard", help="write the section into this markdown file")
    ap.add_argument("--threshold", default=os.path.join(HERE, "THRESHOLD"))
    ap.add_argument("--results", help="write every row as JSON lines here")
    args = ap.parse_args()
    rows = discover(args.only)
    print(f"{len(rows)} instances, {args.jobs} jobs, {args.time_limit:.0f} s each", flush=True)
    t0 = time.time()
    done = []
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for fut in cf.as_completed([ex.submit(check_row, r, args.time_limit) for r in rows]):
            r = fut.result()
            done.append(r)
            print(f"  {r['file'][:-3]}.{r['name']:<52} {r['outcome']:<8} {r['seconds']:6.1f} s"
                  + (f"  {r['reason'][:140]}" if r["reason"] else ""), flush=True)
    wall = time.time() - t0
    order = {(r["file"], r["name"]): i for i, r in enumerate(rows)}
    done.sort(key=lambda r: order[(r["file"], r["name"])])
    rev = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    text, decided = scoreboard(done, f"racer {rev or '?'}", wall)
    print("\n" + text)
    if args.results:
        with open(args.results, "w") as f:
            for r in done:
                f.write(json.dumps(r) + "\n")
    if args.scoreboard:
        write_section(args.scoreboard, text)
    wrong = [r for r in done if r["outcome"] == "WRONG"]
    status = 0
    if wrong:
        print(f"FAIL: {len(wrong)} WRONG rows: {', '.join(r['name'] for r in wrong)}")
        status = 1
    if not args.only and os.path.exists(args.threshold):
        need = int(open(args.threshold).read().split()[0])
        if decided < need:
            print(f"FAIL: {decided} rows decided, fewer than the {need} recorded in {args.threshold}")
            status = 1
        else:
            print(f"{decided} rows decided (threshold {need})")
    return status


if __name__ == "__main__":
    sys.exit(main())
