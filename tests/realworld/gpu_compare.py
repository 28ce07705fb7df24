#!/usr/bin/env python3
"""Runs both programs of real-world rows on a real GPU at random inputs of their boxes and prints
how far the outputs lie apart: evidence for what a compiled kernel really does where PTX leaves it
open (session 29: Triton's f16 wgmma accumulators unpacked before wgmma.wait_group).

  python3 tests/realworld/gpu_compare.py build OUT FILE.py CLASS [CLASS ...]   (here: compiles,
      writes OUT/CLASS.json, a racer-witness-1 file of the row at random inputs)
  python3 tests/realworld/gpu_compare.py run OUT/*.json                        (on the GPU machine:
      CuPy, python/racer/gpu_replay.py)

Each output: the cell count, the largest |b|, the largest |a - b| and the NaNs of a."""
import json
import os
import random
import re
import sys
import tempfile
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))


def _param_types(ptx, entry):
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\((.*?)\)", ptx, re.S)
    return [re.search(r"\.param\s+\.(\w+)", p).group(1) for p in m.group(1).split(",") if ".param" in p]


def _launches(ls):
    out = []
    for l in ls:
        with open(l["ptx"]) as f:
            text = f.read()
        out.append({"ptx_text": text, "entry": l["entry"], "grid": l["grid"], "block": l["block"],
                    "shared_bytes": l.get("shared_bytes", 0), "args": l["args"], "param_types": _param_types(text, l["entry"])})
    return out


def _random_value(rng, t):
    lo, hi = (float(Fraction(str(v))) for v in t.get("range", [-1, 1]))
    v = rng.uniform(lo, hi)
    if t["dtype"] == "f16":
        return float(np.float16(v))
    if t["dtype"] in ("f32", "bf16"):
        return float(np.float32(v))
    return int(round(v)) if t["dtype"][0] in "iu" else v


def build(out, path, names, seed=1):
    sys.path.insert(0, HERE)
    from racer.cli import load_instances
    from racer.instance import from_class
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    for cls in (c for c in load_instances(path) if c.__name__ in names):
        d = from_class(cls).description()
        tensors, values = [], []
        for i, t in enumerate(d["tensors"]):
            strides, acc = [], 1
            for s in reversed(t["shape"]):
                strides.insert(0, acc)
                acc *= s
            tensors.append({"name": t["name"], "shape": t["shape"], "strides": t.get("strides") or strides,
                            "dtype": t["dtype"], "init": t["init"]})
            if t["init"] == "input":
                for c in range(int(np.prod(t["shape"]))):
                    values.append({"kind": "input", "tensor": i, "cell": c, "value": str(Fraction(_random_value(rng, t))),
                                   "name": f"{t['name']}[{c}]"})
        inst = {"name": d["name"], "tensors": tensors, "outputs": d["outputs"], "a": _launches(d["a"]), "b": _launches(d["b"])}
        with open(os.path.join(out, cls.__name__ + ".json"), "w") as f:
            json.dump({"format": "racer-witness-1", "replay": inst, "values": values, "cell": None}, f)
        print(os.path.join(out, cls.__name__ + ".json"))


def run(files):
    import cupy as cp
    from racer import gpu_replay as g
    for path in files:
        with open(path) as f:
            w = json.load(f)
        inst = w["replay"]
        host = g.initial_host_tensors(inst, w["values"])
        with tempfile.TemporaryDirectory() as wd:
            res = {x: g.run_program(cp, inst, x, host, wd) for x in ("a", "b")}
        for name in inst["outputs"]:
            i = next(k for k, t in enumerate(inst["tensors"]) if t["name"] == name)
            t = inst["tensors"][i]
            a, b = ([g._as_float(t["dtype"], v) for v in cp.asnumpy(res[x][i]).reshape(-1)] for x in ("a", "b"))
            a, b = np.array(a), np.array(b)
            print(f"{path} {name}: {a.size} cells, max |b| {np.abs(b).max():.6g}, max |a - b| {np.abs(a - b).max():.6g}, "
                  f"NaN in a {int(np.isnan(a).sum())}")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "run":
        run(sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(3)
