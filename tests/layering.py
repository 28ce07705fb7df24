"""The layering rule at the level of #include: a file of layer L includes headers only of L and of
the layers L links, directly or through them (CMakeLists.txt's racer_layer DEPS). The linker
already refuses a call into a layer that is not linked; this also catches header-only use
(templates, inline functions, types), which the linker never sees.

Usage: layering.py SOURCE_DIR LAYER:DEPS:FILES...   (CMake passes one argument a layer: its name,
its layer dependencies and the files outside src/<name>/ it owns, comma-separated.)
Prints every forbidden include as FILE:LINE and exits 1 when there is one."""
import os
import re
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([A-Za-z_]+)/')
SOURCES = (".hpp", ".cpp", ".h", ".cuh", ".cu", ".inc")


def parse(specs):
    deps, files = {}, {}
    for spec in specs:
        name, direct, owned = (spec.split(":") + ["", ""])[:3]
        deps[name] = [d for d in direct.split(",") if d]
        files[name] = [f for f in owned.split(",") if f]
    return deps, files


def reachable(layer, deps):
    seen, todo = {layer}, [layer]
    while todo:
        for d in deps.get(todo.pop(), []):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def files_of(root, layer, owned):
    for base, _, names in os.walk(os.path.join(root, "src", layer)):
        for n in sorted(names):
            if n.endswith(SOURCES):
                yield os.path.join(base, n)
    for f in owned:
        yield os.path.join(root, f)


def main(argv):
    root, deps, files = argv[1], *parse(argv[2:])
    problems = []
    for layer in deps:
        allowed = reachable(layer, deps)
        for path in files_of(root, layer, files[layer]):
            with open(path, errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) in deps and m.group(1) not in allowed:
                        problems.append(f"{os.path.relpath(path, root)}:{no}: layer {layer} includes "
                                        f"{m.group(1)}/, which it does not link (it may use: {', '.join(sorted(allowed))})")
    return report(problems, f"{len(deps)} layers")


def report(problems, counted):
    """Prints each forbidden include and a summary; the exit status (1 when there is one)."""
    for p in problems:
        print(p)
    print(f"{counted}, {len(problems)} forbidden includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
