#!/usr/bin/env python3
"""The float hazard search's share of checking time (issue 22): every case of a directory is
checked --runs times with the default search (3 inputs) and --runs times with
--no-float-hazards; per case the median of each. Prints a Markdown summary: the search's own
seconds (the report's float_hazards.seconds) over the whole check's, the end-to-end ratio of
the two modes, the hazards found, and the cases where the search costs most.

  python3 bench/hazard_bench.py ../shared/corpus/cases --runs 3
  python3 bench/hazard_bench.py tests/cases --runs 1
"""
import os

from check_runs import arguments, median, runs_in_two_modes


def main():
    a = arguments()
    rows = []
    for case, on, off in runs_in_two_modes(a, [], ["--no-float-hazards"]):
        search = median(on, lambda r: r.get("float_hazards", {}).get("seconds", 0.0))
        hazards = len(on[0].get("float_hazards", {}).get("hazards", []))
        rows.append((case.stem, median(on, lambda r: r.get("seconds", 0.0)), search,
                     median(off, lambda r: r.get("seconds", 0.0)), hazards))
    total_on = sum(r[1] for r in rows)
    total_search = sum(r[2] for r in rows)
    total_off = sum(r[3] for r in rows)
    print(f"{len(rows)} cases of {a.dir}, {a.runs} runs per mode, medians per case; {os.cpu_count()} cores.\n")
    print("| | seconds |")
    print("| --- | ---: |")
    print(f"| check time, hazard search on (default, sum of medians) | {total_on:.3f} |")
    print(f"| of which the hazard search | {total_search:.3f} ({100 * total_search / total_on:.1f}%) |")
    print(f"| check time, --no-float-hazards | {total_off:.3f} |")
    print(f"| ratio on / off | {total_on / total_off:.3f} |")
    print(f"\nCases with hazards: {sum(1 for r in rows if r[4])} ({sum(r[4] for r in rows)} hazards)\n")
    print("Cases where the search costs most:\n")
    print("| case | check s | search s | share |")
    print("| --- | ---: | ---: | ---: |")
    for r in sorted(rows, key=lambda r: -r[2])[:8]:
        print(f"| {r[0]} | {r[1]:.3f} | {r[2]:.3f} | {100 * r[2] / r[1] if r[1] else 0:.0f}% |")


if __name__ == "__main__":
    main()
