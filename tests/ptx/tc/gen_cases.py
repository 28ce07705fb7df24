#!/usr/bin/env python3
"""Writes kernels.cu (one-feature kernels for the tensor-core and async-copy families) and
manifest.json (per case: the entry, launch shape and the concrete input bytes).

Every kernel has the signature (const u8* a, const u8* b, const u8* c, u8* out). Inputs
are drawn with a fixed seed. Float inputs are small multiples of 1/4 (or of 1/16) so that
every product and every partial sum is exactly representable: the hardware's accumulation
order and rounding cannot show, and the expected outputs are the exact results. Cases
named *_measure use general inputs instead; they measure how far Racer's concrete model
(exact sum, rounded once) is from the tensor cores and are not compared exactly.

Usage: gen_cases.py  (writes beside itself); then nvcc -ptx (build_ptx.sh) and run
run_on_gpu.py on a GPU to make expected.json.
"""
import json
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(6)
cases = []
kernels = []


def f16(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bf16(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def quarters(n, lo=-3, hi=3, scale=0.25):
    return [rng.randint(lo, hi) * scale for _ in range(n)]


def pack(kind, vals):
    if kind == "f16":
        return b"".join(struct.pack("<H", f16(v)) for v in vals)
    if kind == "bf16":
        return b"".join(struct.pack("<H", bf16(v)) for v in vals)
    if kind in ("f32", "tf32"):
        return b"".join(struct.pack("<f", v) for v in vals)
    if kind == "s8":
        return b"".join(struct.pack("<b", v) for v in vals)
    if kind == "u8":
        return b"".join(struct.pack("<B", v) for v in vals)
    if kind == "s32":
        return b"".join(struct.pack("<i", v) for v in vals)
    raise ValueError(kind)


def elems(kind, n, measure=False):
    if kind in ("s8",):
        return [rng.randint(-128, 127) for _ in range(n)]
    if kind == "u8":
        return [rng.randint(0, 255) for _ in range(n)]
    if kind == "s32":
        return [rng.randint(-100000, 100000) for _ in range(n)]
    if measure:
        return [rng.gauss(0, 1) for _ in range(n)]
    return quarters(n)


def case(name, entry, a, b, c, out_bytes, block=32, shared=0, measure=False, what=""):
    cases.append({"name": name, "entry": entry, "block": block, "shared": shared, "out_bytes": out_bytes,
                  "a": a.hex(), "b": b.hex(), "c": c.hex(), "measure": measure, "what": what})


def ctype(kind):
    return {"f32": "float", "f16": "unsigned", "s32": "int"}[kind]


# ---------------------------------------------------------------- mma.sync
MMA = [  # name, shape, ab, acc, A regs, B regs, C regs
    ("f16_k16_f32", "m16n8k16", "f16", "f32", 4, 2, 4),
    ("f16_k16_f16", "m16n8k16", "f16", "f16", 4, 2, 2),
    ("f16_k8_f32", "m16n8k8", "f16", "f32", 2, 1, 4),
    ("bf16_k16_f32", "m16n8k16", "bf16", "f32", 4, 2, 4),
    ("bf16_k8_f32", "m16n8k8", "bf16", "f32", 2, 1, 4),
    ("tf32_k8_f32", "m16n8k8", "tf32", "f32", 4, 2, 4),
    ("tf32_k4_f32", "m16n8k4", "tf32", "f32", 2, 1, 4),
    ("s8_k16_s32", "m16n8k16", "s8", "s32", 2, 1, 4),
    ("s8_k32_s32", "m16n8k32", "s8", "s32", 4, 2, 4),
    ("u8_k32_s32", "m16n8k32", "u8", "s32", 4, 2, 4),
    ("u8_k16_s32", "m16n8k16", "u8", "s32", 2, 1, 4),
]


def regs_list(prefix, start, n):
    return ",".join("%%%d" % (start + i) for i in range(n))


def mma_kernel(name, shape, ab, acc, na, nb, nc, sat=False):
    entry = "mma_" + name + ("_sat" if sat else "")
    types = ".%s.%s.%s.%s" % (acc, ab, ab, acc)
    cv = "f" if acc == "f32" else "r"
    nd = nc
    outs = ", ".join('"=%s"(d[%d])' % (cv, i) for i in range(nd))
    ins = ", ".join(['"r"(a[%d])' % i for i in range(na)] + ['"r"(b[%d])' % i for i in range(nb)] +
                    ['"%s"(c[%d])' % (cv, i) for i in range(nc)])
    text = "mma.sync.aligned.%s.row.col%s%s {%s}, {%s}, {%s}, {%s};" % (
        shape, ".satfinite" if sat else "", types, regs_list("", 0, nd), regs_list("", nd, na),
        regs_list("", nd + na, nb), regs_list("", nd + na + nb, nc))
    t = ctype(acc)
    kernels.append("""
K %s(const u8* A, const u8* B, const u8* C, u8* O) {
  int l = threadIdx.x;
  unsigned a[%d], b[%d]; %s c[%d], d[%d];
  for (int i = 0; i < %d; ++i) a[i] = ((const unsigned*)A)[l * %d + i];
  for (int i = 0; i < %d; ++i) b[i] = ((const unsigned*)B)[l * %d + i];
  for (int i = 0; i < %d; ++i) c[i] = ((const %s*)C)[l * %d + i];
  asm volatile("%s" : %s : %s);
  for (int i = 0; i < %d; ++i) ((%s*)O)[l * %d + i] = d[i];
}""" % (entry, na, nb, t, nc, nd, na, na, nb, nb, nc, t, nc, text, outs, ins, nd, t, nd))
    per = 2 if ab in ("f16", "bf16") else 4 if ab in ("s8", "u8") else 1
    pa = pack(ab, elems(ab, 32 * na * per))
    pb = pack(ab, elems(ab, 32 * nb * per))
    if acc == "f16":
        pc = pack("f16", quarters(32 * nc * 2))
    elif acc == "f32":
        pc = pack("f32", quarters(32 * nc))
    else:
        cvals = elems("s32", 32 * nc)
        if sat:
            cvals = [2147483000 if i % 2 else -2147483000 for i in range(32 * nc)]
        pc = pack("s32", cvals)
    case("mma_" + name + ("_sat" if sat else ""), entry, pa, pb, pc, 32 * nd * 4,
         what="mma.sync.%s %s -> %s%s" % (shape, ab, acc, " satfinite" if sat else ""))
    if name == "f16_k16_f32":
        pa = pack(ab, elems(ab, 32 * na * per, True))
        pb = pack(ab, elems(ab, 32 * nb * per, True))
        pc = pack("f32", elems("f32", 32 * nc, True))
        case("mma_f16_k16_f32_measure", entry, pa, pb, pc, 32 * nd * 4, measure=True,
             what="mma.sync.m16n8k16 f16 -> f32, normal(0,1) inputs")


for m in MMA:
    mma_kernel(*m)
mma_kernel("s8_k32_s32", "m16n8k32", "s8", "s32", 4, 2, 4, sat=True)
# tf32 inputs with nonzero low 13 bits: the hardware reads only the tf32 bits.
cases.append(dict(cases[[c["name"] for c in cases].index("mma_tf32_k8_f32")]))
cases[-1]["name"] = "mma_tf32_k8_f32_lowbits"
cases[-1]["what"] = "mma.sync.m16n8k8 tf32 with garbage in the 13 low bits of every input"
vals = struct.unpack("<%dI" % (len(cases[-1]["a"]) // 8), bytes.fromhex(cases[-1]["a"]))
cases[-1]["a"] = struct.pack("<%dI" % len(vals), *[v | rng.randint(0, 0x1FFF) if v else v for v in vals]).hex()

# ---------------------------------------------------------------- ldmatrix / stmatrix
for n in (1, 2, 4):
    for trans in (False, True):
        entry = "ldmatrix_x%d%s" % (n, "_trans" if trans else "")
        outs = ", ".join('"=r"(d[%d])' % i for i in range(n))
        kernels.append("""
K %s(const u8* A, const u8* B, const u8* C, u8* O) {
  __shared__ __align__(128) u8 sm[1024];
  int l = threadIdx.x;
  for (int i = l; i < 256; i += 32) ((unsigned*)sm)[i] = ((const unsigned*)A)[i];
  __syncthreads();
  unsigned addr = (unsigned)__cvta_generic_to_shared(sm) + 16 * ((const unsigned*)C)[l];
  unsigned d[%d];
  asm volatile("ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 {%s}, [%%%d];" : %s : "r"(addr));
  for (int i = 0; i < %d; ++i) ((unsigned*)O)[l * %d + i] = d[i];
}""" % (entry, n, n, ".trans" if trans else "", regs_list("", 0, n), n, outs, n, n))
        rows = list(range(64))
        rng.shuffle(rows)
        case(entry, entry, pack("f16", quarters(512)), b"", pack("s32", rows[:32]), 32 * n * 4,
             what="ldmatrix .x%d%s" % (n, " .trans" if trans else ""))
        entry = "stmatrix_x%d%s" % (n, "_trans" if trans else "")
        ins = ", ".join('"r"(s[%d])' % i for i in range(n))
        kernels.append("""
K %s(const u8* A, const u8* B, const u8* C, u8* O) {
  __shared__ __align__(128) u8 sm[1024];
  int l = threadIdx.x;
  for (int i = l; i < 256; i += 32) ((unsigned*)sm)[i] = 0;
  __syncthreads();
  unsigned addr = (unsigned)__cvta_generic_to_shared(sm) + 16 * ((const unsigned*)C)[l];
  unsigned s[%d];
  for (int i = 0; i < %d; ++i) s[i] = ((const unsigned*)A)[l * %d + i];
  asm volatile("stmatrix.sync.aligned.m8n8.x%d%s.shared.b16 [%%0], {%s};" :: "r"(addr), %s : "memory");
  __syncthreads();
  for (int i = l; i < 256; i += 32) ((unsigned*)O)[i] = ((unsigned*)sm)[i];
}""" % (entry, n, n, n, n, ".trans" if trans else "", regs_list("", 1, n), ins))
        rows = list(range(64))
        rng.shuffle(rows)
        case(entry, entry, pack("f16", quarters(32 * n * 2)), b"", pack("s32", rows[:32]), 1024,
             what="stmatrix .x%d%s" % (n, " .trans" if trans else ""))

# ---------------------------------------------------------------- wmma
WMMA = [  # name, M, N, K, in type (C++), in kind, acc C++, acc kind, a layout, b layout, out layout
    ("f16_16x16x16_f32_rowcol", 16, 16, 16, "half", "f16", "float", "f32", "row", "col", "row"),
    ("f16_16x16x16_f32_colrow", 16, 16, 16, "half", "f16", "float", "f32", "col", "row", "col"),
    ("f16_32x8x16_f32", 32, 8, 16, "half", "f16", "float", "f32", "row", "row", "row"),
    ("f16_8x32x16_f32", 8, 32, 16, "half", "f16", "float", "f32", "row", "col", "row"),
    ("f16_16x16x16_f16", 16, 16, 16, "half", "f16", "half", "f16", "row", "col", "row"),
    ("bf16_16x16x16_f32", 16, 16, 16, "__nv_bfloat16", "bf16", "float", "f32", "row", "col", "row"),
    ("tf32_16x16x8_f32", 16, 16, 8, "wmma::precision::tf32", "tf32", "float", "f32", "row", "col", "row"),
    ("s8_16x16x16_s32", 16, 16, 16, "signed char", "s8", "int", "s32", "row", "col", "row"),
    ("u8_16x16x16_s32", 16, 16, 16, "unsigned char", "u8", "int", "s32", "row", "col", "row"),
]
for name, M, N, Kd, t, kind, acc_t, acc_kind, la, lb, lo in WMMA:
    entry = "wmma_" + name
    elt = "float" if kind == "tf32" else t
    kernels.append("""
K %s(const u8* A, const u8* B, const u8* C, u8* O) {
  wmma::fragment<wmma::matrix_a, %d, %d, %d, %s, wmma::%s_major> fa;
  wmma::fragment<wmma::matrix_b, %d, %d, %d, %s, wmma::%s_major> fb;
  wmma::fragment<wmma::accumulator, %d, %d, %d, %s> fc;
  wmma::load_matrix_sync(fa, (const %s*)A, %d);
  wmma::load_matrix_sync(fb, (const %s*)B, %d);
  wmma::load_matrix_sync(fc, (const %s*)C, %d, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync((%s*)O, fc, %d, wmma::mem_%s_major);
}""" % (entry, M, N, Kd, t, la, M, N, Kd, t, lb, M, N, Kd, acc_t,
        elt, Kd if la == "row" else M, elt, N if lb == "row" else Kd, acc_t, N, acc_t, N if lo == "row" else M, lo))
    cvals = elems(acc_kind if acc_kind == "s32" else "f32", M * N)
    case(entry, entry, pack(kind, elems(kind, M * Kd)), pack(kind, elems(kind, Kd * N)),
         pack(acc_kind, cvals), M * N * (2 if acc_kind == "f16" else 4),
         what="wmma load/mma/store %dx%dx%d %s -> %s, A %s B %s, D %s" % (M, N, Kd, kind, acc_kind, la, lb, lo))

# ---------------------------------------------------------------- cp.async
kernels.append("""
// Thread l copies 4 chunks of the source into shared memory with cp.async of every size and
// both cache modes, two commit groups; the output is the shared tile after the waits.
template <int MODE>
__device__ void cp_async_body(const u8* A, const u8* C, u8* O) {
  __shared__ __align__(128) u8 sm[2048];
  int l = threadIdx.x;
  for (int i = l; i < 512; i += 32) ((unsigned*)sm)[i] = 0xABABABABu;
  __syncthreads();
  unsigned base = (unsigned)__cvta_generic_to_shared(sm);
  const unsigned* sizes = (const unsigned*)C;  // per thread: src-size of its 16-byte copy
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(base + 4 * l), "l"(A + 4 * l) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(base + 128 + 8 * l), "l"(A + 128 + 8 * l) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(base + 384 + 16 * l), "l"(A + 384 + 16 * l) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" :: "r"(base + 896 + 16 * l), "l"(A + 896 + 16 * l), "r"(sizes[l]) : "memory");
  if (MODE == 0) {
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    __syncthreads();
    // The first group has landed: read it now (the second may still be in flight).
    for (int i = l; i < 96; i += 32) ((unsigned*)O)[512 + i] = ((unsigned*)sm)[i];
    asm volatile("cp.async.wait_group 0;" ::: "memory");
  } else {
    asm volatile("cp.async.wait_all;" ::: "memory");
  }
  __syncthreads();
  for (int i = l; i < 512; i += 32) ((unsigned*)O)[i] = ((unsigned*)sm)[i];
}
K cp_async_groups(const u8* A, const u8* B, const u8* C, u8* O) { cp_async_body<0>(A, C, O); }
K cp_async_wait_all(const u8* A, const u8* B, const u8* C, u8* O) { cp_async_body<1>(A, C, O); }""")
src = bytes(rng.randint(0, 255) for _ in range(2048))
sizes = [rng.choice([0, 1, 5, 8, 12, 16]) for _ in range(32)]
case("cp_async_groups", "cp_async_groups", src, b"", pack("s32", sizes), 2048 + 384,
     what="cp.async ca 4/8, cg 16, zero-fill with src-size; commit_group, wait_group 1, wait_group 0")
case("cp_async_wait_all", "cp_async_wait_all", src, b"", pack("s32", sizes), 2048,
     what="cp.async with wait_all (uncommitted copies)")

# ---------------------------------------------------------------- wgmma
WG = [  # name, N, ab, acc, swizzle A (0 none,1 128,2 64,3 32), lbo A, sbo A, tnspA, swizzle B, lbo B, sbo B, tnspB, reg A, scale_d, scale_a
    ("f16_n8_interleave", 8, "f16", "f32", 0, 128, 256, 0, 0, 128, 256, 0, False, 1, 1),
    ("f16_n16_sw128", 16, "f16", "f32", 1, 16, 1024, 0, 1, 16, 1024, 0, False, 1, 1),
    ("f16_n16_sw64", 16, "f16", "f32", 2, 16, 512, 0, 2, 16, 512, 0, False, 1, 1),
    ("f16_n16_sw32", 16, "f16", "f32", 3, 16, 256, 0, 3, 16, 256, 0, False, 1, 1),
    ("f16_n64_b_mn_sw128", 64, "f16", "f32", 2, 16, 512, 0, 1, 16, 1024, 1, False, 1, 1),
    ("f16_n16_a_mn_sw128_b_mn_none", 16, "f16", "f32", 1, 8192, 1024, 1, 0, 256, 128, 1, False, 1, 1),
    ("f16_n32_b_mn_sw64", 32, "f16", "f32", 0, 128, 256, 0, 2, 1024, 512, 1, False, 1, 1),
    ("f16_n16_rega_sw128", 16, "f16", "f32", 0, 0, 0, 0, 1, 16, 1024, 0, True, 1, 1),
    ("f16_n8_scaled0_nega", 8, "f16", "f32", 0, 128, 256, 0, 0, 128, 256, 0, False, 0, -1),
    ("bf16_n8_sw128", 8, "bf16", "f32", 1, 16, 1024, 0, 1, 16, 1024, 0, False, 1, 1),
    ("f16_n8_f16acc", 8, "f16", "f16", 1, 16, 1024, 0, 1, 16, 1024, 0, False, 1, 1),
    ("tf32_n8_sw128", 8, "tf32", "f32", 1, 16, 1024, 0, 1, 16, 1024, 0, False, 1, 1),
    ("s8_n8_interleave", 8, "s8", "s32", 0, 128, 256, 0, 0, 128, 256, 0, False, 1, 1),
]
for (name, N, ab, acc, swa, lboa, sboa, ta, swb, lbob, sbob, tb, rega, scd, sca) in WG:
    entry = "wgmma_" + name
    K_ = {"f16": 16, "bf16": 16, "tf32": 8, "s8": 32}[ab]
    nd = N // 4 if acc == "f16" else N // 2
    cv = "f" if acc == "f32" else "r"
    t = ctype(acc)
    fl = ab != "s8"
    dregs = regs_list("", 0, nd)
    if rega:
        a_op = "{%s}" % regs_list("", nd, 4)
        b_op = "%%%d" % (nd + 4)
        nxt = nd + 5
    else:
        a_op = "%%%d" % nd
        b_op = "%%%d" % (nd + 1)
        nxt = nd + 2
    tail = ", %%sd"
    if fl:
        tail += ", %d, 1" % sca
        if ab != "tf32":
            tail += (", %d" % tb) if rega else (", %d, %d" % (ta, tb))
    text = ("{ .reg .pred %%%%sd; setp.ne.b32 %%%%sd, %%%d, 0; wgmma.mma_async.sync.aligned.m64n%dk%d.%s.%s.%s {%s}, %s, %s%s; }"
            % (nxt, N, K_, acc, ab, ab, dregs, a_op, b_op, tail))
    outs = ", ".join('"+%s"(d[%d])' % (cv, i) for i in range(nd))
    ins = (['"r"(ra[%d])' % i for i in range(4)] if rega else ['"l"(da)']) + ['"l"(db)', '"r"(%d)' % scd]
    kernels.append("""
K %s(const u8* A, const u8* B, const u8* C, u8* O) {
  __shared__ __align__(1024) u8 sm[32768];
  int l = threadIdx.x;
  for (int i = l; i < 4096; i += 128) ((unsigned*)sm)[i] = ((const unsigned*)A)[i];
  for (int i = l; i < 4096; i += 128) ((unsigned*)sm)[4096 + i] = ((const unsigned*)B)[i];
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  unsigned long long base = (unsigned long long)__cvta_generic_to_shared(sm);
  unsigned long long da = desc(base, %d, %d, %d), db = desc(base + 16384, %d, %d, %d);
  unsigned ra[4];
  for (int i = 0; i < 4; ++i) ra[i] = ((const unsigned*)A)[l * 4 + i];
  %s d[%d];
  for (int i = 0; i < %d; ++i) d[i] = ((const %s*)C)[l * %d + i];
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("%s" : %s : %s : "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" : %s :: "memory");
  for (int i = 0; i < %d; ++i) ((%s*)O)[l * %d + i] = d[i];
}""" % (entry, lboa, sboa, swa, lbob, sbob, swb, t, nd, nd, t, nd, text, outs, ", ".join(ins), outs, nd, t, nd))
    per = 2 if ab in ("f16", "bf16") else 4 if ab == "s8" else 1
    ka = {"f16": "f16", "bf16": "bf16", "tf32": "tf32", "s8": "s8"}[ab]
    na = 16384 // (4 // per) // 4 * (4 // per) if False else 16384 * per // 4
    pa = pack(ka, elems(ka, na))
    pb = pack(ka, elems(ka, na))
    if rega:
        pa = pack(ka, elems(ka, 128 * 4 * per)) + pa[128 * 4 * 4:]
    if acc == "f16":
        pc = pack("f16", quarters(128 * nd * 2))
    elif acc == "f32":
        pc = pack("f32", quarters(128 * nd))
    else:
        pc = pack("s32", elems("s32", 128 * nd))
    case(entry, entry, pa, pb, pc, 128 * nd * 4, block=128,
         what="wgmma.mma_async m64n%dk%d %s -> %s, A %s, B swizzle %d%s%s" % (
             N, K_, ab, acc, "registers" if rega else "swizzle %d%s" % (swa, " MN-major" if ta else ""), swb,
             " MN-major" if tb else "", ", scale-d 0, scale-a -1" if scd == 0 else ""))
    if name == "f16_n16_sw128":
        case("wgmma_f16_n16_sw128_measure", entry, pack("f16", elems("f16", na, True)), pack("f16", elems("f16", na, True)),
             pack("f32", elems("f32", 128 * nd, True)), 128 * nd * 4, block=128, measure=True,
             what="wgmma m64n16k16 f16 -> f32, normal(0,1) inputs")

# ---------------------------------------------------------------- mbarrier + cp.async.bulk
kernels.append("""
__device__ bool try_wait_parity(unsigned bar, unsigned parity) {
  unsigned ok;
  asm volatile("{ .reg .pred %%pw; mbarrier.try_wait.parity.shared::cta.b64 %%pw, [%1], %2; selp.u32 %0, 1, 0, %%pw; }"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok;
}
__device__ bool test_wait_token(unsigned bar, unsigned long long token) {
  unsigned ok;
  asm volatile("{ .reg .pred %%pw; mbarrier.test_wait.shared::cta.b64 %%pw, [%1], %2; selp.u32 %0, 1, 0, %%pw; }"
               : "=r"(ok) : "r"(bar), "l"(token) : "memory");
  return ok;
}
__device__ void bulk_copy(unsigned dst, const void* src, unsigned bytes, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}
// Two phases of a transaction barrier (one arrival with expect_tx, two bulk copies each),
// waited for by parity 0 then 1; a 32-arrival barrier waited for by state token, then with
// an arrive_drop, then at 31 arrivals. The waits retry without bound (Racer refuses a wait
// whose outcome does more than decide a retry); out[2048..] keeps the slot where a bounded
// version recorded timeouts (none on the H200), now always 0.
K mbarrier_bulk(const u8* A, const u8* B, const u8* C, u8* O) {
  __shared__ __align__(128) u8 sm[2048];
  __shared__ __align__(8) unsigned long long bars[2];
  int l = threadIdx.x;
  unsigned full = (unsigned)__cvta_generic_to_shared(&bars[0]), all = (unsigned)__cvta_generic_to_shared(&bars[1]);
  unsigned base = (unsigned)__cvta_generic_to_shared(sm);
  if (l == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(full) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 32;" :: "r"(all) : "memory");
  }
  __syncthreads();
  unsigned fails = 0;
  for (int phase = 0; phase < 2; ++phase) {
    if (l == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(full) : "memory");
      bulk_copy(base + 1024 * phase, A + 1024 * phase, 512, full);
      bulk_copy(base + 1024 * phase + 512, A + 1024 * phase + 512, 512, full);
    }
    while (!try_wait_parity(full, phase)) {}
    for (int i = l; i < 256; i += 32) ((unsigned*)O)[256 * phase + i] = ((unsigned*)sm)[256 * phase + i];
    __syncthreads();  // keeps the producer from running two phases ahead (the parity would alias)
  }
  unsigned long long token;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(token) : "r"(all) : "memory");
  while (!test_wait_token(all, token)) {}
  if (l == 31) asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(all) : "memory");
  else asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(all) : "memory");
  while (!try_wait_parity(all, 1)) {}
  if (l != 31) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(all) : "memory");
  if (l != 31) {
    while (!try_wait_parity(all, 0)) {}
  }
  ((unsigned*)O)[512 + l] = fails;
}""")
case("mbarrier_bulk", "mbarrier_bulk", bytes(rng.randint(0, 255) for _ in range(2048)), b"", b"", 2048 + 128,
     what="mbarrier init / arrive.expect_tx / arrive / arrive_drop, try_wait.parity over two phases, test_wait by token, cp.async.bulk")

# ---------------------------------------------------------------- TMA
# A box of a 40 x 72 f16 tensor (the "a" input) at coordinates from "c" (partly outside the
# tensor: zero fill), through a tensor map passed by value, completing on an mbarrier; the
# output is the shared-memory image (the swizzle shows in it).
TMA = [("none", 0, 16, 32), ("sw64", 2, 16, 32), ("sw128", 3, 16, 64)]
for name, sw, br, bc in TMA:
    entry = "tma_load_" + name
    nbytes = br * bc * 2
    kernels.append("""
K %s(const __grid_constant__ CUtensorMap tm, const u8* B, const u8* C, u8* O) {
  __shared__ __align__(1024) u8 sm[%d];
  __shared__ __align__(8) unsigned long long bar;
  int l = threadIdx.x;
  for (int i = l; i < %d; i += 32) ((unsigned*)sm)[i] = 0xABABABABu;
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  if (l == 0) asm volatile("mbarrier.init.shared::cta.b64 [%%0], 1;" :: "r"(b) : "memory");
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (l == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%0], %d;" :: "r"(b) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%%0], [%%1, {%%2, %%3}], [%%4];"
                 :: "r"((unsigned)__cvta_generic_to_shared(sm)), "l"(&tm), "r"(((const int*)C)[0]), "r"(((const int*)C)[1]), "r"(b) : "memory");
  }
  while (!try_wait_parity(b, 0)) {}
  for (int i = l; i < %d; i += 32) ((unsigned*)O)[i] = ((unsigned*)sm)[i];
  ((unsigned*)O)[%d + l] = 0;  // was: the wait timed out (never, on the H200)
}""" % (entry, nbytes, nbytes // 4, nbytes, nbytes // 4, nbytes // 4))
    cases.append({"name": entry, "entry": entry, "block": 32, "shared": 0, "out_bytes": nbytes + 128,
                  "a": pack("f16", quarters(40 * 72)).hex(), "b": "", "c": pack("s32", [16, 32]).hex(),
                  "measure": False, "tma": [40, 72, br, bc, sw],
                  "what": "cp.async.bulk.tensor.2d box %dx%d of a 40x72 f16 tensor at (row 32, col 16), swizzle %s, OOB zero fill" % (br, bc, name)})

with open(os.path.join(HERE, "kernels.cu"), "w") as f:
    f.write("""// One-feature kernels for the tensor-core and asynchronous-copy families (issue 6).
// Generated by gen_cases.py; compiled to kernels.sm90a.ptx by build_ptx.sh.
#include <cuda.h>
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
using namespace nvcuda;
typedef unsigned char u8;
#define K extern "C" __global__ void

// A wgmma shared-memory matrix descriptor: start address, leading and stride byte offsets,
// swizzle mode (0 none, 1 128B, 2 64B, 3 32B).
__device__ unsigned long long desc(unsigned long long addr, unsigned lbo, unsigned sbo, unsigned swizzle) {
  return ((addr & 0x3FFFF) >> 4) | ((unsigned long long)(lbo >> 4) << 16) | ((unsigned long long)(sbo >> 4) << 32) |
         ((unsigned long long)swizzle << 62);
}
""")
    f.write("\n".join(kernels) + "\n")
with open(os.path.join(HERE, "manifest.json"), "w") as f:
    json.dump({"ptx": "kernels.sm90a.ptx", "cases": cases}, f, indent=0)
print(len(cases), "cases")
