"""The shared corpus with program B re-expressed as a NumPy reference: every instance whose
program B is one naive kernel with a counterpart in reference_library gives the same verdict
with the reference in its place (issue 21)."""
import glob
import json
import os
import tomllib

import pytest

from conftest import CORPUS
from racer import _native
from racer.reference import trace
from reference_library import reference_for


def _number(v):
    if isinstance(v, bool):
        return int(v)
    return v if isinstance(v, int) else repr(float(v))


def _arg(a):
    if isinstance(a, dict):
        for access in ("read", "write", "readwrite"):
            if access in a:
                return {"tensor": a[access], "access": access}
        if "null" in a:
            return {"null": True}
        (ty, v), = a.items()
        return {"scalar": _number(v), "type": ty}
    return {"scalar": _number(a)}


def _init(init):
    if isinstance(init, str):
        return init
    if "full" in init:
        return {"full": _number(init["full"])}
    return {"values": [_number(v) for v in init["values"]]}


def description(path, reference):
    d = tomllib.load(open(path, "rb"))
    base = os.path.dirname(path)
    tensors = []
    for name, t in d["tensors"].items():
        x = {"name": name, "shape": t["shape"], "dtype": t["dtype"], "init": _init(t["init"])}
        if "range" in t:
            x["range"] = [_number(v) for v in t["range"]]
        tensors.append(x)
    launches = []
    for l in d["a"]["launch"]:
        grid, block = l.get("grid", [1]), l.get("block", [1])
        launches.append({"ptx": os.path.normpath(os.path.join(base, l["ptx"])), "entry": l["entry"],
                         "grid": grid, "block": block, "shared_bytes": l.get("shared_bytes", 0),
                         "args": [_arg(a) for a in l["args"]]})
    desc = {"name": d["name"] + "_vs_numpy", "about": d["about"], "outputs": d["outputs"], "tensors": tensors,
            "a": launches, "b": []}
    desc["reference"] = trace(reference, tensors, d["outputs"])
    return desc, d["expect"]["verdict"]


def _cases():
    out = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "cases", "*.toml"))):
        d = tomllib.load(open(path, "rb"))
        b = d.get("b", {}).get("launch", [])
        if len(b) == 1 and reference_for(b[0]) is not None:
            out.append(pytest.param(path, id=os.path.basename(path)[:-5]))
    return out


CASES = _cases()


def test_enough_corpus_cases_have_a_numpy_counterpart():
    assert len(CASES) >= 15, [c.id for c in CASES]


@pytest.mark.parametrize("path", CASES)
def test_corpus_case_with_numpy_reference_gives_the_same_verdict(path):
    d = tomllib.load(open(path, "rb"))
    desc, expected = description(path, reference_for(d["b"]["launch"][0]))
    raw = _native.call(_native.core().check, json.dumps(desc), 120.0, 4096, 2)
    result = json.loads(raw["json"])
    got = result["verdict"]
    if expected == "not_equivalent":
        assert got != "equivalent", raw["text"]
    else:
        assert got == expected, raw["text"]
    if got == "inequivalent":
        assert result["counterexample"]["replay"]["kind"] == "manifest", raw["text"]
        assert "program b is the reference" in raw["text"], raw["text"]
