"""Scoring a library of instances on a cluster: Dask distributed fans the instance files out to
its workers and gathers one scoreboard, the one `racer corpus` prints for the same directories.

    python -m racer.batch DIR... [--scheduler tcp://HOST:8786 | --workers N] [--time-limit S]
                                 [--retries R] [--junit FILE]

Without --scheduler a local cluster of N worker processes (one thread each) is started on
127.0.0.1. Each instance runs in a worker process through the compiled core with its own time
limit (the check's, as in racer corpus). A worker that dies mid-check (killed, out of memory, a
crash) loses its instances to the scheduler, which runs them again on another worker up to
--retries times (Dask's allowed-failures); an instance whose runs all died is an error row. The
workers need this package and its core importable (pip install ., or the same PYTHONPATH).

Why Dask distributed rather than Ray: it installs from PyPI alone (no daemon or object store to
provision), its scheduler re-runs the tasks of a lost worker by itself, and a cluster is one
`dask scheduler` plus `dask worker` per machine, over plain TCP."""
import argparse
import json
import os
import sys


def instance_files(dirs):
    """The *.toml directly in each directory, sorted by name, directories in the order given (as
    `racer corpus` runs them)."""
    files = []
    for d in dirs:
        if not os.path.isdir(d):
            from .errors import RacerError
            raise RacerError(f"{d}: not a directory of instances")
        files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".toml"))
    return files


def score_one(path, time_limit):
    """Runs on a worker: (row as a dict, the scoreboard line)."""
    from . import _native
    row, line = _native.core().score_file(path, float(time_limit))
    return json.loads(row), line


def _lost_row(path, why):
    """The row of an instance no worker finished: an error, as racer corpus reports one."""
    from . import _native
    row = {"case": os.path.splitext(os.path.basename(path))[0], "file": path, "expected": "?", "got": "error",
           "replay": "", "seconds": 0.0, "pass": False, "why": why}
    return row, _native.core().scoreboard_line(json.dumps(row))


def score(files, client, time_limit=60, retries=3, on_row=None):
    """Submits every file to the cluster behind `client` and returns the rows in file order;
    on_row(index, row, line) is called in file order as soon as each row and all before it are in."""
    from dask.distributed import as_completed
    futures = {client.submit(score_one, f, time_limit, pure=False, retries=retries, key=f"racer-score-{i}"): i
               for i, f in enumerate(files)}
    done, rows, reported = {}, [None] * len(files), 0
    for fut in as_completed(list(futures)):
        i = futures.pop(fut)
        try:
            done[i] = fut.result()
        except Exception as e:  # KilledWorker after the allowed failures, or the task's own error
            done[i] = _lost_row(files[i], f"{type(e).__name__}: {e}".splitlines()[0])
        fut.release()  # gathered: a worker lost later takes nothing finished with it
        while reported in done:
            rows[reported] = done.pop(reported)
            if on_row:
                on_row(reported, *rows[reported])
            reported += 1
    return [r for r, _ in rows]


def local_cluster(workers, retries):
    """A cluster of `workers` processes on 127.0.0.1 (one thread each, no dashboard)."""
    import dask
    from dask.distributed import LocalCluster
    dask.config.set({"distributed.scheduler.allowed-failures": retries})
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m racer.batch", description=__doc__.split("\n\n")[0])
    p.add_argument("dirs", nargs="+", help="directories of .toml instances")
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local cluster size (default: CPU count)")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per instance (default 60)")
    p.add_argument("--retries", type=int, default=3, help="runs of an instance whose worker died (default 3)")
    p.add_argument("--junit", help="also write the rows as a JUnit XML report to this file")
    try:
        a = p.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 3
    if a.workers < 1 or a.retries < 0 or not a.time_limit >= 0 or a.time_limit == float("inf"):
        print("racer batch: --workers must be >= 1, --retries >= 0, --time-limit a finite number >= 0", file=sys.stderr)
        return 3
    from dask.distributed import Client
    from .errors import RacerError
    try:
        files = instance_files(a.dirs)
    except RacerError as e:
        print(e, file=sys.stderr)
        return 3
    cluster = None if a.scheduler else local_cluster(a.workers, a.retries)
    with Client(a.scheduler or cluster) as client:
        rows = score(files, client, a.time_limit, a.retries, on_row=lambda i, row, line: print(line, flush=True))
    if cluster is not None:
        cluster.close()
    passed = sum(r["pass"] for r in rows)
    if a.junit:
        from . import _native
        with open(a.junit, "w") as f:
            f.write(_native.core().junit([json.dumps(r) for r in rows], "racer batch"))
    print(f"{passed} passed, {len(rows) - passed} failed")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
