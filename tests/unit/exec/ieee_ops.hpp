#pragma once
// The PTX instructions probed on a real GPU (ieee_gpu_probe.cu) and the ieee model of each,
// keyed by an id that names the instruction (add_rn_ftz_f32 is add.rn.ftz.f32). The GPU
// vector test (ieee_gpu_test.cpp) replays recorded hardware results through the same table.
#include <cstdint>
#include <cstring>
#include <vector>

#include "exec/ieee.hpp"

namespace racer::ieee::test {

using U = std::uint64_t;

// How the probe draws the operands of an op.
enum class Gen : std::uint8_t {
  F16, BF16, F32, F64,  // specials crossed, then random (ieee_gen.hpp operands())
  I32, I64,             // integers with edge values
  F16X2, BF16X2,        // two random halves in a 32-bit word
  U16All,               // every 16-bit pattern (fp8x2 inputs)
  F16All, BF16All,      // every 16-bit pattern as one value
  F32Sweep,             // every 509th f32 bit pattern, plus specials
  F64NaN,               // f64 operands, each a NaN (quiet or signaling, any sign) half the time
  F32Pi, F32Pi100,      // uniform in [-pi, pi], [-100 pi, 100 pi]
};

struct OpModel {
  const char* id;
  int arity;
  Gen gen;
  Format out;   // result format (for ulp distances of approximate ops)
  bool approx;  // the model is not expected to be bit exact
  U (*fn)(U, U, U);
};

inline Mode md(Rounding r, bool ftz = false, bool sat = false, bool relu = false,
               bool satfinite = false) {
  return Mode{r, ftz, sat, relu, satfinite};
}
inline U setp_mask(Format f, U a, U b, bool ftz) {
  U m = 0;
  for (int i = 0; i < 14; ++i) m |= U{compare(f, static_cast<Cmp>(i), a, b, ftz)} << i;
  return m;
}

constexpr Rounding RN = Rounding::RN, RZ = Rounding::RZ, RM = Rounding::RM, RP = Rounding::RP,
                   RNA = Rounding::RNA;
constexpr Format F16 = Format::F16, BF16 = Format::BF16, TF32 = Format::TF32, F32 = Format::F32,
                 F64 = Format::F64, E4M3 = Format::E4M3, E5M2 = Format::E5M2;

#define RACER_M1(expr) [](U a, U, U) -> U { return (expr); }
#define RACER_M2(expr) [](U a, U b, U) -> U { return (expr); }
#define RACER_M3(expr) [](U a, U b, U c) -> U { return (expr); }

inline const std::vector<OpModel>& all_ops() {
  static const std::vector<OpModel> ops = {
      // f32 binary
      {"add_rn_f32", 2, Gen::F32, F32, false, RACER_M2(add(F32, a, b, md(RN)))},
      {"add_rz_f32", 2, Gen::F32, F32, false, RACER_M2(add(F32, a, b, md(RZ)))},
      {"add_rm_f32", 2, Gen::F32, F32, false, RACER_M2(add(F32, a, b, md(RM)))},
      {"add_rp_f32", 2, Gen::F32, F32, false, RACER_M2(add(F32, a, b, md(RP)))},
      {"add_rn_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(add(F32, a, b, md(RN, true)))},
      {"add_rz_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(add(F32, a, b, md(RZ, true)))},
      {"add_rn_sat_f32", 2, Gen::F32, F32, false, RACER_M2(add(F32, a, b, md(RN, false, true)))},
      {"sub_rn_f32", 2, Gen::F32, F32, false, RACER_M2(sub(F32, a, b, md(RN)))},
      {"sub_rm_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(sub(F32, a, b, md(RM, true)))},
      {"mul_rn_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RN)))},
      {"mul_rz_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RZ)))},
      {"mul_rm_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RM)))},
      {"mul_rp_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RP)))},
      {"mul_rn_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RN, true)))},
      {"mul_rz_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RZ, true)))},
      {"mul_rm_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RM, true)))},
      {"mul_rp_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RP, true)))},
      {"mul_rn_sat_f32", 2, Gen::F32, F32, false, RACER_M2(mul(F32, a, b, md(RN, false, true)))},
      {"div_rn_f32", 2, Gen::F32, F32, false, RACER_M2(div(F32, a, b, md(RN)))},
      {"div_rz_f32", 2, Gen::F32, F32, false, RACER_M2(div(F32, a, b, md(RZ)))},
      {"div_rm_f32", 2, Gen::F32, F32, false, RACER_M2(div(F32, a, b, md(RM)))},
      {"div_rp_f32", 2, Gen::F32, F32, false, RACER_M2(div(F32, a, b, md(RP)))},
      {"div_rn_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(div(F32, a, b, md(RN, true)))},
      {"div_approx_f32", 2, Gen::F32, F32, true,
       RACER_M2(div_approx_f32(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), false))},
      {"div_approx_ftz_f32", 2, Gen::F32, F32, true,
       RACER_M2(div_approx_f32(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), true))},
      {"div_full_f32", 2, Gen::F32, F32, true,
       RACER_M2(div_full_f32(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), false))},
      {"div_full_ftz_f32", 2, Gen::F32, F32, true,
       RACER_M2(div_full_f32(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), true))},
      {"min_f32", 2, Gen::F32, F32, false, RACER_M2(min(F32, a, b))},
      {"max_f32", 2, Gen::F32, F32, false, RACER_M2(max(F32, a, b))},
      {"min_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(min(F32, a, b, {true}))},
      {"max_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(max(F32, a, b, {true}))},
      {"min_nan_f32", 2, Gen::F32, F32, false, RACER_M2(min(F32, a, b, {false, true}))},
      {"max_nan_f32", 2, Gen::F32, F32, false, RACER_M2(max(F32, a, b, {false, true}))},
      {"min_xorsign_f32", 2, Gen::F32, F32, false, RACER_M2(min(F32, a, b, {false, false, true}))},
      {"max_xorsign_f32", 2, Gen::F32, F32, false, RACER_M2(max(F32, a, b, {false, false, true}))},
      {"copysign_f32", 2, Gen::F32, F32, false, RACER_M2(copysign(F32, a, b))},
      {"setp_f32", 2, Gen::F32, F32, false, RACER_M2(setp_mask(F32, a, b, false))},
      {"setp_ftz_f32", 2, Gen::F32, F32, false, RACER_M2(setp_mask(F32, a, b, true))},
      // f32 fma
      {"fma_rn_f32", 3, Gen::F32, F32, false, RACER_M3(fma(F32, a, b, c, md(RN)))},
      {"fma_rz_f32", 3, Gen::F32, F32, false, RACER_M3(fma(F32, a, b, c, md(RZ)))},
      {"fma_rm_f32", 3, Gen::F32, F32, false, RACER_M3(fma(F32, a, b, c, md(RM)))},
      {"fma_rp_f32", 3, Gen::F32, F32, false, RACER_M3(fma(F32, a, b, c, md(RP)))},
      {"fma_rn_ftz_f32", 3, Gen::F32, F32, false, RACER_M3(fma(F32, a, b, c, md(RN, true)))},
      {"fma_rp_ftz_f32", 3, Gen::F32, F32, false, RACER_M3(fma(F32, a, b, c, md(RP, true)))},
      {"fma_rn_sat_f32", 3, Gen::F32, F32, false, RACER_M3(fma(F32, a, b, c, md(RN, false, true)))},
      // f32 unary, correctly rounded
      {"sqrt_rn_f32", 1, Gen::F32, F32, false, RACER_M1(sqrt(F32, a, md(RN)))},
      {"sqrt_rz_f32", 1, Gen::F32, F32, false, RACER_M1(sqrt(F32, a, md(RZ)))},
      {"sqrt_rm_f32", 1, Gen::F32, F32, false, RACER_M1(sqrt(F32, a, md(RM)))},
      {"sqrt_rp_f32", 1, Gen::F32, F32, false, RACER_M1(sqrt(F32, a, md(RP)))},
      {"sqrt_rn_ftz_f32", 1, Gen::F32, F32, false, RACER_M1(sqrt(F32, a, md(RN, true)))},
      {"rcp_rn_f32", 1, Gen::F32, F32, false, RACER_M1(rcp(F32, a, md(RN)))},
      {"rcp_rz_f32", 1, Gen::F32, F32, false, RACER_M1(rcp(F32, a, md(RZ)))},
      {"rcp_rm_f32", 1, Gen::F32, F32, false, RACER_M1(rcp(F32, a, md(RM)))},
      {"rcp_rp_f32", 1, Gen::F32, F32, false, RACER_M1(rcp(F32, a, md(RP)))},
      {"rcp_rn_ftz_f32", 1, Gen::F32, F32, false, RACER_M1(rcp(F32, a, md(RN, true)))},
      {"abs_f32", 1, Gen::F32, F32, false, RACER_M1(abs(F32, a))},
      {"abs_ftz_f32", 1, Gen::F32, F32, false, RACER_M1(abs(F32, a, true))},
      {"neg_f32", 1, Gen::F32, F32, false, RACER_M1(neg(F32, a))},
      {"neg_ftz_f32", 1, Gen::F32, F32, false, RACER_M1(neg(F32, a, true))},
      {"testp_f32", 1, Gen::F32, F32, false, RACER_M1(
           U{testp(F32, TestOp::Finite, a)} | U{testp(F32, TestOp::Infinite, a)} << 1 |
           U{testp(F32, TestOp::Number, a)} << 2 | U{testp(F32, TestOp::NotANumber, a)} << 3 |
           U{testp(F32, TestOp::Normal, a)} << 4 | U{testp(F32, TestOp::Subnormal, a)} << 5)},
      {"cvt_rni_f32_f32", 1, Gen::F32, F32, false, RACER_M1(round_to_integral(F32, a, RN))},
      {"cvt_rzi_f32_f32", 1, Gen::F32, F32, false, RACER_M1(round_to_integral(F32, a, RZ))},
      {"cvt_rmi_f32_f32", 1, Gen::F32, F32, false, RACER_M1(round_to_integral(F32, a, RM))},
      {"cvt_rpi_f32_f32", 1, Gen::F32, F32, false, RACER_M1(round_to_integral(F32, a, RP))},
      {"cvt_rpi_ftz_f32_f32", 1, Gen::F32, F32, false, RACER_M1(round_to_integral(F32, a, RP, true))},
      {"cvt_sat_f32_f32", 1, Gen::F32, F32, false, RACER_M1(convert(F32, F32, a, md(RN, false, true)))},
      {"cvt_ftz_sat_f32_f32", 1, Gen::F32, F32, false, RACER_M1(convert(F32, F32, a, md(RN, true, true)))},
      {"cvt_rn_f16_f32", 1, Gen::F32, F16, false, RACER_M1(convert(F16, F32, a, md(RN)))},
      {"cvt_rz_f16_f32", 1, Gen::F32, F16, false, RACER_M1(convert(F16, F32, a, md(RZ)))},
      {"cvt_rm_f16_f32", 1, Gen::F32, F16, false, RACER_M1(convert(F16, F32, a, md(RM)))},
      {"cvt_rp_f16_f32", 1, Gen::F32, F16, false, RACER_M1(convert(F16, F32, a, md(RP)))},
      {"cvt_rn_ftz_f16_f32", 1, Gen::F32, F16, false, RACER_M1(convert(F16, F32, a, md(RN, true)))},
      {"cvt_rn_sat_f16_f32", 1, Gen::F32, F16, false, RACER_M1(convert(F16, F32, a, md(RN, false, true)))},
      {"cvt_rn_relu_f16_f32", 1, Gen::F32, F16, false, RACER_M1(convert(F16, F32, a, md(RN, false, false, true)))},
      {"cvt_rn_satfinite_f16_f32", 1, Gen::F32, F16, false,
       RACER_M1(convert(F16, F32, a, md(RN, false, false, false, true)))},
      {"cvt_rn_bf16_f32", 1, Gen::F32, BF16, false, RACER_M1(convert(BF16, F32, a, md(RN)))},
      {"cvt_rz_bf16_f32", 1, Gen::F32, BF16, false, RACER_M1(convert(BF16, F32, a, md(RZ)))},
      {"cvt_rn_relu_bf16_f32", 1, Gen::F32, BF16, false, RACER_M1(convert(BF16, F32, a, md(RN, false, false, true)))},
      {"cvt_rn_satfinite_bf16_f32", 1, Gen::F32, BF16, false,
       RACER_M1(convert(BF16, F32, a, md(RN, false, false, false, true)))},
      {"cvt_rna_tf32_f32", 1, Gen::F32, TF32, false, RACER_M1(convert(TF32, F32, a, md(RNA)))},
      {"cvt_rna_satfinite_tf32_f32", 1, Gen::F32, TF32, false,
       RACER_M1(convert(TF32, F32, a, md(RNA, false, false, false, true)))},
                  {"cvt_f64_f32", 1, Gen::F32, F64, false, RACER_M1(convert(F64, F32, a))},
      {"cvt_ftz_f64_f32", 1, Gen::F32, F64, false, RACER_M1(convert(F64, F32, a, md(RN, true)))},
      {"cvt_rni_s32_f32", 1, Gen::F32, F32, false, RACER_M1(to_int(IntType::S32, F32, a, RN) & 0xFFFFFFFFu)},
      {"cvt_rzi_s32_f32", 1, Gen::F32, F32, false, RACER_M1(to_int(IntType::S32, F32, a, RZ) & 0xFFFFFFFFu)},
      {"cvt_rmi_s32_f32", 1, Gen::F32, F32, false, RACER_M1(to_int(IntType::S32, F32, a, RM) & 0xFFFFFFFFu)},
      {"cvt_rpi_s32_f32", 1, Gen::F32, F32, false, RACER_M1(to_int(IntType::S32, F32, a, RP) & 0xFFFFFFFFu)},
      {"cvt_rpi_ftz_s32_f32", 1, Gen::F32, F32, false, RACER_M1(to_int(IntType::S32, F32, a, RP, true) & 0xFFFFFFFFu)},
      {"cvt_rzi_u32_f32", 1, Gen::F32, F32, false, RACER_M1(to_int(IntType::U32, F32, a, RZ))},
      {"cvt_rni_s64_f32", 1, Gen::F32, F64, false, RACER_M1(to_int(IntType::S64, F32, a, RN))},
      {"cvt_rzi_u64_f32", 1, Gen::F32, F64, false, RACER_M1(to_int(IntType::U64, F32, a, RZ))},
      {"cvt_rni_s16_f32", 1, Gen::F32, F16, false, RACER_M1(to_int(IntType::S16, F32, a, RN) & 0xFFFFu)},
      {"cvt_rzi_u16_f32", 1, Gen::F32, F16, false, RACER_M1(to_int(IntType::U16, F32, a, RZ))},
      // f32 approximate
      {"rcp_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(rcp_approx(F32, a, false))},
      {"rcp_approx_ftz_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(rcp_approx(F32, a, true))},
      {"sqrt_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(sqrt_approx(F32, a, false))},
      {"sqrt_approx_ftz_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(sqrt_approx(F32, a, true))},
      {"rsqrt_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(rsqrt_approx(F32, a, false))},
      {"rsqrt_approx_ftz_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(rsqrt_approx(F32, a, true))},
      {"ex2_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(ex2_approx(F32, a, false))},
      {"ex2_approx_ftz_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(ex2_approx(F32, a, true))},
      {"lg2_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(lg2_approx(F32, a, false))},
      {"lg2_approx_ftz_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(lg2_approx(F32, a, true))},
      {"sin_approx_f32_pi", 1, Gen::F32Pi, F32, true, RACER_M1(sin_approx(F32, a, false))},
      {"sin_approx_f32_100pi", 1, Gen::F32Pi100, F32, true, RACER_M1(sin_approx(F32, a, false))},
      {"cos_approx_f32_pi", 1, Gen::F32Pi, F32, true, RACER_M1(cos_approx(F32, a, false))},
      {"cos_approx_f32_100pi", 1, Gen::F32Pi100, F32, true, RACER_M1(cos_approx(F32, a, false))},
      {"sin_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(sin_approx(F32, a, false))},
      {"sin_approx_ftz_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(sin_approx(F32, a, true))},
      {"cos_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(cos_approx(F32, a, false))},
      {"cos_approx_ftz_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(cos_approx(F32, a, true))},
      {"tanh_approx_f32", 1, Gen::F32Sweep, F32, true, RACER_M1(tanh_approx(F32, a, false))},
      // f32 pairs to packed
      {"cvt_rn_f16x2_f32", 2, Gen::F32, F32, false, RACER_M2(convert_pair(F16, F32, a, b, md(RN)))},
      {"cvt_rn_relu_bf16x2_f32", 2, Gen::F32, F32, false,
       RACER_M2(convert_pair(BF16, F32, a, b, md(RN, false, false, true)))},
      {"cvt_rn_satfinite_e4m3x2_f32", 2, Gen::F32, F16, false,
       RACER_M2(convert_pair(E4M3, F32, a, b, md(RN, false, false, false, true)))},
      {"cvt_rn_satfinite_e5m2x2_f32", 2, Gen::F32, F16, false,
       RACER_M2(convert_pair(E5M2, F32, a, b, md(RN, false, false, false, true)))},
      {"cvt_rn_satfinite_relu_e4m3x2_f32", 2, Gen::F32, F16, false,
       RACER_M2(convert_pair(E4M3, F32, a, b, md(RN, false, false, true, true)))},
      // f64
      {"add_rn_f64", 2, Gen::F64, F64, false, RACER_M2(add(F64, a, b, md(RN)))},
      {"add_rz_f64", 2, Gen::F64, F64, false, RACER_M2(add(F64, a, b, md(RZ)))},
      {"add_rm_f64", 2, Gen::F64, F64, false, RACER_M2(add(F64, a, b, md(RM)))},
      {"add_rp_f64", 2, Gen::F64, F64, false, RACER_M2(add(F64, a, b, md(RP)))},
      {"mul_rn_f64", 2, Gen::F64, F64, false, RACER_M2(mul(F64, a, b, md(RN)))},
      {"mul_rz_f64", 2, Gen::F64, F64, false, RACER_M2(mul(F64, a, b, md(RZ)))},
      {"div_rn_f64", 2, Gen::F64, F64, false, RACER_M2(div(F64, a, b, md(RN)))},
      {"div_rp_f64", 2, Gen::F64, F64, false, RACER_M2(div(F64, a, b, md(RP)))},
      {"min_f64", 2, Gen::F64, F64, false, RACER_M2(min(F64, a, b))},
      {"max_f64", 2, Gen::F64, F64, false, RACER_M2(max(F64, a, b))},
      {"setp_f64", 2, Gen::F64, F64, false, RACER_M2(setp_mask(F64, a, b, false))},
      {"fma_rn_f64", 3, Gen::F64, F64, false, RACER_M3(fma(F64, a, b, c, md(RN)))},
      {"fma_rz_f64", 3, Gen::F64, F64, false, RACER_M3(fma(F64, a, b, c, md(RZ)))},
      {"fma_rm_f64", 3, Gen::F64, F64, false, RACER_M3(fma(F64, a, b, c, md(RM)))},
      {"fma_rp_f64", 3, Gen::F64, F64, false, RACER_M3(fma(F64, a, b, c, md(RP)))},
      {"sqrt_rn_f64", 1, Gen::F64, F64, false, RACER_M1(sqrt(F64, a, md(RN)))},
      {"sqrt_rm_f64", 1, Gen::F64, F64, false, RACER_M1(sqrt(F64, a, md(RM)))},
      {"rcp_rn_f64", 1, Gen::F64, F64, false, RACER_M1(rcp(F64, a, md(RN)))},
      {"rcp_approx_ftz_f64", 1, Gen::F64, F64, true, RACER_M1(rcp_approx(F64, a, true))},
      {"rsqrt_approx_f64", 1, Gen::F64, F64, true, RACER_M1(rsqrt_approx(F64, a, false))},
      {"rsqrt_approx_ftz_f64", 1, Gen::F64, F64, true, RACER_M1(rsqrt_approx(F64, a, true))},
      {"abs_f64", 1, Gen::F64, F64, false, RACER_M1(abs(F64, a))},
      {"neg_f64", 1, Gen::F64, F64, false, RACER_M1(neg(F64, a))},
      {"cvt_rni_f64_f64", 1, Gen::F64, F64, false, RACER_M1(round_to_integral(F64, a, RN))},
      {"cvt_rn_f32_f64", 1, Gen::F64, F32, false, RACER_M1(convert(F32, F64, a, md(RN)))},
      {"cvt_rz_f32_f64", 1, Gen::F64, F32, false, RACER_M1(convert(F32, F64, a, md(RZ)))},
      {"cvt_rm_f32_f64", 1, Gen::F64, F32, false, RACER_M1(convert(F32, F64, a, md(RM)))},
      {"cvt_rp_f32_f64", 1, Gen::F64, F32, false, RACER_M1(convert(F32, F64, a, md(RP)))},
      {"cvt_rn_ftz_f32_f64", 1, Gen::F64, F32, false, RACER_M1(convert(F32, F64, a, md(RN, true)))},
      {"cvt_rn_sat_f32_f64", 1, Gen::F64, F32, false, RACER_M1(convert(F32, F64, a, md(RN, false, true)))},
      {"cvt_rn_f16_f64", 1, Gen::F64, F16, false, RACER_M1(convert(F16, F64, a, md(RN)))},
      {"cvt_rni_s64_f64", 1, Gen::F64, F64, false, RACER_M1(to_int(IntType::S64, F64, a, RN))},
      {"cvt_rzi_u64_f64", 1, Gen::F64, F64, false, RACER_M1(to_int(IntType::U64, F64, a, RZ))},
      {"add_rn_f64_nan", 2, Gen::F64NaN, F64, false, RACER_M2(add(F64, a, b, md(RN)))},
      {"sub_rn_f64_nan", 2, Gen::F64NaN, F64, false, RACER_M2(sub(F64, a, b, md(RN)))},
      {"mul_rn_f64_nan", 2, Gen::F64NaN, F64, false, RACER_M2(mul(F64, a, b, md(RN)))},
      {"div_rn_f64_nan", 2, Gen::F64NaN, F64, false, RACER_M2(div(F64, a, b, md(RN)))},
      {"fma_rn_f64_nan", 3, Gen::F64NaN, F64, false, RACER_M3(fma(F64, a, b, c, md(RN)))},
      {"min_f64_nan", 2, Gen::F64NaN, F64, false, RACER_M2(min(F64, a, b))},
      {"max_f64_nan", 2, Gen::F64NaN, F64, false, RACER_M2(max(F64, a, b))},
      {"cvt_rzi_u32_f64", 1, Gen::F64, F32, false, RACER_M1(to_int(IntType::U32, F64, a, RZ))},
      {"cvt_rzi_s16_f64", 1, Gen::F64, F16, false, RACER_M1(to_int(IntType::S16, F64, a, RZ) & 0xFFFFu)},
      {"cvt_rzi_u16_f64", 1, Gen::F64, F16, false, RACER_M1(to_int(IntType::U16, F64, a, RZ))},
      {"cvt_rn_bf16_f64", 1, Gen::F64, BF16, false, RACER_M1(convert(BF16, F64, a, md(RN)))},
      {"cvt_rmi_s32_f64", 1, Gen::F64, F32, false, RACER_M1(to_int(IntType::S32, F64, a, RM) & 0xFFFFFFFFu)},
      // f16
      {"add_rn_f16", 2, Gen::F16, F16, false, RACER_M2(add(F16, a, b, md(RN)))},
      {"add_rn_ftz_f16", 2, Gen::F16, F16, false, RACER_M2(add(F16, a, b, md(RN, true)))},
      {"add_rn_sat_f16", 2, Gen::F16, F16, false, RACER_M2(add(F16, a, b, md(RN, false, true)))},
      {"sub_rn_f16", 2, Gen::F16, F16, false, RACER_M2(sub(F16, a, b, md(RN)))},
      {"mul_rn_f16", 2, Gen::F16, F16, false, RACER_M2(mul(F16, a, b, md(RN)))},
      {"mul_rn_ftz_f16", 2, Gen::F16, F16, false, RACER_M2(mul(F16, a, b, md(RN, true)))},
      {"min_f16", 2, Gen::F16, F16, false, RACER_M2(min(F16, a, b))},
      {"max_f16", 2, Gen::F16, F16, false, RACER_M2(max(F16, a, b))},
      {"min_nan_f16", 2, Gen::F16, F16, false, RACER_M2(min(F16, a, b, {false, true}))},
      {"max_ftz_f16", 2, Gen::F16, F16, false, RACER_M2(max(F16, a, b, {true}))},
      {"min_xorsign_f16", 2, Gen::F16, F16, false, RACER_M2(min(F16, a, b, {false, false, true}))},
      {"setp_f16", 2, Gen::F16, F16, false, RACER_M2(setp_mask(F16, a, b, false))},
      {"fma_rn_f16", 3, Gen::F16, F16, false, RACER_M3(fma(F16, a, b, c, md(RN)))},
      {"fma_rn_ftz_f16", 3, Gen::F16, F16, false, RACER_M3(fma(F16, a, b, c, md(RN, true)))},
      {"fma_rn_sat_f16", 3, Gen::F16, F16, false, RACER_M3(fma(F16, a, b, c, md(RN, false, true)))},
      {"fma_rn_relu_f16", 3, Gen::F16, F16, false, RACER_M3(fma(F16, a, b, c, md(RN, false, false, true)))},
      {"ex2_approx_f16", 1, Gen::F16All, F16, true, RACER_M1(ex2_approx(F16, a, false))},
      {"tanh_approx_f16", 1, Gen::F16All, F16, true, RACER_M1(tanh_approx(F16, a, false))},
      {"cvt_f32_f16", 1, Gen::F16All, F32, false, RACER_M1(convert(F32, F16, a))},
      {"cvt_f64_f16", 1, Gen::F16All, F64, false, RACER_M1(convert(F64, F16, a))},
      {"cvt_rni_s32_f16", 1, Gen::F16All, F32, false, RACER_M1(to_int(IntType::S32, F16, a, RN) & 0xFFFFFFFFu)},
      {"cvt_rzi_s64_f16", 1, Gen::F16All, F64, false, RACER_M1(to_int(IntType::S64, F16, a, RZ))},
      {"cvt_rzi_u32_f16", 1, Gen::F16All, F32, false, RACER_M1(to_int(IntType::U32, F16, a, RZ))},
      {"cvt_rni_f16_f16", 1, Gen::F16All, F16, false, RACER_M1(round_to_integral(F16, a, RN))},
      {"neg_f16", 1, Gen::F16All, F16, false, RACER_M1(neg(F16, a))},
      {"abs_f16", 1, Gen::F16All, F16, false, RACER_M1(abs(F16, a))},
      {"add_rn_f16x2", 2, Gen::F16X2, F32, false,
       RACER_M2(add_x2(F16, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)))},
      {"min_f16x2", 2, Gen::F16X2, F32, false,
       RACER_M2(map_x2(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b),
                       [](U x, U y) { return min(F16, x, y); }))},
      {"cvt_rn_satfinite_e4m3x2_f16x2", 1, Gen::F16X2, F16, false,
       RACER_M1(convert_x2(E4M3, F16, a, md(RN, false, false, false, true)))},
      {"cvt_rn_satfinite_e5m2x2_f16x2", 1, Gen::F16X2, F16, false,
       RACER_M1(convert_x2(E5M2, F16, a, md(RN, false, false, false, true)))},
      // bf16
      {"add_rn_bf16", 2, Gen::BF16, BF16, false, RACER_M2(add(BF16, a, b, md(RN)))},
      {"sub_rn_bf16", 2, Gen::BF16, BF16, false, RACER_M2(sub(BF16, a, b, md(RN)))},
      {"mul_rn_bf16", 2, Gen::BF16, BF16, false, RACER_M2(mul(BF16, a, b, md(RN)))},
      {"min_bf16", 2, Gen::BF16, BF16, false, RACER_M2(min(BF16, a, b))},
      {"max_bf16", 2, Gen::BF16, BF16, false, RACER_M2(max(BF16, a, b))},
      {"min_nan_bf16", 2, Gen::BF16, BF16, false, RACER_M2(min(BF16, a, b, {false, true}))},
      {"fma_rn_bf16", 3, Gen::BF16, BF16, false, RACER_M3(fma(BF16, a, b, c, md(RN)))},
      {"fma_rn_relu_bf16", 3, Gen::BF16, BF16, false, RACER_M3(fma(BF16, a, b, c, md(RN, false, false, true)))},
      {"ex2_approx_ftz_bf16", 1, Gen::BF16All, BF16, true, RACER_M1(ex2_approx(BF16, a, true))},
      {"tanh_approx_bf16", 1, Gen::BF16All, BF16, true, RACER_M1(tanh_approx(BF16, a, false))},
      {"cvt_f32_bf16", 1, Gen::BF16All, F32, false, RACER_M1(convert(F32, BF16, a))},
      {"cvt_f64_bf16", 1, Gen::BF16All, F64, false, RACER_M1(convert(F64, BF16, a))},
      {"neg_bf16", 1, Gen::BF16All, BF16, false, RACER_M1(neg(BF16, a))},
      {"abs_bf16", 1, Gen::BF16All, BF16, false, RACER_M1(abs(BF16, a))},
      {"fma_rn_bf16x2", 3, Gen::BF16X2, F32, false,
       RACER_M3(fma_x2(BF16, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b),
                       static_cast<std::uint32_t>(c)))},
      // integers to floats
      {"cvt_rn_f32_s16", 1, Gen::I32, F32, false, RACER_M1(from_int(F32, IntType::S16, a, md(RN)))},
      {"cvt_rzi_s8_f32", 1, Gen::F32, F16, false, RACER_M1(to_int(IntType::S8, F32, a, RZ) & 0xFFFFu)},
      {"copysign_f64", 2, Gen::F64, F64, false, RACER_M2(copysign(F64, a, b))},
      {"div_rz_f64", 2, Gen::F64, F64, false, RACER_M2(div(F64, a, b, md(RZ)))},
      {"div_rm_f64", 2, Gen::F64, F64, false, RACER_M2(div(F64, a, b, md(RM)))},
      {"sqrt_rp_f64", 1, Gen::F64, F64, false, RACER_M1(sqrt(F64, a, md(RP)))},
      {"cvt_rn_f32_s32", 1, Gen::I32, F32, false, RACER_M1(from_int(F32, IntType::S32, a, md(RN)))},
      {"cvt_rz_f32_s32", 1, Gen::I32, F32, false, RACER_M1(from_int(F32, IntType::S32, a, md(RZ)))},
      {"cvt_rm_f32_u32", 1, Gen::I32, F32, false, RACER_M1(from_int(F32, IntType::U32, a, md(RM)))},
      {"cvt_rp_f32_s32", 1, Gen::I32, F32, false, RACER_M1(from_int(F32, IntType::S32, a, md(RP)))},
      {"cvt_rn_sat_f32_s32", 1, Gen::I32, F32, false, RACER_M1(from_int(F32, IntType::S32, a, md(RN, false, true)))},
      {"cvt_rn_f16_s32", 1, Gen::I32, F16, false, RACER_M1(from_int(F16, IntType::S32, a, md(RN)))},
      {"cvt_rz_f16_u32", 1, Gen::I32, F16, false, RACER_M1(from_int(F16, IntType::U32, a, md(RZ)))},
      {"cvt_rn_f32_s64", 1, Gen::I64, F32, false, RACER_M1(from_int(F32, IntType::S64, a, md(RN)))},
      {"cvt_rz_f32_u64", 1, Gen::I64, F32, false, RACER_M1(from_int(F32, IntType::U64, a, md(RZ)))},
      {"cvt_rn_f64_s64", 1, Gen::I64, F64, false, RACER_M1(from_int(F64, IntType::S64, a, md(RN)))},
      {"cvt_rm_f64_u64", 1, Gen::I64, F64, false, RACER_M1(from_int(F64, IntType::U64, a, md(RM)))},
      // fp8 to f16 pairs, every input
      {"cvt_rn_f16x2_e4m3x2", 1, Gen::U16All, F32, false, RACER_M1(convert_x2(F16, E4M3, a))},
      {"cvt_rn_f16x2_e5m2x2", 1, Gen::U16All, F32, false, RACER_M1(convert_x2(F16, E5M2, a))},
  };
  return ops;
}

#undef RACER_M1
#undef RACER_M2
#undef RACER_M3

inline const OpModel* find_op(const char* id) {
  for (const OpModel& o : all_ops()) {
    if (std::strcmp(o.id, id) == 0) return &o;
  }
  return nullptr;
}

}  // namespace racer::ieee::test
