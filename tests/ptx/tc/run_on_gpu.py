#!/usr/bin/env python3
"""Runs every case of manifest.json on the GPU (CUDA driver API through ctypes: no package
beyond the driver) and writes the outputs: run_on_gpu.py manifest.json gpu_outputs.json
(each case in a child process: run_on_gpu.py --one manifest.json NAME prints its result).

The PTX is loaded as text (cuModuleLoadData: the driver compiles it), each kernel launched
once as one CTA with the case's block size, inputs copied in, the output copied back.
"""
import ctypes
import json
import os
import sys

cuda = ctypes.CDLL("libcuda.so.1")
_u64, _vp, _sz, _u32 = ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint
cuda.cuMemAlloc_v2.argtypes = [ctypes.POINTER(_u64), _sz]
cuda.cuMemcpyHtoD_v2.argtypes = [_u64, ctypes.c_char_p, _sz]
cuda.cuMemcpyDtoH_v2.argtypes = [_vp, _u64, _sz]
cuda.cuMemsetD8_v2.argtypes = [_u64, ctypes.c_ubyte, _sz]
cuda.cuMemFree_v2.argtypes = [_u64]
cuda.cuLaunchKernel.argtypes = [_vp, _u32, _u32, _u32, _u32, _u32, _u32, _u32, _vp, ctypes.POINTER(_vp), _vp]


def check(rc, what):
    if rc != 0:
        msg = ctypes.c_char_p()
        cuda.cuGetErrorString(rc, ctypes.byref(msg))
        raise RuntimeError("%s failed: %d %s" % (what, rc, msg.value))


def main():
    # Each case runs in its own process: a faulting kernel must not take the others with it.
    if sys.argv[1] != "--one":
        import subprocess
        man = json.load(open(sys.argv[1]))
        outputs, errors, info = {}, {}, {}
        for c in man["cases"]:
            r = subprocess.run([sys.executable, __file__, "--one", sys.argv[1], c["name"]], capture_output=True, text=True)
            if r.returncode == 0:
                res = json.loads(r.stdout.strip().splitlines()[-1])
                outputs[c["name"]] = res["outputs"][c["name"]]
                info = {"device": res["device"], "driver": res["driver"]}
                print("ran", c["name"], flush=True)
            else:
                errors[c["name"]] = (r.stdout + r.stderr)[-2000:]
                print("FAILED", c["name"], errors[c["name"]], flush=True)
        json.dump(dict(info, outputs=outputs, errors=errors), open(sys.argv[2], "w"), indent=0)
        return
    only = sys.argv[3]
    man = json.load(open(sys.argv[2]))
    man["cases"] = [c for c in man["cases"] if c["name"] == only]
    sys.argv[1] = sys.argv[2]
    ptx = open(os.path.join(os.path.dirname(sys.argv[1]), man["ptx"]), "rb").read() + b"\0"
    check(cuda.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    name = ctypes.create_string_buffer(256)
    cuda.cuDeviceGetName(name, 256, dev)
    drv = ctypes.c_int()
    cuda.cuDriverGetVersion(ctypes.byref(drv))
    ctx = ctypes.c_void_p()
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    mod = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(ptx)), "cuModuleLoadData")
    outputs = {}
    for c in man["cases"]:
        fn = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, c["entry"].encode()), "cuModuleGetFunction " + c["entry"])
        ptrs = []
        for k in ("a", "b", "c"):
            data = bytes.fromhex(c[k]) or b"\0" * 16
            p = ctypes.c_uint64()
            check(cuda.cuMemAlloc_v2(ctypes.byref(p), len(data)), "cuMemAlloc")
            check(cuda.cuMemcpyHtoD_v2(p, data, len(data)), "cuMemcpyHtoD")
            ptrs.append(p)
        out = ctypes.c_uint64()
        check(cuda.cuMemAlloc_v2(ctypes.byref(out), c["out_bytes"]), "cuMemAlloc")
        check(cuda.cuMemsetD8_v2(out, 0, c["out_bytes"]), "cuMemset")
        ptrs.append(out)
        args = (ctypes.c_void_p * 4)(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in ptrs])
        check(cuda.cuLaunchKernel(fn, 1, 1, 1, c["block"], 1, 1, c["shared"], None, args, None), "launch " + c["entry"])
        check(cuda.cuCtxSynchronize(), "sync " + c["entry"])
        host = ctypes.create_string_buffer(c["out_bytes"])
        check(cuda.cuMemcpyDtoH_v2(host, out, c["out_bytes"]), "cuMemcpyDtoH")
        outputs[c["name"]] = host.raw.hex()
        for p in ptrs:
            cuda.cuMemFree_v2(p)
    print(json.dumps({"device": name.value.decode(), "driver": drv.value, "outputs": outputs}))


main()
