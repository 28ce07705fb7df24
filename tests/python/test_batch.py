"""The distributed batch runner (python -m racer.batch): the shared corpus scored on a
two-worker Dask cluster the test starts on 127.0.0.1, one worker killed mid-run, and the
scoreboard identical to racer corpus's."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import CORPUS, RACER_BIN, ROOT, needs_racer_bin

distributed = pytest.importorskip("distributed", reason="needs dask distributed (scripts/install-deps.sh)")
from racer import batch  # noqa: E402

CASES = os.path.join(CORPUS, "cases")


def without_seconds(lines):
    return [re.sub(r"\s+\d+\.\d\d (PASS|FAIL)", r" \1", l) for l in lines]


def kill_a_busy_worker(cluster, client):
    """SIGKILLs a worker process while it is checking an instance; returns its address."""
    pids = client.run(os.getpid)
    deadline = time.time() + 60
    while time.time() < deadline:
        for addr, ws in list(cluster.scheduler.workers.items()):
            if ws.processing and addr in pids:
                os.kill(pids[addr], signal.SIGKILL)
                return addr
        time.sleep(0.01)
    raise AssertionError("no worker was busy to kill")


@needs_racer_bin
def test_batch_scores_the_corpus_like_racer_corpus_with_a_worker_killed(tmp_path):
    serial = subprocess.run([RACER_BIN, "corpus", CASES], capture_output=True, text=True, cwd=ROOT)
    files = batch.instance_files([CASES])
    cluster = batch.local_cluster(2, retries=3)
    lines, killed = [], []
    try:
        with distributed.Client(cluster) as client:
            def on_row(i, row, line):
                lines.append(line)
                if i == 1:
                    killed.append(kill_a_busy_worker(cluster, client))
            rows = batch.score(files, client, time_limit=60, retries=3, on_row=on_row)
            rerun = [t for t in cluster.scheduler.transition_log
                     if str(t[0]).startswith("racer-score-") and t[1] == "processing" and t[2] == "released"]
    finally:
        cluster.close()
    assert killed and rerun, "a task of the killed worker must have been given back and run again"
    passed = sum(r["pass"] for r in rows)
    assert without_seconds(lines + [f"{passed} passed, {len(rows) - passed} failed"]) == without_seconds(serial.stdout.splitlines())


def test_batch_command_line_on_a_local_cluster(tmp_path):
    d = tmp_path / "two"
    d.mkdir()
    from instance_files import copy_case
    copy_case("t_flt_01_sub_mul_distributed", d)
    copy_case("t_flt_02_sub_swapped", d, verdict="equivalent")
    junit = tmp_path / "j.xml"
    p = subprocess.run([sys.executable, "-m", "racer.batch", str(d), "--workers", "2", "--junit", str(junit)],
                       capture_output=True, text=True, env=dict(os.environ))
    assert p.returncode == 1, p.stderr[-3000:]
    assert p.stdout.splitlines()[-1] == "1 passed, 1 failed"
    assert "t_flt_02_sub_swapped" in p.stdout and 'failures="1"' in junit.read_text()
    bad = subprocess.run([sys.executable, "-m", "racer.batch", str(tmp_path / "missing")], capture_output=True, text=True)
    assert bad.returncode == 3 and "not a directory of instances" in bad.stderr
