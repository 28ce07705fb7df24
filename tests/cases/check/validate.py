#!/usr/bin/env python3
"""Structural check of the checking instances in tests/cases (standard library only).

For every tests/cases/*.toml: parses with tomllib; name is [a-z0-9_], unique and equal to the
file stem; required keys present; outputs and every tensor an argument names are declared;
each launch's PTX exists, contains `.entry NAME`, and the argument count equals the entry's
.param count; init/values/range are well formed; [expect] uses the allowed words.
Usage: python3 tests/cases/check/validate.py [CASE.toml ...]
"""
import glob, os, re, sys, tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.dirname(HERE)
DTYPES = {"f64", "f32", "f16", "bf16", "fp8e4m3", "fp8e5m2", "i64", "i32", "i16", "i8", "u8", "bool"}
VERDICTS = {"equivalent", "inequivalent", "not_equivalent", "equal_up_to_rounding"}
KINDS = {"oob_write", "oob_read", "uninit_read", "race", "access_violation", "misaligned", "unmapped_read"}
CATEGORIES = {"sampled_input", "implicit_input", "unchecked_output", "below_tolerance", "race",
              "oob_read", "other", "none"}
_entries = {}

def entries(path):
    if path not in _entries:
        text = re.sub(r"//[^\n]*", "", open(path).read())
        found = {}
        for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)", text, re.S):
            found[m.group(1)] = len(re.findall(r"\.param\s", m.group(2)))
        _entries[path] = found
    return _entries[path]

def check(path, seen):
    errs = []
    def err(msg): errs.append(f"{os.path.basename(path)}: {msg}")
    try:
        c = tomllib.load(open(path, "rb"))
    except Exception as ex:
        return [f"{path}: TOML: {ex}"]
    stem = os.path.splitext(os.path.basename(path))[0]
    name = c.get("name")
    if name != stem: err(f"name {name!r} != file stem")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]+", name): err("bad name")
    if name in seen: err("duplicate name")
    seen.add(name)
    if not isinstance(c.get("about"), str) or "\n" in c["about"]: err("about must be one line")
    tensors = c.get("tensors", {})
    for tn, t in tensors.items():
        if t.get("dtype") not in DTYPES: err(f"tensor {tn}: dtype")
        shape = t.get("shape")
        if not (isinstance(shape, list) and shape and all(isinstance(s, int) and s > 0 for s in shape)):
            err(f"tensor {tn}: shape")
            continue
        n = 1
        for s in shape: n *= s
        init = t.get("init")
        if isinstance(init, dict):
            if "values" in init:
                if len(init["values"]) != n: err(f"tensor {tn}: {len(init['values'])} values for {n} cells")
                if not t["dtype"].startswith(("f", "bf")) and not all(isinstance(v, int) for v in init["values"]):
                    err(f"tensor {tn}: non-integer value in an integer tensor")
            elif "full" not in init: err(f"tensor {tn}: init table")
        elif init not in ("input", "empty", "zeros"): err(f"tensor {tn}: init")
        if "range" in t:
            r = t["range"]
            if not (isinstance(r, list) and len(r) == 2 and r[0] <= r[1]): err(f"tensor {tn}: range")
            if init != "input": err(f"tensor {tn}: range on a non-input tensor")
    outs = c.get("outputs")
    if not outs: err("no outputs")
    for o in outs or []:
        if o not in tensors: err(f"output {o} not declared")
    for prog in ("a", "b"):
        launches = c.get(prog, {}).get("launch", [])
        if not launches: err(f"program {prog} has no launch")
        for i, l in enumerate(launches):
            where = f"{prog}.launch[{i}]"
            ptx = os.path.join(os.path.dirname(path), l.get("ptx", ""))
            if not os.path.isfile(ptx):
                err(f"{where}: missing {l.get('ptx')}"); continue
            ents = entries(ptx)
            if l.get("entry") not in ents:
                err(f"{where}: no .entry {l.get('entry')} in {l['ptx']}"); continue
            args = l.get("args", [])
            if len(args) != ents[l["entry"]]:
                err(f"{where}: {len(args)} args for {ents[l['entry']]} params")
            for key in ("grid", "block"):
                v = l.get(key)
                if not (isinstance(v, list) and 1 <= len(v) <= 3 and all(isinstance(x, int) and x > 0 for x in v)):
                    err(f"{where}: {key}")
            for a in args:
                if isinstance(a, dict):
                    for acc in ("read", "write", "readwrite"):
                        if acc in a and a[acc] not in tensors: err(f"{where}: tensor {a[acc]} not declared")
    e = c.get("expect", {})
    if e.get("verdict") not in VERDICTS: err("expect.verdict")
    for d in e.get("diagnostics", None) if isinstance(e.get("diagnostics"), list) else [None]:
        if not (isinstance(d, str) and re.fullmatch(r"[ab]:(\w+)", d) and d[2:] in KINDS):
            err(f"expect.diagnostics {d!r}")
    if e.get("category") not in CATEGORIES: err("expect.category")
    if e.get("verdict") == "not_equivalent" and not any(d.endswith(":race") for d in e.get("diagnostics", [])):
        err("not_equivalent without a race diagnostic")
    return errs

def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(CASES, "*.toml")))
    seen, errs = set(), []
    for p in paths: errs += check(p, seen)
    for e in errs: print(e)
    print(f"{len(paths)} cases, {len(errs)} problems")
    return 1 if errs else 0

if __name__ == "__main__":
    sys.exit(main())
