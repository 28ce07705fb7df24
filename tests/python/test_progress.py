"""racer check on a terminal: a progress line after two seconds, none when piped or --quiet;
and a check stopped by its time limit still reports every cell it decided (issue 23)."""
import json
import os
import subprocess
import threading

import pytest

from conftest import RACER_BIN, ROOT, needs_racer_bin

pytestmark = needs_racer_bin

# Program a runs in a fraction of a second, program b in about two, and its 512 cells take
# about 30 s to decide one by one (--all-cells --no-shape-reduction: by default one refuted cell
# settles the output, and the 512 are one class): a time limit of a few seconds stops it while
# deciding.
SLOW = os.path.join(ROOT, "tests", "cases", "t_tc_15_flash_attention_no_rescale.toml")
ONE_BY_ONE = ("--all-cells", "--no-shape-reduction")


def run_with_terminal_stderr(*args):
    """Runs racer with stderr on a pseudo-terminal (stdout piped); returns (rc, stdout, stderr)."""
    master, slave = os.openpty()
    p = subprocess.Popen([RACER_BIN, *args], stdout=subprocess.PIPE, stderr=slave, cwd=ROOT)
    os.close(slave)
    chunks = []

    def drain():  # the terminal's buffer is small: read it while racer writes
        while True:
            try:
                b = os.read(master, 4096)
            except OSError:  # EIO once racer has closed the terminal
                break
            if not b:
                break
            chunks.append(b)

    reader = threading.Thread(target=drain)
    reader.start()
    out, _ = p.communicate(timeout=300)
    reader.join(timeout=30)
    os.close(master)
    return p.returncode, out.decode(), b"".join(chunks).decode(errors="replace")


def progress_lines(stderr):
    return [s for s in stderr.split("\r\x1b[K") if s.startswith("racer: ")]


def test_a_long_check_shows_its_progress_on_a_terminal_and_erases_it():
    rc, out, err = run_with_terminal_stderr("check", SLOW, *ONE_BY_ONE, "--time-limit", "6")
    lines = progress_lines(err)
    assert lines, f"no progress line on the terminal: {err!r}"
    assert all(not line.endswith("\n") for line in lines), "each progress line is rewritten in place, not scrolled"
    # Nothing before two seconds: the first line drawn already says 2 s or more.
    assert int(lines[0].rsplit(", ", 1)[1].split()[0]) >= 2, lines[0]
    assert any("executing program" in s or "self-check" in s or "deciding" in s for s in lines), lines
    deciding = [s for s in lines if s.startswith("racer: deciding: ")]
    for s in deciding:
        decided, total = s[len("racer: deciding: "):].split(" cells")[0].split(" of ")
        assert total == "512" and 0 <= int(decided) <= 512, s
    assert err.endswith("\r\x1b[K"), "the line is erased before the report"
    assert rc == 2 and "time limit" in out and "not reached" in out, out
    assert "racer: " not in out, "progress never goes to stdout"


