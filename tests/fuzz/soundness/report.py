"""The summary of a run: outcomes by label, reasons by group, the WRONG pairs, timing."""
import collections
import statistics

ORDER = ["correct", "WRONG", "unknown", "refused", "rounding", "other", "build_error", "gen_reject"]


def summarize(rows):
    """(text, list of WRONG rows)"""
    out = []
    by = collections.Counter((r["outcome"], r.get("label", "-")) for r in rows)
    labels = ["equivalent", "inequivalent"]
    out.append(f"{len(rows)} pairs")
    out.append(f"{'outcome':<12} {'rewrites':>9} {'mutants':>9} {'total':>7}")
    for o in ORDER + sorted({k[0] for k in by} - set(ORDER)):
        tot = sum(v for k, v in by.items() if k[0] == o)
        if tot or o in ("correct", "WRONG"):
            out.append(f"{o:<12} {by[(o, labels[0])]:>9} {by[(o, labels[1])]:>9} {tot:>7}")
    for o in ("unknown", "refused", "rounding", "other", "build_error", "gen_reject"):
        sel = [r for r in rows if r["outcome"] == o]
        if not sel:
            continue
        out.append(f"\n{o} by reason:")
        for key, n in collections.Counter(r.get("reason_key", "") for r in sel).most_common():
            ex = next(r for r in sel if r.get("reason_key", "") == key)
            out.append(f"  {n:5d}  {key}    (e.g. {ex.get('toml', ex['idx'])})")
    defects = [r for r in rows if r.get("defects")]
    if defects:
        out.append(f"\npairs with defects reported (none expected): {len(defects)}")
        for r in defects[:20]:
            out.append(f"  {r.get('toml')}: {r['defects']}")
    rounding_mut = [r for r in rows if r["outcome"] == "rounding" and r.get("label") == "inequivalent"]
    if rounding_mut:
        out.append("\nequal_up_to_rounding on a MUTANT (its model difference is far above rounding):")
        for r in rounding_mut:
            out.append(f"  {r['toml']}  model rel. difference {r.get('model_rel', 0):.3g}  {r.get('how')}")
    wrong = [r for r in rows if r["outcome"] == "WRONG"]
    out.append(f"\nWRONG verdicts: {len(wrong)}")
    for r in wrong:
        out.append(f"  {r['toml']}: expected {r['label']}, got {r['verdict']}; how {r.get('how')}")
        out.append(f"      A {r.get('a')}  {r.get('spec_a')}")
        out.append(f"      B {r.get('b')}  {r.get('spec_b')}")
    secs = [r["seconds"] for r in rows if "seconds" in r]
    if secs:
        out.append(f"\nracer time per pair: median {statistics.median(secs):.3f} s, "
                   f"90th pct {sorted(secs)[int(0.9 * (len(secs) - 1))]:.3f} s, max {max(secs):.2f} s")
    return "\n".join(out), wrong
