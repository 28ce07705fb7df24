#!/usr/bin/env python3
"""What nvcc and Triton emit, against what Racer accepts (issue 19's PTX audit).

Reads every PTX file it is given or finds (Triton's cache, Racer's nvcc cache, the shared corpus,
tests/cases, bench/), optionally compiling the repository's CUDA sources with nvcc -O3 for sm_80
and sm_90 first; lists every instruction form (opcode with its qualifiers) by base opcode, with
how often it occurs, whether `racer ptx parse` accepts the files that hold it, and whether the
opcode has semantics; then every file the parser rejects, with its errors. Writes Markdown.

  python3 scripts/ptx_audit.py --racer build/racer [--compile] > docs/PTX_COVERAGE.md
"""
import argparse
import collections
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
INSTR = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.:]*)")


def opcode_table():
    """Mnemonic -> enum name from the X-macro, and the enum names with a semantics handler."""
    text = (ROOT / "src/ptx/opcodes.hpp").read_text()
    table = dict((m, e) for e, m in re.findall(r'X\((\w+), "([^"]+)"\)', text))
    handled = set()
    for f in (ROOT / "src/sem").glob("*.cpp"):
        handled |= set(re.findall(r"\[size_t\(ptx::Op::(\w+)\)\]", f.read_text()))
    return table, handled


def base_of(form, table):
    parts = form.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in table:
            return ".".join(parts[:n])
    return None


def producer(text):
    if "NVIDIA NVVM Compiler" in text:
        return "nvcc"
    if "triton" in text.lower() or ".target sm_90a" in text:
        return "triton"
    return "other"


def compile_sources(out):
    files = []
    sources = list((ROOT / "tests/cases/kernels").glob("*.cu")) + list((ROOT / "tests/realworld/reference").glob("*.cu")) + \
        list((ROOT / "bench/scale").glob("*.cu"))
    for cu in sources:
        for arch in ("sm_80", "sm_90"):
            ptx = out / f"{cu.stem}.{arch}.ptx"
            r = subprocess.run(["nvcc", "-ptx", "-O3", f"-arch={arch}", "-I", str(cu.parent), str(cu), "-o", str(ptx)],
                               capture_output=True, text=True)
            if r.returncode == 0:
                files.append(ptx)
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--racer", default=str(ROOT / "build/racer"))
    ap.add_argument("--compile", action="store_true", help="also compile the repository's .cu files for sm_80 and sm_90")
    ap.add_argument("files", nargs="*", type=pathlib.Path)
    a = ap.parse_args()
    table, handled = opcode_table()
    home = pathlib.Path.home()
    files = list(a.files) or (list((home / ".triton/cache").rglob("*.ptx")) + list((home / ".cache/racer").glob("*.ptx")) +
                              list((ROOT.parent / "shared/corpus").rglob("*.ptx")) + list((ROOT / "tests/cases").rglob("*.ptx")) +
                              list((ROOT / "bench").rglob("*.ptx")))
    with tempfile.TemporaryDirectory() as tmp:
        if a.compile:
            files += compile_sources(pathlib.Path(tmp))
        forms = collections.Counter()
        where = collections.defaultdict(set)  # form -> producers/targets
        rejected = {}
        kinds = collections.Counter()
        for f in files:
            text = f.read_text(errors="replace")
            target = (re.search(r"^\.target\s+(\w+)", text, re.M) or [None, "?"])[1]
            who = producer(text)
            kinds[(who, target)] += 1
            for line in text.splitlines():
                line = line.split("//")[0]
                m = INSTR.match(line)
                # (a call's argument list continues over lines without a semicolon)
                if not m or (";" not in line and not m.group(1).startswith("call")) or line.strip().endswith(":") \
                        or line.lstrip().startswith("."):
                    continue
                forms[m.group(1)] += 1
                where[m.group(1)].add(f"{who} {target}")
            r = subprocess.run([a.racer, "ptx", "parse", str(f)], capture_output=True, text=True)
            if r.returncode != 0:
                rejected[f] = [l for l in r.stderr.splitlines() if "error:" in l][:5]
    bad_lines = collections.Counter()
    for errs in rejected.values():
        for e in errs:
            bad_lines[e.split("error:", 1)[1].strip()] += 1
    by_base = collections.defaultdict(list)
    for form, n in forms.items():
        by_base[base_of(form, table) or "(unknown)"].append((form, n))
    print("# PTX coverage: what nvcc and Triton emit, against what Racer accepts\n")
    print("Made by `python3 scripts/ptx_audit.py --racer build/racer --compile`. Files read, by producer and target:\n")
    for (who, target), n in sorted(kinds.items()):
        print(f"- {who} {target}: {n}")
    print(f"\n{len(files)} files, {sum(forms.values())} instructions, {len(forms)} distinct forms "
          f"(opcode with qualifiers), {len(by_base)} base opcodes. Files the parser rejects: {len(rejected)}.\n")
    print("| base opcode | semantics | forms | occurrences | emitted by | forms seen |")
    print("| --- | --- | --- | --- | --- | --- |")
    for base in sorted(by_base):
        fs = sorted(by_base[base], key=lambda x: -x[1])
        enum = table.get(base)
        sem = "yes" if enum in handled else ("parsed only" if enum else "not parsed")
        emitters = sorted(set().union(*(where[f] for f, _ in fs)))
        shown = ", ".join(f"`{f}`" for f, _ in fs[:6]) + (f" and {len(fs) - 6} more" if len(fs) > 6 else "")
        print(f"| `{base}` | {sem} | {len(fs)} | {sum(n for _, n in fs)} | {'; '.join(emitters)} | {shown} |")
    unseen = sorted(set(table) - set(by_base))
    print(f"\nIn Racer's opcode table but not emitted by any file read ({len(unseen)}): " +
          ", ".join(f"`{m}`" for m in unseen) + ".")
    print("\nA form listed with semantics is modelled for the operand kinds its handler takes; a handler still refuses, "
          "with the instruction, thread and reason, what it cannot model exactly on the data it meets (README, "
          "\"what the report says\"), such as `stmatrix` `.trans` over 32-bit data or `mul.hi` of symbolic integers.")
    print("\n## Rejected by the parser\n")
    if not rejected:
        print("None: every file read parses.")
    for msg, n in bad_lines.most_common():
        print(f"- {n} x {msg}")
    for f, errs in sorted(rejected.items()):
        print(f"- `{f.name}`: " + "; ".join(errs[:2]))


if __name__ == "__main__":
    sys.exit(main())
