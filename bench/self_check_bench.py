#!/usr/bin/env python3
"""The self-check's share of checking time (issue 17): every case of a directory is checked
--runs times with the self-check on (its default, 2 points) and --runs times with
--self-check-points 0; per case the median of each. Prints a Markdown summary: the
self-check's own seconds (as the report times them) over the whole check's, the end-to-end
ratio of the two modes, and the cases where the self-check costs most.

  python3 bench/self_check_bench.py ../shared/corpus/cases --runs 3
  python3 bench/self_check_bench.py tests/cases --runs 3
"""
import os

from check_runs import arguments, median, runs_in_two_modes


def main():
    a = arguments()
    field = lambda k: lambda r: r.get(k, 0.0)
    rows = []
    for case, on, off in runs_in_two_modes(a, ["--self-check-points", "2"], ["--self-check-points", "0"]):
        rows.append((case.stem, median(on, field("seconds")), median(on, field("self_check_seconds")),
                     median(on, field("self_check_emulation_seconds")), median(off, field("seconds")),
                     on[0].get("self_check", "")))
    total_on = sum(r[1] for r in rows)
    total_sc = sum(r[2] for r in rows)
    total_emu = sum(r[3] for r in rows)
    total_off = sum(r[4] for r in rows)
    failed = [r[0] for r in rows if "FAILED" in r[5]]
    print(f"{len(rows)} cases of {a.dir}, {a.runs} runs per mode, medians per case; {os.cpu_count()} cores.\n")
    print("| | seconds |")
    print("| --- | ---: |")
    print(f"| check time, self-check on (sum of medians) | {total_on:.3f} |")
    print(f"| of which the self-check | {total_sc:.3f} ({100 * total_sc / total_on:.1f}%) |")
    print(f"| of which its emulator runs | {total_emu:.3f} |")
    print(f"| check time, self-check off | {total_off:.3f} |")
    print(f"| ratio on / off | {total_on / total_off:.3f} |")
    print(f"\nSelf-check failures: {len(failed)} {failed if failed else ''}\n")
    print("Cases where the self-check costs most:\n")
    print("| case | check s | self-check s | share |")
    print("| --- | ---: | ---: | ---: |")
    for r in sorted(rows, key=lambda r: -r[2])[:8]:
        print(f"| {r[0]} | {r[1]:.3f} | {r[2]:.3f} | {100 * r[2] / r[1] if r[1] else 0:.0f}% |")


if __name__ == "__main__":
    main()
