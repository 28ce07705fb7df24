#!/usr/bin/env python3
"""Runs the cluster cases on the GPU and writes vectors.txt (inputs and the GPU's outputs):
    run_on_gpu.py cluster.sm90a.ptx vectors.txt
CUDA driver API through ctypes (no package beyond the driver); launches with a cluster shape
go through cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, the others through
cuLaunchKernel. Each case runs in its own process, so a fault cannot take the others along.
"""
import ctypes
import struct
import subprocess
import sys

# name, entry, grid, cluster (None: no cluster attribute), block, input words, output bytes
CASES = [
    ("sregs_cluster_2x2", "cluster_sregs", (4, 2, 1), (2, 2, 1), 32, [], 8 * 64),
    ("sregs_cluster_z2", "cluster_sregs", (2, 1, 4), (1, 1, 2), 32, [], 8 * 64),
    ("sregs_cluster_x4", "cluster_sregs", (8, 1, 1), (4, 1, 1), 32, [], 8 * 64),
    ("sregs_no_cluster", "cluster_sregs", (4, 1, 1), None, 32, [], 4 * 64),
    ("sregs_reqnctapercluster", "cluster_sregs_req", (4, 1, 1), None, 32, [], 4 * 64),
    ("dsmem_exchange_c4", "dsmem_exchange", (8, 1, 1), (4, 1, 1), 32, [(i * 2654435761) % 1000003 for i in range(256)], 256 * 16),
    ("dsmem_exchange_c2", "dsmem_exchange", (4, 1, 1), (2, 1, 1), 32, [(i * 40503 + 17) % 65521 for i in range(128)], 128 * 16),
    ("dsmem_atomic_c4", "dsmem_atomic", (8, 1, 1), (4, 1, 1), 32, [7], 2 * 4),
    ("dsmem_atomic_c2", "dsmem_atomic", (4, 1, 1), (2, 1, 1), 32, [11], 2 * 4),
    ("remote_mbarrier_c4", "remote_mbarrier", (8, 1, 1), (4, 1, 1), 32, [], 2 * 32 * 4),
    # TMA multicast: the input is a 40 x 72 f16 tensor behind a tensor map (param 0), box 16 x 32.
    ("tma_multicast_all_c2", "tma_multicast_all", (2, 1, 1), (2, 1, 1), 32, "f16", 2 * 257 * 4),
    ("tma_multicast_all_c4", "tma_multicast_all", (4, 1, 1), (4, 1, 1), 32, "f16", 4 * 257 * 4),
    ("tma_multicast_some_edge_c4", "tma_multicast_some_edge", (4, 1, 1), (4, 1, 1), 32, "f16", 4 * 257 * 4),
    # st.async / red.async into another CTA's shared memory, completing on its mbarrier.
    ("st_async_u32_c2", "st_async_u32", (4, 1, 1), (2, 1, 1), 32, [(i * 2654435761 + 7) % 2**32 for i in range(128)], 128 * 4),
    ("st_async_u32_c4", "st_async_u32", (8, 1, 1), (4, 1, 1), 32, [(i * 40503 + 17) % 2**32 for i in range(256)], 256 * 4),
    ("st_async_vec_c2", "st_async_vec", (4, 1, 1), (2, 1, 1), 32, [(i * 2246822519 + 3) % 2**32 for i in range(256)], 256 * 4),
    ("st_async_vec_c4", "st_async_vec", (4, 1, 1), (4, 1, 1), 32, [(i * 3266489917 + 5) % 2**32 for i in range(256)], 256 * 4),
    ("red_async_add_c2", "red_async_add", (4, 1, 1), (2, 1, 1), 32, [100] + [(i * 7919) % 100003 for i in range(32)], 2 * 4),
    ("red_async_add_c4", "red_async_add", (8, 1, 1), (4, 1, 1), 32, [2**32 - 5] + [(i * 104729) % 2**31 for i in range(32)], 2 * 4),
    ("red_async_ops_c2", "red_async_ops", (4, 1, 1), (2, 1, 1), 32, "ops", 2 * 9 * 4),
    ("red_async_ops_c4", "red_async_ops", (4, 1, 1), (4, 1, 1), 32, "ops", 1 * 9 * 4),
]
TMA = (40, 72, 16, 32, 0)  # rows, cols, box rows, box cols, swizzle (CUtensorMapSwizzle)


def ops_words():
    """red_async_ops: initial values (in[0..8]), operands (in[8..39]), inc/dec bounds (in[40], in[41])."""
    w = [(i * 2654435761 + 12345) % 2**32 for i in range(48)]
    w[4], w[5], w[6], w[7], w[40], w[41] = 3, 10, 0xFFFFFFFF, 0, 50, 20
    return w


def input_bytes(words):
    if words == "ops":
        words = ops_words()
    if words == "f16":  # exact small values: (i mod 97) / 4 - 12
        return struct.pack("<%de" % (TMA[0] * TMA[1]), *[(i % 97) / 4 - 12 for i in range(TMA[0] * TMA[1])])
    return struct.pack("<%dI" % len(words), *words) if words else b""

cuda = ctypes.CDLL("libcuda.so.1") if __name__ == "__main__" and "--list" not in sys.argv else None
_u64, _vp, _sz, _u32 = ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint


class LaunchAttribute(ctypes.Structure):  # CUlaunchAttribute: id, padding, a 64-byte value union
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", ctypes.c_uint * 16)]


class LaunchConfig(ctypes.Structure):  # CUlaunchConfig
    _fields_ = [("gridDimX", _u32), ("gridDimY", _u32), ("gridDimZ", _u32), ("blockDimX", _u32), ("blockDimY", _u32),
                ("blockDimZ", _u32), ("sharedMemBytes", _u32), ("hStream", _vp), ("attrs", ctypes.POINTER(LaunchAttribute)),
                ("numAttrs", _u32)]


CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4


def check(rc, what):
    if rc != 0:
        msg = ctypes.c_char_p()
        cuda.cuGetErrorString(rc, ctypes.byref(msg))
        raise RuntimeError("%s failed: %d %s" % (what, rc, msg.value))


def run_one(ptx_path, index):
    name, entry, grid, cluster, block, words, out_bytes = CASES[index]
    cuda.cuMemAlloc_v2.argtypes = [ctypes.POINTER(_u64), _sz]
    cuda.cuMemcpyHtoD_v2.argtypes = [_u64, ctypes.c_char_p, _sz]
    cuda.cuMemcpyDtoH_v2.argtypes = [_vp, _u64, _sz]
    cuda.cuMemsetD8_v2.argtypes = [_u64, ctypes.c_ubyte, _sz]
    cuda.cuLaunchKernel.argtypes = [_vp, _u32, _u32, _u32, _u32, _u32, _u32, _u32, _vp, ctypes.POINTER(_vp), _vp]
    cuda.cuLaunchKernelEx.argtypes = [ctypes.POINTER(LaunchConfig), _vp, ctypes.POINTER(_vp), _vp]
    check(cuda.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    dname = ctypes.create_string_buffer(256)
    cuda.cuDeviceGetName(dname, 256, dev)
    drv = ctypes.c_int()
    cuda.cuDriverGetVersion(ctypes.byref(drv))
    ctx = ctypes.c_void_p()
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    mod = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(open(ptx_path, "rb").read() + b"\0")), "cuModuleLoadData")
    fn = ctypes.c_void_p()
    check(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, entry.encode()), "cuModuleGetFunction " + entry)
    data = input_bytes(words) or b"\0" * 16
    inp, out = ctypes.c_uint64(), ctypes.c_uint64()
    check(cuda.cuMemAlloc_v2(ctypes.byref(inp), len(data)), "cuMemAlloc")
    check(cuda.cuMemcpyHtoD_v2(inp, data, len(data)), "cuMemcpyHtoD")
    check(cuda.cuMemAlloc_v2(ctypes.byref(out), out_bytes), "cuMemAlloc")
    check(cuda.cuMemsetD8_v2(out, 0, out_bytes), "cuMemset")
    args = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(inp), ctypes.c_void_p), ctypes.cast(ctypes.byref(out), ctypes.c_void_p))
    if words == "f16":
        # The tensor map over the input (CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6), dims and box
        # innermost first, zero fill outside, passed by value as param 0.
        rows, cols, br, bc, sw = TMA
        tma_map = ctypes.create_string_buffer(128)
        dims, strides = (ctypes.c_uint64 * 2)(cols, rows), (ctypes.c_uint64 * 1)(cols * 2)
        box, estr = (ctypes.c_uint32 * 2)(bc, br), (ctypes.c_uint32 * 2)(1, 1)
        check(cuda.cuTensorMapEncodeTiled(tma_map, 6, 2, ctypes.c_void_p(inp.value), dims, strides, box, estr, 0, sw, 0, 0),
              "cuTensorMapEncodeTiled")
        args[0] = ctypes.cast(tma_map, ctypes.c_void_p)
    if cluster is None:
        check(cuda.cuLaunchKernel(fn, grid[0], grid[1], grid[2], block, 1, 1, 0, None, args, None), "launch " + entry)
    else:
        attr = LaunchAttribute()
        attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value[0], attr.value[1], attr.value[2] = cluster
        cfg = LaunchConfig(grid[0], grid[1], grid[2], block, 1, 1, 0, None, ctypes.pointer(attr), 1)
        check(cuda.cuLaunchKernelEx(ctypes.byref(cfg), fn, args, None), "cuLaunchKernelEx " + entry)
    check(cuda.cuCtxSynchronize(), "sync " + entry)
    host = ctypes.create_string_buffer(out_bytes)
    check(cuda.cuMemcpyDtoH_v2(host, out, out_bytes), "cuMemcpyDtoH")
    print("device %s driver %d" % (dname.value.decode(), drv.value))
    print(host.raw.hex())


def main():
    if sys.argv[1] == "--one":
        run_one(sys.argv[2], int(sys.argv[3]))
        return
    ptx_path, dest = sys.argv[1], sys.argv[2]
    lines, header = [], None
    for i, (name, entry, grid, cluster, block, words, out_bytes) in enumerate(CASES):
        try:  # a wait that never completes must not hold the others up
            r = subprocess.run([sys.executable, __file__, "--one", ptx_path, str(i)], capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            print("FAILED", name, "timed out", flush=True)
            continue
        if r.returncode != 0:
            print("FAILED", name, (r.stdout + r.stderr)[-2000:], flush=True)
            continue
        header, hexout = r.stdout.strip().splitlines()[-2:]
        c = cluster or (0, 0, 0)
        lines.append("case %s %s %d %d %d %d %d %d %d %d" % ((name, entry) + tuple(grid) + tuple(c) + (block, out_bytes)))
        lines.append("in " + (input_bytes(words).hex() or "-"))
        if words == "f16":
            lines.append("tma %d %d %d %d %d" % TMA)
        lines.append("out " + hexout)
        print("ran", name, flush=True)
    with open(dest, "w") as f:
        f.write("# cluster cases run on the GPU by run_on_gpu.py: " + (header or "no device") + "\n")
        f.write("# case NAME ENTRY grid.x grid.y grid.z cluster.x cluster.y cluster.z (0 0 0: no cluster attribute) BLOCK OUT_BYTES\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
