"""Turning one `racer check --json` run into an outcome, and reasons into groups.

Outcomes: correct; WRONG (equivalent on a mutant, inequivalent on a rewrite: a soundness bug);
unknown and refused (with their reason); rounding (the verdict equal_up_to_rounding, kept apart:
on a mutant, whose difference is ~10^4 ulps by construction, it deserves a look); other (crash,
internal error, timeout of the runner, unparsable output).
"""
import json
import re

# racer's exit codes: 0 equivalent, 1 inequivalent/defect, 2 unknown, 3 bad input or refusal,
# 4 internal, 5 equal up to rounding
EXIT_VERDICT = {0: "equivalent", 1: "inequivalent", 2: "unknown", 3: "refused", 5: "equal_up_to_rounding"}


def outcome(label, verdict):
    if verdict == label:
        return "correct"
    if {label, verdict} == {"equivalent", "inequivalent"}:
        return "WRONG"
    if verdict in ("unknown", "refused"):
        return verdict
    if verdict == "equal_up_to_rounding":
        return "rounding"
    return "other"


def parse_run(rc, stdout, stderr):
    """(verdict, reason, report dict or None) of one racer run."""
    try:
        rep = json.loads(stdout)
        return rep.get("verdict", "?"), rep.get("reason", "") or _unknown_cells(rep), rep
    except (ValueError, TypeError):
        pass
    msg = (stderr or stdout or "").strip()
    first = msg.splitlines()[0] if msg else f"exit {rc}, no output"
    if rc == 3:
        return "refused", first, None
    return f"error(rc={rc})", first, None


def _unknown_cells(rep):
    cells = rep.get("unknown_cells") or []
    if cells and isinstance(cells[0], dict):
        return str(cells[0].get("reason") or cells[0].get("why") or cells[0])
    return str(cells[0]) if cells else ""


_NORMALIZE = [
    (re.compile(r"\b[kt]\d{6}[ab]\b"), "K"),                       # generated kernel names
    (re.compile(r"batch(?:_triton)?\.(?:py|cu):\d+:\d+"), "SRC"),   # source positions
    (re.compile(r"PTX line \d+"), "PTX line N"),
    (re.compile(r"%[a-z]+\d+"), "%r"),                              # registers
    (re.compile(r"\((\d+,){2}\d+\)"), "(i,j,k)"),                   # CTA / thread ids
    (re.compile(r"\b0[fFxX][0-9A-Fa-f]+\b"), "HEX"),
    (re.compile(r"-?\b\d+(\.\d+)?(e-?\d+)?\b"), "N"),
    (re.compile(r"\b(x|y|z|out)\[[^\]]*\]"), r"\1[..]"),
]


_WHERE = re.compile(r"^program [ab], launch \d+ \([^)]*\), CTA \([^)]*\), thread \([^)]*\), PTX line \d+"
                    r"(?: \([^)]*\))?: (\S+)")


def reason_key(reason):
    """A group for a reason: the failing instruction's opcode (if the reason names one) and the
    first line that says why, with names, numbers and positions taken out."""
    lines = [l.strip() for l in (reason or "").strip().splitlines() if l.strip()]
    if not lines:
        return "(no reason given)"
    m = _WHERE.match(lines[0])
    r = f"{m.group(1)}: {lines[1] if len(lines) > 1 else ''}" if m else lines[0]
    r = re.sub(r"(rounding allows \S+ here\)).*", r"\1", r)   # drop the long list of input values
    for pat, rep in _NORMALIZE:
        r = pat.sub(rep, r)
    return r[:160]
