"""Replays a witness on a real NVIDIA GPU: both programs run with CuPy at the witness inputs,
and the float outputs that differ are printed, so the bug can be seen happening on hardware.

    python3 python/racer/gpu_replay.py WITNESS.json      (or: racer replay --gpu WITNESS.json)

Pure Python (NumPy + CuPy): it runs on a GPU machine without Racer's C++ core, from the witness
file alone (it carries the instance, the PTX text and the entries' parameter types). Cells of input
tensors the witness does not mention are 0, and so are cells of "empty" tensors it gives no value
for, as in the CPU replay (racer replay)."""
import json
import os
import re
import sys
import tempfile
from fractions import Fraction

import numpy as np

_NUMPY = {"f64": np.float64, "f32": np.float32, "f16": np.float16, "i64": np.int64, "i32": np.int32,
          "i16": np.int16, "i8": np.int8, "u8": np.uint8, "bool": np.uint8, "bf16": np.uint16}
_SCALAR = {"f64": np.float64, "f32": np.float32, "f16": np.float16, "s64": np.int64, "s32": np.int32,
           "s16": np.int16, "s8": np.int8, "u64": np.uint64, "u32": np.uint32, "u16": np.uint16, "u8": np.uint8,
           "b64": np.uint64, "b32": np.uint32, "b16": np.uint16, "b8": np.uint8}


class ReplayError(Exception):
    pass


