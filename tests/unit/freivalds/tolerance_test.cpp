// The tolerance derivation: the coefficients follow from the formats and n as documented.
#include <gtest/gtest.h>

#include <cmath>

#include "freivalds/tolerance.hpp"
#include "support/error.hpp"

namespace racer::freivalds {
namespace {

ToleranceInputs inputs(Format f, int64_t n, ErrorModel model = ErrorModel::WorstCase) {
  return {f, n, n, n, 10, model, 0x1p-40, cpu_check_arithmetic()};
}

TEST(Tolerance, WorstCaseIsGammaNOfTheAccumulation) {
  Tolerance t = derive_tolerance(inputs(Format::F32, 1024));
  EXPECT_DOUBLE_EQ(t.coef.eps_acc, 1024 * 0x1p-24 / (1 - 1024 * 0x1p-24));
  EXPECT_DOUBLE_EQ(t.coef.u_out_rel, 0x1p-24 / (1 - 0x1p-24));
  // Tensor-core formats: a full ulp of f32 per addition, and their own output rounding.
  Tolerance b = derive_tolerance(inputs(Format::BF16, 1024));
  EXPECT_DOUBLE_EQ(b.coef.eps_acc, gamma_n(1024, 0x1p-23));
  EXPECT_DOUBLE_EQ(b.coef.u_out_rel, 0x1p-8 / (1 - 0x1p-8));
  EXPECT_DOUBLE_EQ(derive_tolerance(inputs(Format::F16, 1024)).coef.u_out_rel, 0x1p-11 / (1 - 0x1p-11));
  // tf32 adds the rounding of both inputs to 10 fraction bits.
  Tolerance tf = derive_tolerance(inputs(Format::TF32, 1024));
  EXPECT_DOUBLE_EQ(tf.coef.eps_acc, gamma_n(1024, 0x1p-23) + 2 * 0x1p-11 + 0x1p-22);
}

TEST(Tolerance, GrowsWithNAndShrinksUnderTheProbabilisticModel) {
  double prev = 0;
  for (int64_t n : {256, 1024, 4096, 16384}) {
    Tolerance w = derive_tolerance(inputs(Format::F32, n));
    Tolerance p = derive_tolerance(inputs(Format::F32, n, ErrorModel::Probabilistic));
    EXPECT_GT(w.coef.eps_acc, prev);
    EXPECT_LT(p.coef.eps_acc, w.coef.eps_acc) << n;
    EXPECT_GT(p.lambda_p, 5);
    // Higham-Mary grows as sqrt(n): four times n, about twice the bound.
    if (n >= 1024) {
      Tolerance q = derive_tolerance(inputs(Format::F32, n / 4, ErrorModel::Probabilistic));
      EXPECT_NEAR(p.coef.eps_acc / q.coef.eps_acc, 2.0, 0.1);
    }
    prev = w.coef.eps_acc;
  }
}

TEST(Tolerance, HoeffdingMultiplierFollowsTheFalseAlarmBound) {
  ToleranceInputs in = inputs(Format::F32, 512);
  Tolerance t = derive_tolerance(in);
  EXPECT_DOUBLE_EQ(t.coef.lambda_r, std::sqrt(2 * std::log(2.0 * 512 * 10 / 0x1p-40)));
  in.false_alarm = 1e-3;
  EXPECT_LT(derive_tolerance(in).coef.lambda_r, t.coef.lambda_r);
}

TEST(Tolerance, CheckArithmeticTermsAreSmallForF64AndLargerForF32Runs) {
  ToleranceInputs in = inputs(Format::F32, 4096);
  Tolerance cpu = derive_tolerance(in);
  in.arithmetic = gpu_check_arithmetic(Format::F32);
  Tolerance gpu = derive_tolerance(in);
  EXPECT_LT(cpu.coef.d_am, 1e-11);
  // The tiled kernels round a term at most 16 times in an f32 chain (8 A + 8 C terms: two items
  // of 4 + 4 for 4-byte elements, one of 8 + 8 for 2-byte) + 3 (tree); X is stored in f32 (one
  // more u), and the f64 accumulation adds next to nothing: d_am ~ 2 gamma_{L+1} + u.
  const double u = 0x1p-24;
  for (Format f : {Format::F32, Format::TF32, Format::BF16, Format::F16}) EXPECT_EQ(gpu_check_arithmetic(f).inner_len, 19);
  EXPECT_GE(gpu.coef.d_am, 2 * gamma_n(20, u) + u);
  EXPECT_LT(gpu.coef.d_am, 2 * gamma_n(20, u) + u + 1e-9);
  EXPECT_GE(gpu.coef.d_cm, gamma_n(20, u));
  ToleranceInputs in16 = inputs(Format::BF16, 4096);
  in16.arithmetic = gpu_check_arithmetic(Format::BF16);
  EXPECT_GE(derive_tolerance(in16).coef.d_am, 2 * gamma_n(20, u) + u);
  EXPECT_GT(gpu.coef.slack, 1);
}

TEST(Tolerance, RefusesWhatHasNoBound) {
  EXPECT_THROW(derive_tolerance(inputs(Format::BF16, int64_t{1} << 24)), Error);  // n u_acc >= 1
  ToleranceInputs in = inputs(Format::F32, 64);
  in.k = 0;
  EXPECT_THROW(derive_tolerance(in), Error);
  in.k = 4;
  in.false_alarm = 0;
  EXPECT_THROW(derive_tolerance(in), Error);
  EXPECT_THROW(parse_format("fp8"), Error);
  EXPECT_THROW(parse_error_model("optimistic"), Error);
}

TEST(Tolerance, DerivationSaysWhatTheGuaranteeIsNot) {
  std::string d = derive_tolerance(inputs(Format::BF16, 2048)).derivation;
  EXPECT_NE(d.find("not Freivalds' 2^-k"), std::string::npos) << d;
  EXPECT_NE(d.find("u_out = 2^-8"), std::string::npos) << d;
  EXPECT_NE(d.find("n = 2048"), std::string::npos) << d;
}

TEST(Format, RoundsToNearestEvenAndOverflows) {
  EXPECT_EQ(round_to_format(Format::BF16, 1.0f + 0x1p-8f), 1.0f);             // tie to even
  EXPECT_EQ(round_to_format(Format::BF16, 1.0f + 3 * 0x1p-8f), 1.0f + 0x1p-6f);  // tie to even (up)
  EXPECT_EQ(round_to_format(Format::BF16, 1.0f + 0x1p-7f), 1.0f + 0x1p-7f);
  EXPECT_EQ(round_to_format(Format::F16, 1.0f + 0x1p-12f), 1.0f);
  EXPECT_EQ(round_to_format(Format::F16, 70000.0f), INFINITY);
  EXPECT_EQ(round_to_format(Format::F16, 0x1p-25f), 0.0f);  // below half the least subnormal
  EXPECT_EQ(round_to_format(Format::F16, 3 * 0x1p-25f), 0x1p-23f);  // 1.5 subnormal quanta: to even
  EXPECT_EQ(round_to_format(Format::F32, 0.1f), 0.1f);
  EXPECT_EQ(multiply_input(Format::TF32, 1.0f + 0x1p-11f), 1.0f);
  EXPECT_TRUE(std::isfinite(multiply_input(Format::TF32, 1e30f)));  // tf32 keeps f32's range
  EXPECT_EQ(multiply_input(Format::F32, 1.0f + 0x1p-11f), 1.0f + 0x1p-11f);
}

}  // namespace
}  // namespace racer::freivalds
