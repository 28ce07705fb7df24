#!/usr/bin/env python3
"""Checks the reference model against a real GPU: runs every generated kernel of some pairs on the
device (CUDA driver API through ctypes, no other dependency) at random inputs of the box, and
compares its f32 outputs with `program.simulate` in float64.

The labels of mutants rest on the model, so the model must describe what the emitted kernels
really do (masks, shuffle partners, the shared-memory tree, Triton's masked lanes). This is the
independent check of that: a mismatch beyond f32 error is a bug in the generator, not in racer.

  python3 gpu_check.py build --seed S --pairs N --out DIR     (here: nvcc, Triton)
  python3 gpu_check.py run --out DIR                          (on a machine with a GPU)
"""
import argparse
import ctypes as C
import json
import os
import pickle
import random
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def cmd_build(args):
    from pairs import make_pair, draws
    from build import build_batch
    os.makedirs(args.out, exist_ok=True)
    jobs = []
    for first in range(0, args.pairs, 25):
        ps = [p for p, _ in (make_pair(args.seed, i) for i in range(first, min(first + 25, args.pairs))) if p]
        bdir = os.path.join(args.out, f"b{first:06d}")
        errs = build_batch(ps, bdir)
        for p in ps:
            if p.idx in errs:
                continue
            inp = draws(random.Random(f"gpu:{p.idx}"), p.shape, (p.a.spec, p.b.spec), k=2)[:2]
            jobs.append({"pair": p, "dir": os.path.relpath(bdir, args.out), "inputs": inp})
    with open(os.path.join(args.out, "jobs.pkl"), "wb") as f:
        pickle.dump(jobs, f)
    print(f"{len(jobs)} pairs built into {args.out}")


class Cuda:
    def __init__(self):
        self.l = C.CDLL("libcuda.so.1")
        self.ok(self.l.cuInit(0))
        dev = C.c_int()
        self.ok(self.l.cuDeviceGet(C.byref(dev), 0))
        self.ctx = C.c_void_p()
        self.ok(self.l.cuCtxCreate_v2(C.byref(self.ctx), 0, dev))

    def ok(self, r):
        if r != 0:
            raise RuntimeError(f"CUDA driver error {r}")

    def load(self, ptx):
        m = C.c_void_p()
        self.ok(self.l.cuModuleLoadData(C.byref(m), C.c_char_p(ptx.encode() + b"\0")))
        return m

    def func(self, m, name):
        f = C.c_void_p()
        self.ok(self.l.cuModuleGetFunction(C.byref(f), m, name.encode()))
        return f

    def alloc(self, arr):
        p = C.c_uint64()
        self.ok(self.l.cuMemAlloc_v2(C.byref(p), max(4, arr.nbytes)))
        self.ok(self.l.cuMemcpyHtoD_v2(p, arr.ctypes.data_as(C.c_void_p), arr.nbytes))
        return p

    def get(self, p, n):
        a = np.empty(n, np.float32)
        self.ok(self.l.cuMemcpyDtoH_v2(a.ctypes.data_as(C.c_void_p), p, a.nbytes))
        return a

    def launch(self, f, grid, block, params):
        holders = [C.c_uint64(v.value) if isinstance(v, C.c_uint64) else C.c_int32(v) for v in params]
        arr = (C.c_void_p * len(holders))(*[C.cast(C.byref(h), C.c_void_p) for h in holders])
        g = list(grid) + [1] * (3 - len(grid))
        b = list(block) + [1] * (3 - len(block))
        self.ok(self.l.cuLaunchKernel(f, *g, *b, 0, None, arr, None))
        self.ok(self.l.cuCtxSynchronize())


def cmd_run(args):
    import tomllib
    from program import simulate
    cu = Cuda()
    jobs = pickle.load(open(os.path.join(args.out, "jobs.pkl"), "rb"))
    worst, bad, n = [], 0, 0
    for job in jobs:
        p = job["pair"]
        inst = tomllib.load(open(os.path.join(args.out, job["dir"], f"p{p.idx:06d}.toml"), "rb"))
        for side in ("a", "b"):
            L = inst[side]["launch"][0]
            mod = cu.load(open(os.path.join(args.out, job["dir"], L["ptx"])).read())
            f = cu.func(mod, L["entry"])
            s = getattr(p, side)
            for inp in job["inputs"]:
                bufs = [cu.alloc(np.ascontiguousarray(inp[t], np.float32).ravel()) for t in ("x", "y", "z")]
                nout = p.shape.n if s.spec.kind == "elem" else p.shape.R
                out = cu.alloc(np.zeros(nout, np.float32))
                params = bufs + [out, p.shape.n, p.shape.S, p.shape.R]
                if s.impl.lang == "triton":
                    params += [C.c_uint64(0), C.c_uint64(0)]
                cu.launch(f, L["grid"], L["block"], params)
                got = cu.get(out, nout).astype(np.float64)
                want = simulate(s.spec, p.shape, s.impl, inp)
                rel = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
                n += 1
                worst.append((rel, p.name, side, s.impl.text()))
                if not rel <= 1e-3:
                    bad += 1
                    print(f"MISMATCH {p.name} {side} {s.impl.text()} {s.spec.text()}: rel {rel:.3g}")
                for b in bufs + [out]:
                    cu.l.cuMemFree_v2(b)
    worst.sort(reverse=True)
    res = {"kernel_runs": n, "mismatches": bad, "worst": worst[:10]}
    print(json.dumps(res, indent=1))
    if os.environ.get("OUT"):
        with open(os.path.join(os.environ["OUT"], "gpu_check.json"), "w") as f:
            json.dump(res, f, indent=1)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("build", "run"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    return cmd_build(args) if args.what == "build" else cmd_run(args)


if __name__ == "__main__":
    sys.exit(main() or 0)
