// Runs each PTX instruction of ieee_ops.hpp on a real GPU over generated operands and compares
// the hardware's bits with the ieee model. Not part of the build: compile with
//   nvcc -std=c++20 -O2 -arch=sm_90 -Isrc -Itests/unit/exec tests/unit/exec/ieee_gpu_probe.cu \
//        src/exec/ieee_*.cpp -Xlinker -Bstatic -lgmp -Xlinker -Bdynamic -o probe
// and run `probe OUTDIR [filter]`: it prints per instruction the number of differences (exact
// models) or the histogram of ulp distances (approximate models), and writes OUTDIR/vectors.txt,
// a sample of (id, a, b, c, hardware result) lines from which ieee_gpu_vectors.inc is made.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ieee_gen.hpp"
#include "ieee_ops.hpp"

using namespace racer::ieee;
using namespace racer::ieee::test;
using u64 = unsigned long long;

#define KF_T float
#define KF_C "f"
#define KF_IN(v) __uint_as_float(static_cast<unsigned>(v))
#define KF_OUT(r) static_cast<u64>(__float_as_uint(r))
#define KD_T double
#define KD_C "d"
#define KD_IN(v) __longlong_as_double(static_cast<long long>(v))
#define KD_OUT(r) static_cast<u64>(__double_as_longlong(r))
#define KH_T unsigned short
#define KH_C "h"
#define KH_IN(v) static_cast<unsigned short>(v)
#define KH_OUT(r) static_cast<u64>(r)
#define KR_T unsigned
#define KR_C "r"
#define KR_IN(v) static_cast<unsigned>(v)
#define KR_OUT(r) static_cast<u64>(r)
#define KL_T unsigned long long
#define KL_C "l"
#define KL_IN(v) static_cast<unsigned long long>(v)
#define KL_OUT(r) static_cast<u64>(r)

using Kernel = void (*)(const u64*, const u64*, const u64*, u64*, int);
struct GpuOp {
  const char* id;
  Kernel k;
};
std::vector<GpuOp>& gpu_ops() {
  static std::vector<GpuOp> v;
  return v;
}
struct Reg {
  Reg(const char* id, Kernel k) { gpu_ops().push_back({id, k}); }
};

#define HEAD(ID)                                                                        \
  __global__ void k_##ID(const u64* A, const u64* B, const u64* C, u64* D, int n) {     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    if (i >= n) return;                                                                 \
    (void)A; (void)B; (void)C;
#define TAIL(ID) } static Reg reg_##ID(#ID, k_##ID);