def test_no_progress_when_stderr_is_piped_or_quiet():
    rc, out, err = run_with_terminal_stderr("check", SLOW, *ONE_BY_ONE, "--time-limit", "3", "--quiet")
    assert rc == 2 and progress_lines(err) == [] and err == "", repr(err)
    p = subprocess.run([RACER_BIN, "check", SLOW, *ONE_BY_ONE, "--time-limit", "3"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and p.stderr == "", repr(p.stderr)


def run_json(*args):
    p = subprocess.run([RACER_BIN, "check", SLOW, "--json", *args], capture_output=True, text=True, cwd=ROOT)
    return p.returncode, p


def check_json(*args):
    rc, p = run_json(*args)
    assert rc == 2, p.stdout + p.stderr
    return json.loads(p.stdout)


def runs_cover(out):
    """The outcome runs cover every cell once, in order, and add up to the counts."""
    runs = out["cell_outcomes"]
    assert runs[0]["first"] == 0 and runs[-1]["last"] == out["cells"] - 1
    for prev, run in zip(runs, runs[1:]):
        assert run["first"] == prev["last"] + 1 and run["outcome"] != prev["outcome"]
    for outcome in ("proved", "refuted", "unknown", "not_reached"):
        n = sum(r["last"] - r["first"] + 1 for r in runs if r["outcome"] == outcome)
        assert n == out[outcome], (outcome, n, out)


def limit_while_deciding(full):
    """A time limit a quarter of the way through deciding, from the phases of a complete run
    (how long each takes depends on the machine and its load)."""
    before = full["exec_seconds"] + full["self_check_seconds"]
    return before + (full["seconds"] - before) / 4


def stopped_while_deciding():
    """The report of a run stopped by a time limit while deciding. Load can make a run twice as
    fast as the one its limit was measured on: a run that completes under its limit is the
    measurement of the next attempt."""
    rc, p = run_json(*ONE_BY_ONE)
    for _ in range(3):
        full = json.loads(p.stdout)
        rc, p = run_json("--time-limit", f"{limit_while_deciding(full):.2f}", *ONE_BY_ONE)
        if rc != 1:
            break
    assert rc == 2, p.stdout + p.stderr
    return json.loads(p.stdout)


def test_a_time_limit_while_deciding_keeps_every_cell_decided_so_far():
    j = stopped_while_deciding()
    assert j["verdict"] == "unknown" and "time limit" in j["reason"], j["reason"]
    [out] = j["outputs"]
    assert out["tensor"] == "O" and out["cells"] == 512
    decided = out["proved"] + out["refuted"] + out["unknown"]
    assert decided > 0 and out["not_reached"] == 512 - decided > 0, out
    runs_cover(out)
    # Decided in row-major order: the cells not reached are the last ones.
    assert out["cell_outcomes"][-1] == {"outcome": "not_reached", "first": decided, "last": 511}
    assert out["refuted"] > 0 and j["counterexample"]["cell"] == "O[0,0]"


def test_a_time_limit_while_executing_lists_every_cell_as_not_reached():
    j = check_json("--time-limit", "0.3")
    assert j["reason"].startswith("running program ") and "time limit" in j["reason"], j["reason"]
    [out] = j["outputs"]
    assert out["not_reached"] == out["cells"] == 512
    assert out["cell_outcomes"] == [{"outcome": "not_reached", "first": 0, "last": 511}]


def test_corpus_shows_instances_checked_on_a_terminal_and_nothing_when_quiet_or_piped():
    # The shared corpus with the float hazard search's 24 inputs runs for several seconds.
    corpus = os.path.join(ROOT, "..", "shared", "corpus", "cases")
    rc, out, err = run_with_terminal_stderr("corpus", corpus, "--hazard-points", "24")
    assert rc == 0, out + err
    lines = progress_lines(err)
    assert lines, f"no progress line on the terminal: {err!r}"
    counts = [int(s.split("corpus: ", 1)[1].split(" of ")[0]) for s in lines]
    assert all(s.startswith("racer: corpus: ") and " of 47 instances checked, " in s for s in lines), lines
    assert counts == sorted(counts), "the count only grows"
    assert err.endswith("\r\x1b[K"), "the line is erased before the summary"
    rows = [r for r in out.splitlines() if r.endswith(("PASS", "FAIL"))]
    assert len(rows) == 47 and "racer: " not in out, "rows go to stdout whole, the line never does"
    rc, out, err = run_with_terminal_stderr("corpus", corpus, "--quiet")
    assert rc == 0 and progress_lines(err) == [], repr(err)


def test_the_python_api_hands_progress_to_a_callable():
    from racer.testing import check_toml
    seen = []
    r = check_toml(SLOW, progress=seen.append)
    assert r.verdict == "inequivalent"
    phases = [u["phase"] for u in seen]
    assert phases[0] == "executing" and "deciding" in phases, phases
    order = ["executing", "self-check", "deciding", "replaying"]
    assert [order.index(p) for p in phases] == sorted(order.index(p) for p in phases), "phases only move forward"
    executing = [u for u in seen if u["phase"] == "executing"]
    assert {u["program"] for u in executing} <= {"a", "b"} and executing[-1]["program"] == "b"
    decided = [u["cells_decided"] for u in seen if u["phase"] == "deciding"]
    assert decided == sorted(decided) and all(u["cells_total"] == 512 for u in seen if u["phase"] == "deciding")


def test_an_exception_in_the_progress_callable_is_raised_when_the_check_returns():
    from racer.errors import RacerError
    from racer.testing import check_toml

    class Stop(Exception):
        pass

    def stop(update):
        raise Stop(update["phase"])

    with pytest.raises(Stop, match="executing"):
        check_toml(SLOW, progress=stop)
    with pytest.raises(RacerError, match="progress must be None or a callable"):
        check_toml(SLOW, progress=3)