def _bf16_bits(x):
    """The bf16 nearest to x (round to nearest even), as its 16 bits."""
    b = int(np.array([x], dtype=np.float32).view(np.uint32)[0])
    return np.uint16(((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF)


def _element(dtype, value):
    if dtype == "bf16":
        return _bf16_bits(float(value))
    if dtype not in _NUMPY:
        raise ReplayError(f"tensors of {dtype} are not replayed on the GPU yet")
    t = _NUMPY[dtype]
    return t(float(value)) if np.issubdtype(t, np.floating) else t(int(value))


def _number(v):
    if isinstance(v, int):
        return v
    return {"inf": float("inf"), "-inf": float("-inf")}.get(v) or Fraction(v)


def _storage(t):
    return 1 + sum((d - 1) * s for d, s in zip(t["shape"], t["strides"]))


def _storage_offset(t, cell):
    off = 0
    for d, s in reversed(list(zip(t["shape"], t["strides"]))):
        off += (cell % d) * s
        cell //= d
    return off


def _cell_index(t, text):
    """The flat cell of "name[i,j]" in tensor t."""
    idx = [int(i) for i in text.split(",")]
    cell = 0
    for i, d in zip(idx, t["shape"]):
        cell = cell * d + i
    return cell


def initial_host_tensors(inst, values):
    """NumPy arrays of each tensor's storage, before the programs run."""
    host = []
    for t in inst["tensors"]:
        a = np.zeros(_storage(t), dtype=_NUMPY.get(t["dtype"], np.uint8))
        init = t["init"]
        if isinstance(init, dict):
            cells = [init["full"]] * int(np.prod(t["shape"])) if "full" in init else init["values"]
            for c, v in enumerate(cells):
                a[_storage_offset(t, c)] = _element(t["dtype"], _number(v))
        host.append(a)
    by_name = {t["name"]: i for i, t in enumerate(inst["tensors"])}
    for v in values:
        if v["kind"] == "input" and v["tensor"] >= 0:
            t = inst["tensors"][v["tensor"]]
            host[v["tensor"]][_storage_offset(t, v["cell"])] = _element(t["dtype"], Fraction(v["value"]))
        elif v["kind"] == "uninitialized":
            m = re.match(r"(\w+)\[([\d,]+)\]", v["name"])
            if m and m.group(1) in by_name:
                i = by_name[m.group(1)]
                t = inst["tensors"][i]
                host[i][_storage_offset(t, _cell_index(t, m.group(2)))] = _element(t["dtype"], Fraction(v["value"]))
    return host


def _scalar(type_name, v):
    t = _SCALAR.get(type_name)
    if t is None:
        raise ReplayError(f"a .{type_name} parameter is not replayed on the GPU yet")
    n = _number(v)
    if np.issubdtype(t, np.floating):
        return t(float(n))
    bits = np.dtype(t).itemsize * 8
    return t(int(n) & ((1 << bits) - 1)) if np.issubdtype(t, np.unsignedinteger) else t(int(n))


def run_program(cp, inst, which, host, workdir):
    """Runs program `which` on fresh device copies of the tensors; returns the device arrays."""
    dev = [cp.asarray(a) for a in host]
    for li, l in enumerate(inst[which]):
        path = os.path.join(workdir, f"{which}{li}.ptx")
        with open(path, "w") as f:
            f.write(l["ptx_text"])
        # Fail closed: a launch cupy's plain launch cannot make is refused, not run differently.
        if l.get("cluster"):
            raise ReplayError(f"launch {li} of program {which} declares clusters {l['cluster']}: "
                              "cluster launches are not replayed on the GPU yet")
        if any("tensor_map" in a for a in l["args"]):
            raise ReplayError(f"launch {li} of program {which} passes a tensor map: not replayed on the GPU yet")
        kernel = cp.RawModule(path=path).get_function(l["entry"])
        if l["shared_bytes"] > 48 * 1024:
            kernel.max_dynamic_shared_size_bytes = l["shared_bytes"]
        args = []
        for a, ty in zip(l["args"], l["param_types"]):
            if "tensor" in a:
                i = next(k for k, t in enumerate(inst["tensors"]) if t["name"] == a["tensor"])
                args.append(np.uint64(dev[i].data.ptr + a["offset"] * dev[i].itemsize))
            elif "null" in a:
                args.append(np.uint64(0))
            elif "scalar_tensor" in a:  # a one-cell input tensor's value
                i = next(k for k, t in enumerate(inst["tensors"]) if t["name"] == a["scalar_tensor"])
                args.append(_scalar(a.get("type") and _ptx_type(a["type"]) or ty, host[i].reshape(-1)[0].item()))
            else:
                args.append(_scalar(a.get("type") and _ptx_type(a["type"]) or ty, a["scalar"]))
        kernel(tuple(l["grid"]), tuple(l["block"]), tuple(args), shared_mem=l["shared_bytes"])
    cp.cuda.Device().synchronize()
    return dev


def evaluate_reference(inst, host):
    """Program b given as a reference (racer.reference): its graph evaluated in float64 at the
    host tensors and each output cell rounded once to its tensor's format; the tensors as
    run_program returns them. (The CPU replay evaluates it in long double, src/check/reference_eval.)"""
    import math
    ref = inst["reference"]
    index = {t["name"]: i for i, t in enumerate(inst["tensors"])}
    fns = {"exp": math.exp, "log": math.log, "sqrt": math.sqrt, "tanh": math.tanh, "erf": math.erf,
           "sin": math.sin, "cos": math.cos, "abs": abs}
    val = []
    for n in ref["nodes"]:
        op, args = n[0], n[1:]
        try:
            if op == "in":
                i = index[args[0]]
                t = inst["tensors"][i]
                v = _as_float(t["dtype"], host[i][_storage_offset(t, args[1])])
            elif op == "c":
                v = float(Fraction(args[0]))
            elif op in ("inf", "-inf"):
                v = float(op)
            elif op == "pow":
                v = val[args[0]] ** int(args[1])
            else:
                x = [val[a] for a in args]
                v = {"add": lambda: math.fsum(x), "mul": lambda: math.prod(x), "neg": lambda: -x[0],
                     "div": lambda: x[0] / x[1], "max": lambda: max(x), "min": lambda: min(x),
                     "lt": lambda: x[0] < x[1], "le": lambda: x[0] <= x[1], "eq": lambda: x[0] == x[1],
                     "ne": lambda: x[0] != x[1], "select": lambda: x[1] if x[0] else x[2]}.get(op, lambda: fns[op](x[0]))()
        except (ValueError, ZeroDivisionError, OverflowError):
            v = float("nan")
        val.append(v)
    out = [a.copy() for a in host]
    for name, cells in ref["outputs"].items():
        i = index[name]
        t = inst["tensors"][i]
        for c, nid in enumerate(cells):
            out[i][_storage_offset(t, c)] = _element(t["dtype"], val[nid]) if t["dtype"] == "bf16" else \
                np.array(val[nid]).astype(out[i].dtype)
    return out


def _ptx_type(scalar_type):
    return {"i64": "s64", "i32": "s32", "i16": "s16", "i8": "s8"}.get(scalar_type, scalar_type)


def _as_float(dtype, x):
    if dtype == "bf16":
        return float(np.array([int(x) << 16], dtype=np.uint32).view(np.float32)[0])
    return float(x)


def _cell_name(t, cell):
    idx = []
    for d in reversed(t["shape"]):
        idx.append(cell % d)
        cell //= d
    return f"{t['name']}[{','.join(str(i) for i in reversed(idx))}]"


def replay(witness, out=sys.stdout):
    """Returns the number of output cells whose bits differ between the programs."""
    try:
        import cupy as cp
        ndev = cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # no CuPy, no driver, no device
        raise ReplayError(f"no GPU to replay on: {e}") from None
    if ndev < 1:
        raise ReplayError("no GPU to replay on: CUDA sees no device")
    inst = witness.get("replay")
    if inst is None:
        raise ReplayError("the witness carries no instance (it was written by an older racer); "
                          "save it again with racer check --witness")
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print(f"{inst['name']}: replay at the witness on {name} (sm_{props['major']}{props['minor']}), "
          f"CUDA driver {cp.cuda.runtime.driverGetVersion()}", file=out)
    for v in witness["values"]:
        print(f"  {v['name']} = {v['value']}", file=out)
    host = initial_host_tensors(inst, witness["values"])
    with tempfile.TemporaryDirectory(prefix="racer-gpu-") as workdir:
        results = {w: evaluate_reference(inst, host) if w == "b" and inst.get("reference")
                   else run_program(cp, inst, w, host, workdir) for w in ("a", "b")}
    differing, compared, shown = 0, 0, []
    at_witness = None
    for oname in inst["outputs"]:
        i = next(k for k, t in enumerate(inst["tensors"]) if t["name"] == oname)
        t = inst["tensors"][i]
        a, b = cp.asnumpy(results["a"][i]), cp.asnumpy(results["b"][i])
        bits_a, bits_b = a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}")
        for cell in range(int(np.prod(t["shape"]))):
            off = _storage_offset(t, cell)
            compared += 1
            row = (_cell_name(t, cell), _as_float(t["dtype"], a[off]), _as_float(t["dtype"], b[off]),
                   int(bits_a[off]), int(bits_b[off]))
            if row[0] == witness.get("cell"):
                at_witness = row
            if row[3] != row[4]:
                differing += 1
                if len(shown) < 10:
                    shown.append(row)

    def show(r):
        return f"{r[0]}: a = {r[1]:.9g} (0x{r[3]:x}), b = {r[2]:.9g} (0x{r[4]:x})"

    if at_witness:
        print(f"witness cell {show(at_witness)}  {'DIFFER' if at_witness[3] != at_witness[4] else 'same bits'}", file=out)
    print(f"{differing} of {compared} output cells differ in their bits", file=out)
    for r in shown:
        print("  " + show(r), file=out)
    return differing


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: gpu_replay.py WITNESS.json", file=sys.stderr)
        return 3
    try:
        with open(argv[0]) as f:
            witness = json.load(f)
        if witness.get("format") != "racer-witness-1":
            raise ReplayError("not a racer-witness-1 file")
        return 1 if replay(witness) else 0
    except (OSError, ValueError, KeyError, ReplayError) as e:
        print(f"{argv[0]}: {e}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