#define OP1(ID, OK, IK, T)                                                            \
  HEAD(ID) OK##_T r; IK##_T x = IK##_IN(A[i]);                                         \
  asm volatile(T : "=" OK##_C(r) : IK##_C(x)); D[i] = OK##_OUT(r); TAIL(ID)
#define OP2(ID, OK, IK, T)                                                            \
  HEAD(ID) OK##_T r; IK##_T x = IK##_IN(A[i]), y = IK##_IN(B[i]);                       \
  asm volatile(T : "=" OK##_C(r) : IK##_C(x), IK##_C(y)); D[i] = OK##_OUT(r); TAIL(ID)
#define OP3(ID, OK, IK, T)                                                            \
  HEAD(ID) OK##_T r; IK##_T x = IK##_IN(A[i]), y = IK##_IN(B[i]), z = IK##_IN(C[i]);    \
  asm volatile(T : "=" OK##_C(r) : IK##_C(x), IK##_C(y), IK##_C(z)); D[i] = OK##_OUT(r); TAIL(ID)

#define CMP1(IK, TY, CMP, BIT)                                                          \
  asm volatile("{.reg .pred p; setp." CMP TY " p, %1, %2; selp.u32 %0, 1, 0, p;}"      \
               : "=r"(t) : IK##_C(x), IK##_C(y));                                     \
  m |= static_cast<u64>(t) << BIT;
#define SETP(ID, IK, TY)                                                                \
  HEAD(ID) IK##_T x = IK##_IN(A[i]), y = IK##_IN(B[i]); unsigned t; u64 m = 0;          \
  CMP1(IK, TY, "eq", 0) CMP1(IK, TY, "ne", 1) CMP1(IK, TY, "lt", 2) CMP1(IK, TY, "le", 3) \
  CMP1(IK, TY, "gt", 4) CMP1(IK, TY, "ge", 5) CMP1(IK, TY, "equ", 6) CMP1(IK, TY, "neu", 7) \
  CMP1(IK, TY, "ltu", 8) CMP1(IK, TY, "leu", 9) CMP1(IK, TY, "gtu", 10)                  \
  CMP1(IK, TY, "geu", 11) CMP1(IK, TY, "num", 12) CMP1(IK, TY, "nan", 13) D[i] = m; TAIL(ID)

#define TST1(OPN, BIT)                                                                  \
  asm volatile("{.reg .pred p; testp." OPN ".f32 p, %1; selp.u32 %0, 1, 0, p;}"         \
               : "=r"(t) : "f"(x));                                                   \
  m |= static_cast<u64>(t) << BIT;

// f32
OP2(add_rn_f32, KF, KF, "add.rn.f32 %0, %1, %2;")
OP2(add_rz_f32, KF, KF, "add.rz.f32 %0, %1, %2;")
OP2(add_rm_f32, KF, KF, "add.rm.f32 %0, %1, %2;")
OP2(add_rp_f32, KF, KF, "add.rp.f32 %0, %1, %2;")
OP2(add_rn_ftz_f32, KF, KF, "add.rn.ftz.f32 %0, %1, %2;")
OP2(add_rz_ftz_f32, KF, KF, "add.rz.ftz.f32 %0, %1, %2;")
OP2(add_rn_sat_f32, KF, KF, "add.rn.sat.f32 %0, %1, %2;")
OP2(sub_rn_f32, KF, KF, "sub.rn.f32 %0, %1, %2;")
OP2(sub_rm_ftz_f32, KF, KF, "sub.rm.ftz.f32 %0, %1, %2;")
OP2(mul_rn_f32, KF, KF, "mul.rn.f32 %0, %1, %2;")
OP2(mul_rz_f32, KF, KF, "mul.rz.f32 %0, %1, %2;")
OP2(mul_rm_f32, KF, KF, "mul.rm.f32 %0, %1, %2;")
OP2(mul_rp_f32, KF, KF, "mul.rp.f32 %0, %1, %2;")
OP2(mul_rn_ftz_f32, KF, KF, "mul.rn.ftz.f32 %0, %1, %2;")
OP2(mul_rz_ftz_f32, KF, KF, "mul.rz.ftz.f32 %0, %1, %2;")
OP2(mul_rm_ftz_f32, KF, KF, "mul.rm.ftz.f32 %0, %1, %2;")
OP2(mul_rp_ftz_f32, KF, KF, "mul.rp.ftz.f32 %0, %1, %2;")
OP2(mul_rn_sat_f32, KF, KF, "mul.rn.sat.f32 %0, %1, %2;")
OP2(div_rn_f32, KF, KF, "div.rn.f32 %0, %1, %2;")
OP2(div_rz_f32, KF, KF, "div.rz.f32 %0, %1, %2;")
OP2(div_rm_f32, KF, KF, "div.rm.f32 %0, %1, %2;")
OP2(div_rp_f32, KF, KF, "div.rp.f32 %0, %1, %2;")
OP2(div_rn_ftz_f32, KF, KF, "div.rn.ftz.f32 %0, %1, %2;")
OP2(div_approx_f32, KF, KF, "div.approx.f32 %0, %1, %2;")
OP2(div_approx_ftz_f32, KF, KF, "div.approx.ftz.f32 %0, %1, %2;")
OP2(div_full_f32, KF, KF, "div.full.f32 %0, %1, %2;")
OP2(div_full_ftz_f32, KF, KF, "div.full.ftz.f32 %0, %1, %2;")
OP2(min_f32, KF, KF, "min.f32 %0, %1, %2;")
OP2(max_f32, KF, KF, "max.f32 %0, %1, %2;")
OP2(min_ftz_f32, KF, KF, "min.ftz.f32 %0, %1, %2;")
OP2(max_ftz_f32, KF, KF, "max.ftz.f32 %0, %1, %2;")
OP2(min_nan_f32, KF, KF, "min.NaN.f32 %0, %1, %2;")
OP2(max_nan_f32, KF, KF, "max.NaN.f32 %0, %1, %2;")
OP2(min_xorsign_f32, KF, KF, "min.xorsign.abs.f32 %0, %1, %2;")
OP2(max_xorsign_f32, KF, KF, "max.xorsign.abs.f32 %0, %1, %2;")
OP2(copysign_f32, KF, KF, "copysign.f32 %0, %1, %2;")
SETP(setp_f32, KF, ".f32")
SETP(setp_ftz_f32, KF, ".ftz.f32")
OP3(fma_rn_f32, KF, KF, "fma.rn.f32 %0, %1, %2, %3;")
OP3(fma_rz_f32, KF, KF, "fma.rz.f32 %0, %1, %2, %3;")
OP3(fma_rm_f32, KF, KF, "fma.rm.f32 %0, %1, %2, %3;")
OP3(fma_rp_f32, KF, KF, "fma.rp.f32 %0, %1, %2, %3;")
OP3(fma_rn_ftz_f32, KF, KF, "fma.rn.ftz.f32 %0, %1, %2, %3;")
OP3(fma_rp_ftz_f32, KF, KF, "fma.rp.ftz.f32 %0, %1, %2, %3;")
OP3(fma_rn_sat_f32, KF, KF, "fma.rn.sat.f32 %0, %1, %2, %3;")
OP1(sqrt_rn_f32, KF, KF, "sqrt.rn.f32 %0, %1;")
OP1(sqrt_rz_f32, KF, KF, "sqrt.rz.f32 %0, %1;")
OP1(sqrt_rm_f32, KF, KF, "sqrt.rm.f32 %0, %1;")
OP1(sqrt_rp_f32, KF, KF, "sqrt.rp.f32 %0, %1;")
OP1(sqrt_rn_ftz_f32, KF, KF, "sqrt.rn.ftz.f32 %0, %1;")
OP1(rcp_rn_f32, KF, KF, "rcp.rn.f32 %0, %1;")
OP1(rcp_rz_f32, KF, KF, "rcp.rz.f32 %0, %1;")
OP1(rcp_rm_f32, KF, KF, "rcp.rm.f32 %0, %1;")
OP1(rcp_rp_f32, KF, KF, "rcp.rp.f32 %0, %1;")
OP1(rcp_rn_ftz_f32, KF, KF, "rcp.rn.ftz.f32 %0, %1;")
OP1(abs_f32, KF, KF, "abs.f32 %0, %1;")
OP1(abs_ftz_f32, KF, KF, "abs.ftz.f32 %0, %1;")
OP1(neg_f32, KF, KF, "neg.f32 %0, %1;")
OP1(neg_ftz_f32, KF, KF, "neg.ftz.f32 %0, %1;")
HEAD(testp_f32) float x = KF_IN(A[i]); unsigned t; u64 m = 0;
TST1("finite", 0) TST1("infinite", 1) TST1("number", 2) TST1("notanumber", 3)
TST1("normal", 4) TST1("subnormal", 5) D[i] = m; TAIL(testp_f32)
OP1(cvt_rni_f32_f32, KF, KF, "cvt.rni.f32.f32 %0, %1;")
OP1(cvt_rzi_f32_f32, KF, KF, "cvt.rzi.f32.f32 %0, %1;")
OP1(cvt_rmi_f32_f32, KF, KF, "cvt.rmi.f32.f32 %0, %1;")
OP1(cvt_rpi_f32_f32, KF, KF, "cvt.rpi.f32.f32 %0, %1;")
OP1(cvt_rpi_ftz_f32_f32, KF, KF, "cvt.rpi.ftz.f32.f32 %0, %1;")
OP1(cvt_sat_f32_f32, KF, KF, "cvt.sat.f32.f32 %0, %1;")
OP1(cvt_ftz_sat_f32_f32, KF, KF, "cvt.ftz.sat.f32.f32 %0, %1;")
OP1(cvt_rn_f16_f32, KH, KF, "cvt.rn.f16.f32 %0, %1;")
OP1(cvt_rz_f16_f32, KH, KF, "cvt.rz.f16.f32 %0, %1;")
OP1(cvt_rm_f16_f32, KH, KF, "cvt.rm.f16.f32 %0, %1;")
OP1(cvt_rp_f16_f32, KH, KF, "cvt.rp.f16.f32 %0, %1;")
OP1(cvt_rn_ftz_f16_f32, KH, KF, "cvt.rn.ftz.f16.f32 %0, %1;")
OP1(cvt_rn_sat_f16_f32, KH, KF, "cvt.rn.sat.f16.f32 %0, %1;")
OP1(cvt_rn_relu_f16_f32, KH, KF, "cvt.rn.relu.f16.f32 %0, %1;")
OP1(cvt_rn_satfinite_f16_f32, KH, KF, "cvt.rn.satfinite.f16.f32 %0, %1;")
OP1(cvt_rn_bf16_f32, KH, KF, "cvt.rn.bf16.f32 %0, %1;")
OP1(cvt_rz_bf16_f32, KH, KF, "cvt.rz.bf16.f32 %0, %1;")
OP1(cvt_rn_relu_bf16_f32, KH, KF, "cvt.rn.relu.bf16.f32 %0, %1;")
OP1(cvt_rn_satfinite_bf16_f32, KH, KF, "cvt.rn.satfinite.bf16.f32 %0, %1;")
OP1(cvt_rna_tf32_f32, KR, KF, "cvt.rna.tf32.f32 %0, %1;")
OP1(cvt_rna_satfinite_tf32_f32, KR, KF, "cvt.rna.satfinite.tf32.f32 %0, %1;")
OP1(cvt_f64_f32, KD, KF, "cvt.f64.f32 %0, %1;")
OP1(cvt_ftz_f64_f32, KD, KF, "cvt.ftz.f64.f32 %0, %1;")
OP1(cvt_rni_s32_f32, KR, KF, "cvt.rni.s32.f32 %0, %1;")
OP1(cvt_rzi_s32_f32, KR, KF, "cvt.rzi.s32.f32 %0, %1;")
OP1(cvt_rmi_s32_f32, KR, KF, "cvt.rmi.s32.f32 %0, %1;")
OP1(cvt_rpi_s32_f32, KR, KF, "cvt.rpi.s32.f32 %0, %1;")
OP1(cvt_rpi_ftz_s32_f32, KR, KF, "cvt.rpi.ftz.s32.f32 %0, %1;")
OP1(cvt_rzi_u32_f32, KR, KF, "cvt.rzi.u32.f32 %0, %1;")
OP1(cvt_rni_s64_f32, KL, KF, "cvt.rni.s64.f32 %0, %1;")
OP1(cvt_rzi_u64_f32, KL, KF, "cvt.rzi.u64.f32 %0, %1;")
OP1(cvt_rni_s16_f32, KH, KF, "cvt.rni.s16.f32 %0, %1;")
OP1(cvt_rzi_u16_f32, KH, KF, "cvt.rzi.u16.f32 %0, %1;")
OP1(rcp_approx_f32, KF, KF, "rcp.approx.f32 %0, %1;")
OP1(rcp_approx_ftz_f32, KF, KF, "rcp.approx.ftz.f32 %0, %1;")
OP1(sqrt_approx_f32, KF, KF, "sqrt.approx.f32 %0, %1;")
OP1(sqrt_approx_ftz_f32, KF, KF, "sqrt.approx.ftz.f32 %0, %1;")
OP1(rsqrt_approx_f32, KF, KF, "rsqrt.approx.f32 %0, %1;")
OP1(rsqrt_approx_ftz_f32, KF, KF, "rsqrt.approx.ftz.f32 %0, %1;")
OP1(ex2_approx_f32, KF, KF, "ex2.approx.f32 %0, %1;")
OP1(ex2_approx_ftz_f32, KF, KF, "ex2.approx.ftz.f32 %0, %1;")
OP1(lg2_approx_f32, KF, KF, "lg2.approx.f32 %0, %1;")
OP1(lg2_approx_ftz_f32, KF, KF, "lg2.approx.ftz.f32 %0, %1;")
OP1(sin_approx_f32_pi, KF, KF, "sin.approx.f32 %0, %1;")
OP1(sin_approx_f32_100pi, KF, KF, "sin.approx.f32 %0, %1;")
OP1(cos_approx_f32_pi, KF, KF, "cos.approx.f32 %0, %1;")
OP1(cos_approx_f32_100pi, KF, KF, "cos.approx.f32 %0, %1;")
OP1(sin_approx_f32, KF, KF, "sin.approx.f32 %0, %1;")
OP1(sin_approx_ftz_f32, KF, KF, "sin.approx.ftz.f32 %0, %1;")
OP1(cos_approx_f32, KF, KF, "cos.approx.f32 %0, %1;")
OP1(cos_approx_ftz_f32, KF, KF, "cos.approx.ftz.f32 %0, %1;")
OP1(tanh_approx_f32, KF, KF, "tanh.approx.f32 %0, %1;")
OP2(cvt_rn_f16x2_f32, KR, KF, "cvt.rn.f16x2.f32 %0, %1, %2;")
OP2(cvt_rn_relu_bf16x2_f32, KR, KF, "cvt.rn.relu.bf16x2.f32 %0, %1, %2;")
OP2(cvt_rn_satfinite_e4m3x2_f32, KH, KF, "cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;")
OP2(cvt_rn_satfinite_e5m2x2_f32, KH, KF, "cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;")
OP2(cvt_rn_satfinite_relu_e4m3x2_f32, KH, KF, "cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;")
// f64
OP2(add_rn_f64, KD, KD, "add.rn.f64 %0, %1, %2;")
OP2(add_rz_f64, KD, KD, "add.rz.f64 %0, %1, %2;")
OP2(add_rm_f64, KD, KD, "add.rm.f64 %0, %1, %2;")
OP2(add_rp_f64, KD, KD, "add.rp.f64 %0, %1, %2;")
OP2(mul_rn_f64, KD, KD, "mul.rn.f64 %0, %1, %2;")
OP2(mul_rz_f64, KD, KD, "mul.rz.f64 %0, %1, %2;")
OP2(div_rn_f64, KD, KD, "div.rn.f64 %0, %1, %2;")
OP2(div_rp_f64, KD, KD, "div.rp.f64 %0, %1, %2;")
OP2(min_f64, KD, KD, "min.f64 %0, %1, %2;")
OP2(max_f64, KD, KD, "max.f64 %0, %1, %2;")
SETP(setp_f64, KD, ".f64")
OP3(fma_rn_f64, KD, KD, "fma.rn.f64 %0, %1, %2, %3;")
OP3(fma_rz_f64, KD, KD, "fma.rz.f64 %0, %1, %2, %3;")
OP3(fma_rm_f64, KD, KD, "fma.rm.f64 %0, %1, %2, %3;")
OP3(fma_rp_f64, KD, KD, "fma.rp.f64 %0, %1, %2, %3;")
OP1(sqrt_rn_f64, KD, KD, "sqrt.rn.f64 %0, %1;")
OP1(sqrt_rm_f64, KD, KD, "sqrt.rm.f64 %0, %1;")
OP1(rcp_rn_f64, KD, KD, "rcp.rn.f64 %0, %1;")
OP1(rcp_approx_ftz_f64, KD, KD, "rcp.approx.ftz.f64 %0, %1;")
OP1(rsqrt_approx_f64, KD, KD, "rsqrt.approx.f64 %0, %1;")
OP1(rsqrt_approx_ftz_f64, KD, KD, "rsqrt.approx.ftz.f64 %0, %1;")
OP1(abs_f64, KD, KD, "abs.f64 %0, %1;")
OP1(neg_f64, KD, KD, "neg.f64 %0, %1;")
OP1(cvt_rni_f64_f64, KD, KD, "cvt.rni.f64.f64 %0, %1;")
OP1(cvt_rn_f32_f64, KF, KD, "cvt.rn.f32.f64 %0, %1;")
OP1(cvt_rz_f32_f64, KF, KD, "cvt.rz.f32.f64 %0, %1;")
OP1(cvt_rm_f32_f64, KF, KD, "cvt.rm.f32.f64 %0, %1;")
OP1(cvt_rp_f32_f64, KF, KD, "cvt.rp.f32.f64 %0, %1;")
OP1(cvt_rn_ftz_f32_f64, KF, KD, "cvt.rn.ftz.f32.f64 %0, %1;")
OP1(cvt_rn_sat_f32_f64, KF, KD, "cvt.rn.sat.f32.f64 %0, %1;")
OP1(cvt_rn_f16_f64, KH, KD, "cvt.rn.f16.f64 %0, %1;")
OP1(cvt_rni_s64_f64, KL, KD, "cvt.rni.s64.f64 %0, %1;")
OP1(cvt_rzi_u64_f64, KL, KD, "cvt.rzi.u64.f64 %0, %1;")
OP2(add_rn_f64_nan, KD, KD, "add.rn.f64 %0, %1, %2;")
OP2(sub_rn_f64_nan, KD, KD, "sub.rn.f64 %0, %1, %2;")
OP2(mul_rn_f64_nan, KD, KD, "mul.rn.f64 %0, %1, %2;")
OP2(div_rn_f64_nan, KD, KD, "div.rn.f64 %0, %1, %2;")
OP3(fma_rn_f64_nan, KD, KD, "fma.rn.f64 %0, %1, %2, %3;")
OP2(min_f64_nan, KD, KD, "min.f64 %0, %1, %2;")
OP2(max_f64_nan, KD, KD, "max.f64 %0, %1, %2;")
OP1(cvt_rzi_u32_f64, KR, KD, "cvt.rzi.u32.f64 %0, %1;")
OP1(cvt_rzi_s16_f64, KH, KD, "cvt.rzi.s16.f64 %0, %1;")
OP1(cvt_rzi_u16_f64, KH, KD, "cvt.rzi.u16.f64 %0, %1;")
OP1(cvt_rn_bf16_f64, KH, KD, "cvt.rn.bf16.f64 %0, %1;")
OP1(cvt_rmi_s32_f64, KR, KD, "cvt.rmi.s32.f64 %0, %1;")
// f16
OP2(add_rn_f16, KH, KH, "add.rn.f16 %0, %1, %2;")
OP2(add_rn_ftz_f16, KH, KH, "add.rn.ftz.f16 %0, %1, %2;")
OP2(add_rn_sat_f16, KH, KH, "add.rn.sat.f16 %0, %1, %2;")
OP2(sub_rn_f16, KH, KH, "sub.rn.f16 %0, %1, %2;")
OP2(mul_rn_f16, KH, KH, "mul.rn.f16 %0, %1, %2;")
OP2(mul_rn_ftz_f16, KH, KH, "mul.rn.ftz.f16 %0, %1, %2;")
OP2(min_f16, KH, KH, "min.f16 %0, %1, %2;")
OP2(max_f16, KH, KH, "max.f16 %0, %1, %2;")
OP2(min_nan_f16, KH, KH, "min.NaN.f16 %0, %1, %2;")
OP2(max_ftz_f16, KH, KH, "max.ftz.f16 %0, %1, %2;")
OP2(min_xorsign_f16, KH, KH, "min.xorsign.abs.f16 %0, %1, %2;")
SETP(setp_f16, KH, ".f16")
OP3(fma_rn_f16, KH, KH, "fma.rn.f16 %0, %1, %2, %3;")
OP3(fma_rn_ftz_f16, KH, KH, "fma.rn.ftz.f16 %0, %1, %2, %3;")
OP3(fma_rn_sat_f16, KH, KH, "fma.rn.sat.f16 %0, %1, %2, %3;")
OP3(fma_rn_relu_f16, KH, KH, "fma.rn.relu.f16 %0, %1, %2, %3;")
OP1(ex2_approx_f16, KH, KH, "ex2.approx.f16 %0, %1;")
OP1(tanh_approx_f16, KH, KH, "tanh.approx.f16 %0, %1;")
OP1(cvt_f32_f16, KF, KH, "cvt.f32.f16 %0, %1;")
OP1(cvt_f64_f16, KD, KH, "cvt.f64.f16 %0, %1;")
OP1(cvt_rni_s32_f16, KR, KH, "cvt.rni.s32.f16 %0, %1;")
OP1(cvt_rzi_s64_f16, KL, KH, "cvt.rzi.s64.f16 %0, %1;")
OP1(cvt_rzi_u32_f16, KR, KH, "cvt.rzi.u32.f16 %0, %1;")
OP1(cvt_rni_f16_f16, KH, KH, "cvt.rni.f16.f16 %0, %1;")
OP1(neg_f16, KH, KH, "neg.f16 %0, %1;")
OP1(abs_f16, KH, KH, "abs.f16 %0, %1;")
OP2(add_rn_f16x2, KR, KR, "add.rn.f16x2 %0, %1, %2;")
OP2(min_f16x2, KR, KR, "min.f16x2 %0, %1, %2;")
OP1(cvt_rn_satfinite_e4m3x2_f16x2, KH, KR, "cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;")
OP1(cvt_rn_satfinite_e5m2x2_f16x2, KH, KR, "cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;")
// bf16
OP2(add_rn_bf16, KH, KH, "add.rn.bf16 %0, %1, %2;")
OP2(sub_rn_bf16, KH, KH, "sub.rn.bf16 %0, %1, %2;")
OP2(mul_rn_bf16, KH, KH, "mul.rn.bf16 %0, %1, %2;")
OP2(min_bf16, KH, KH, "min.bf16 %0, %1, %2;")
OP2(max_bf16, KH, KH, "max.bf16 %0, %1, %2;")
OP2(min_nan_bf16, KH, KH, "min.NaN.bf16 %0, %1, %2;")
OP3(fma_rn_bf16, KH, KH, "fma.rn.bf16 %0, %1, %2, %3;")
OP3(fma_rn_relu_bf16, KH, KH, "fma.rn.relu.bf16 %0, %1, %2, %3;")
OP1(ex2_approx_ftz_bf16, KH, KH, "ex2.approx.ftz.bf16 %0, %1;")
OP1(tanh_approx_bf16, KH, KH, "tanh.approx.bf16 %0, %1;")
OP1(cvt_f32_bf16, KF, KH, "cvt.f32.bf16 %0, %1;")
OP1(cvt_f64_bf16, KD, KH, "cvt.f64.bf16 %0, %1;")
OP1(neg_bf16, KH, KH, "neg.bf16 %0, %1;")
OP1(abs_bf16, KH, KH, "abs.bf16 %0, %1;")
OP3(fma_rn_bf16x2, KR, KR, "fma.rn.bf16x2 %0, %1, %2, %3;")
// integers
OP1(cvt_rn_f32_s16, KF, KH, "cvt.rn.f32.s16 %0, %1;")
OP1(cvt_rzi_s8_f32, KH, KF, "cvt.rzi.s8.f32 %0, %1;")
OP2(copysign_f64, KD, KD, "copysign.f64 %0, %1, %2;")
OP2(div_rz_f64, KD, KD, "div.rz.f64 %0, %1, %2;")
OP2(div_rm_f64, KD, KD, "div.rm.f64 %0, %1, %2;")
OP1(sqrt_rp_f64, KD, KD, "sqrt.rp.f64 %0, %1;")
OP1(cvt_rn_f32_s32, KF, KR, "cvt.rn.f32.s32 %0, %1;")
OP1(cvt_rz_f32_s32, KF, KR, "cvt.rz.f32.s32 %0, %1;")
OP1(cvt_rm_f32_u32, KF, KR, "cvt.rm.f32.u32 %0, %1;")
OP1(cvt_rp_f32_s32, KF, KR, "cvt.rp.f32.s32 %0, %1;")
OP1(cvt_rn_sat_f32_s32, KF, KR, "cvt.rn.sat.f32.s32 %0, %1;")
OP1(cvt_rn_f16_s32, KH, KR, "cvt.rn.f16.s32 %0, %1;")
OP1(cvt_rz_f16_u32, KH, KR, "cvt.rz.f16.u32 %0, %1;")
OP1(cvt_rn_f32_s64, KF, KL, "cvt.rn.f32.s64 %0, %1;")
OP1(cvt_rz_f32_u64, KF, KL, "cvt.rz.f32.u64 %0, %1;")
OP1(cvt_rn_f64_s64, KD, KL, "cvt.rn.f64.s64 %0, %1;")
OP1(cvt_rm_f64_u64, KD, KL, "cvt.rm.f64.u64 %0, %1;")
// fp8
OP1(cvt_rn_f16x2_e4m3x2, KR, KH, "cvt.rn.f16x2.e4m3x2 %0, %1;")
OP1(cvt_rn_f16x2_e5m2x2, KR, KH, "cvt.rn.f16x2.e5m2x2 %0, %1;")

namespace {

std::uint64_t hash_id(const char* s) {
  std::uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
  return h;
}

std::vector<std::uint64_t> int_edges(int bits) {
  std::vector<std::uint64_t> e = {0, 1, 2, 3, 7};
  for (int k : {11, 12, 24, 25, 31, 32, 53, 54, 63, 64}) {
    if (k > bits) continue;
    std::uint64_t p = k == 64 ? 0 : std::uint64_t{1} << k;
    for (std::uint64_t d : {0ull, 1ull, 2ull, 3ull}) {
      e.push_back(p - 1 - d);
      e.push_back(p + d);
      e.push_back(~(p - 1 - d) + 1);  // negated
    }
  }
  return e;
}

// The operand triples of op (arity taken into account by the kernel only).
std::vector<std::array<std::uint64_t, 3>> inputs(const OpModel& op, int random_count) {
  Rng r(hash_id(op.id));
  std::vector<std::array<std::uint64_t, 3>> v;
  switch (op.gen) {
    case Gen::F16: return operands(Format::F16, op.arity, random_count, hash_id(op.id));
    case Gen::BF16: return operands(Format::BF16, op.arity, random_count, hash_id(op.id));
    case Gen::F32: return operands(Format::F32, op.arity, random_count, hash_id(op.id));
    case Gen::F64: return operands(Format::F64, op.arity, random_count, hash_id(op.id));
    case Gen::F32Sweep: {
      v = operands(Format::F32, 1, random_count / 2, hash_id(op.id));
      for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32) / 509; ++i) v.push_back({(i * 509) & 0xFFFFFFFFu, 0, 0});
      return v;
    }
    case Gen::F64NaN: {
      v = operands(Format::F64, op.arity, random_count, hash_id(op.id));
      for (auto& t : v) {
        for (auto& x : t) {
          if (r.chance(2)) {
            std::uint64_t payload = r.next() & 0xFFFFFFFFFFFFFull;
            if (payload == 0) payload = 1;
            x = (r.chance(2) ? 0xFFF0000000000000ull : 0x7FF0000000000000ull) | payload;
          }
        }
      }
      return v;
    }
    case Gen::F32Pi:
    case Gen::F32Pi100: {
      double range = op.gen == Gen::F32Pi ? 3.14159265358979 : 314.159265358979;
      for (int i = 0; i < random_count * 4; ++i) {
        double u = static_cast<double>(r.next() >> 11) * 0x1p-53 * 2 - 1;
        float x = static_cast<float>(u * range);
        std::uint32_t b;
        std::memcpy(&b, &x, 4);
        v.push_back({b, 0, 0});
      }
      return v;
    }
    case Gen::F16All:
    case Gen::BF16All:
    case Gen::U16All:
      for (std::uint64_t i = 0; i < 65536; ++i) v.push_back({i, 0, 0});
      return v;
    case Gen::F16X2:
    case Gen::BF16X2: {
      Format f = op.gen == Gen::F16X2 ? Format::F16 : Format::BF16;
      auto lo = operands(f, op.arity, random_count, hash_id(op.id));
      auto hi = operands(f, op.arity, random_count, hash_id(op.id) + 1);
      std::reverse(hi.begin(), hi.end());
      for (std::size_t i = 0; i < lo.size() && i < hi.size(); ++i) {
        v.push_back({lo[i][0] | hi[i][0] << 16, lo[i][1] | hi[i][1] << 16, lo[i][2] | hi[i][2] << 16});
      }
      return v;
    }
    case Gen::I32:
    case Gen::I64: {
      int bits = op.gen == Gen::I32 ? 32 : 64;
      for (std::uint64_t e : int_edges(bits)) v.push_back({e & bits_mask(bits), 0, 0});
      for (int i = 0; i < random_count; ++i) {
        int len = 1 + static_cast<int>(r.below(static_cast<std::uint64_t>(bits)));
        std::uint64_t x = r.next() & bits_mask(len);
        if (r.chance(2)) x = ~x + 1;
        v.push_back({x & bits_mask(bits), 0, 0});
      }
      return v;
    }
  }
  return v;
}

// Signed ordinal of a non-NaN value of f: adjacent values differ by one.
long ordinal(Format f, std::uint64_t b) {
  long m = static_cast<long>((b & ~sign_bit(f)) >> info(f).shift);
  return is_neg(f, b) ? -m : m;
}

struct Stats {
  long n = 0, diff = 0, special = 0;
  long hist[7] = {0, 0, 0, 0, 0, 0, 0};  // 0, 1, 2, 3, 4-7, 8-63, >= 64 ulps
  long max_ulp = 0;
  std::size_t max_at = 0;
  double max_abs = 0;
  std::vector<std::size_t> examples;
};

}  // namespace

int main(int argc, char** argv) {
  const char* outdir = argc > 1 ? argv[1] : ".";
  const char* filter = argc > 2 ? argv[2] : nullptr;
  std::string vpath = std::string(outdir) + "/vectors.txt";
  FILE* vec = std::fopen(vpath.c_str(), "w");
  const int random_count = 200000;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  long total_exact_diff = 0;
  for (const OpModel& model : all_ops()) {
    bool found = false;
    for (const GpuOp& g : gpu_ops()) found = found || std::strcmp(g.id, model.id) == 0;
    if (!found) std::printf("NO KERNEL for %s\n", model.id);
  }
  for (const GpuOp& g : gpu_ops()) {
    if (filter && !std::strstr(g.id, filter)) continue;
    const OpModel* op = find_op(g.id);
    if (!op) {
      std::printf("NO MODEL for %s\n", g.id);
      continue;
    }
    auto in = inputs(*op, random_count);
    int n = static_cast<int>(in.size());
    std::vector<u64> ha(n), hb(n), hc(n), hd(n);
    for (int i = 0; i < n; ++i) {
      ha[i] = in[i][0];
      hb[i] = in[i][1];
      hc[i] = in[i][2];
    }
    u64 *da, *db, *dc, *dd;
    size_t bytes = sizeof(u64) * n;
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMalloc(&dd, bytes);
    cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc.data(), bytes, cudaMemcpyHostToDevice);
    g.k<<<(n + 255) / 256, 256>>>(da, db, dc, dd, n);
    cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(hd.data(), dd, bytes, cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
    if (err != cudaSuccess) {
      std::printf("%s: CUDA error %s\n", g.id, cudaGetErrorString(err));
      continue;
    }
    // Compare in parallel.
    std::vector<u64> model(n);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (int i = static_cast<int>(t); i < n; i += static_cast<int>(threads)) model[i] = op->fn(ha[i], hb[i], hc[i]);
      });
    }
    for (auto& th : pool) th.join();
    Stats s;
    s.n = n;
    Format f = op->out;
    for (int i = 0; i < n; ++i) {
      if (model[i] == hd[i]) {
        s.hist[0]++;
        continue;
      }
      s.diff++;
      if (!op->approx) {
        if (s.examples.size() < 40) s.examples.push_back(static_cast<std::size_t>(i));
        continue;
      }
      bool sp = is_nan(f, model[i]) || is_nan(f, hd[i]) || is_inf(f, model[i]) || is_inf(f, hd[i]) ||
                is_neg(f, model[i]) != is_neg(f, hd[i]);
      if (sp) {
        s.special++;
        if (s.examples.size() < 40) s.examples.push_back(static_cast<std::size_t>(i));
        continue;
      }
      long u = std::labs(ordinal(f, model[i]) - ordinal(f, hd[i]));
      s.max_abs = std::max(s.max_abs, std::fabs(to_double(f, model[i]) - to_double(f, hd[i])));
      int b = u == 1 ? 1 : u == 2 ? 2 : u == 3 ? 3 : u < 8 ? 4 : u < 64 ? 5 : 6;
      s.hist[b]++;
      if (u > s.max_ulp) {
        s.max_ulp = u;
        s.max_at = static_cast<std::size_t>(i);
      }
    }
    if (!op->approx) total_exact_diff += s.diff;
    std::printf("%-34s n=%-9ld diff=%-8ld", g.id, s.n, s.diff);
    if (op->approx) {
      std::printf(" special=%ld ulps[0,1,2,3,4-7,8-63,64+]=", s.special);
      for (long h : s.hist) std::printf("%ld,", h);
      std::printf(" max=%ld abs=2^%.2f", s.max_ulp, s.max_abs > 0 ? std::log2(s.max_abs) : -999.0);
      if (s.max_ulp > 0) {
        std::size_t i = s.max_at;
        std::printf(" at a=%llx hw=%llx model=%llx", ha[i], hd[i], static_cast<unsigned long long>(model[i]));
      }
    }
    std::printf("\n");
    for (std::size_t k = 0; k < s.examples.size() && k < 8; ++k) {
      std::size_t i = s.examples[k];
      std::printf("    a=%llx b=%llx c=%llx hw=%llx model=%llx\n", ha[i], hb[i], hc[i], hd[i],
                  static_cast<unsigned long long>(model[i]));
    }
    // Vectors: spread over the special products and the random part, the differences, and
    // for approximate ops the worst one.
    std::vector<std::size_t> pick;
    std::size_t head = std::min<std::size_t>(static_cast<std::size_t>(n), 1600);
    for (std::size_t k = 0; k < 48; ++k) pick.push_back(k * head / 48);
    // The handcrafted operands that follow the special products (ieee_gen.hpp operands()).
    std::size_t sp = specials(Format::F32).size();
    std::size_t crafted = op->arity == 1 ? sp : sp * sp;
    for (std::size_t k = 0; k < 4; ++k) pick.push_back(crafted + k);
    for (std::size_t k = 0; k < 48; ++k) pick.push_back(head + k * (static_cast<std::size_t>(n) - head) / 48);
    for (std::size_t i : s.examples) pick.push_back(i);
    if (s.max_ulp > 0) pick.push_back(s.max_at);
    std::sort(pick.begin(), pick.end());
    pick.erase(std::unique(pick.begin(), pick.end()), pick.end());
    for (std::size_t i : pick) {
      if (i >= static_cast<std::size_t>(n)) continue;
      std::fprintf(vec, "%s %llx %llx %llx %llx\n", g.id, ha[i], hb[i], hc[i], hd[i]);
    }
    std::fflush(stdout);
  }
  std::fclose(vec);
  std::printf("TOTAL exact-model differences: %ld\n", total_exact_diff);
  return 0;
}
