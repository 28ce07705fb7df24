"""The arrows between exec/'s parts (docs/ARCHITECTURE.md, "exec/ parts"), at the level of
#include: the asynchronous unit, the cluster unit and the scheduler see the machine only through
the access path (exec/access_path.hpp), never exec/machine.hpp; the asynchronous unit knows
neither the cluster unit nor the scheduler, and the cluster unit not the scheduler; Storage and
the DefectLog know none of them. A part's file that includes a header it must not see could
call into that part, which is what the split forbids.

Usage: exec_parts.py SOURCE_DIR. Prints every forbidden include as FILE:LINE and exits 1 when
there is one (or when a file named below is missing, so the table follows renames)."""
import os
import re
import sys

from layering import report

INCLUDE = re.compile(r'\s*#\s*include\s+"exec/([A-Za-z_]+)\.hpp"')

# part -> (its files in src/exec/, the exec/ headers it must not include)
MACHINE = {"machine"}
PARTS = {
    "asynchronous unit": (["async_unit.hpp", "async_state.hpp", "async_copy.cpp", "async_registers.cpp",
                           "async_landing.cpp", "mbarrier.cpp"],
                          MACHINE | {"cluster_unit", "scheduler"}),
    "cluster unit": (["cluster_unit.hpp", "cluster.hpp", "cluster.cpp", "store_async.cpp"],
                     MACHINE | {"scheduler"}),
    "scheduler": (["scheduler.hpp", "scheduler.cpp", "cta_barrier.hpp", "cta_barrier.cpp"], MACHINE),
    "access path interface": (["access_path.hpp", "context.hpp", "cta.hpp"],
                              MACHINE | {"async_unit", "cluster_unit", "scheduler"}),
    "storage": (["storage.hpp", "storage.cpp"],
                MACHINE | {"access_path", "async_unit", "cluster_unit", "scheduler", "context"}),
    "defect log": (["defect_log.hpp", "defect_log.cpp"],
                   MACHINE | {"access_path", "async_unit", "cluster_unit", "scheduler", "context"}),
}


def main(argv):
    exec_dir = os.path.join(argv[1], "src", "exec")
    problems = []
    for part, (files, forbidden) in PARTS.items():
        for name in files:
            path = os.path.join(exec_dir, name)
            if not os.path.exists(path):
                problems.append(f"src/exec/{name}: listed as a file of the {part} but missing")
                continue
            with open(path, errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) in forbidden:
                        problems.append(f"src/exec/{name}:{no}: the {part} includes exec/{m.group(1)}.hpp")
    return report(problems, f"{len(PARTS)} parts")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
