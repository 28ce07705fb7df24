// The .approx models: special values (as PTX tabulates them and the H200 returns them),
// correct rounding of the exact ones, ftz, and the f64 upper-word forms.
#include <gtest/gtest.h>

#include <cmath>

#include "exec/ieee.hpp"
#include "ieee_host.hpp"

namespace racer::ieee::test {
namespace {

using U = std::uint64_t;
constexpr Format F = Format::F32;
constexpr U kPz = 0x00000000, kNz = 0x80000000, kPinf = 0x7F800000, kNinf = 0xFF800000,
            kPsub = 0x00000001, kNsub = 0x80000001, kOne = 0x3F800000, kNan = 0x7FFFFFFF;

TEST(IeeeApprox, SpecialValues) {
  struct Case { const char* name; U (*fn)(Format, U, bool); U in, ftz_out; };
  const Case cases[] = {
      {"rcp", rcp_approx, kNinf, kNz},      {"rcp", rcp_approx, kNz, kNinf},
      {"rcp", rcp_approx, kPz, kPinf},      {"rcp", rcp_approx, kPinf, kPz},
      {"rcp", rcp_approx, kNsub, kNinf},    {"rcp", rcp_approx, kPsub, kPinf},
      {"sqrt", sqrt_approx, kNinf, kNan},   {"sqrt", sqrt_approx, 0xBF800000, kNan},
      {"sqrt", sqrt_approx, kNsub, kNz},    {"sqrt", sqrt_approx, kNz, kNz},
      {"sqrt", sqrt_approx, kPz, kPz},      {"sqrt", sqrt_approx, kPsub, kPz},
      {"sqrt", sqrt_approx, kPinf, kPinf},
      {"rsqrt", rsqrt_approx, kNinf, kNan}, {"rsqrt", rsqrt_approx, 0xBF800000, kNan},
      {"rsqrt", rsqrt_approx, kNsub, kNinf}, {"rsqrt", rsqrt_approx, kNz, kNinf},
      {"rsqrt", rsqrt_approx, kPz, kPinf},  {"rsqrt", rsqrt_approx, kPsub, kPinf},
      {"rsqrt", rsqrt_approx, kPinf, kPz},
      {"ex2", ex2_approx, kNinf, kPz},      {"ex2", ex2_approx, kNsub, kOne},
      {"ex2", ex2_approx, kNz, kOne},       {"ex2", ex2_approx, kPz, kOne},
      {"ex2", ex2_approx, kPsub, kOne},     {"ex2", ex2_approx, kPinf, kPinf},
      {"lg2", lg2_approx, kNinf, kNan},     {"lg2", lg2_approx, 0xBF800000, kNan},
      {"lg2", lg2_approx, kNsub, kNinf},    {"lg2", lg2_approx, kNz, kNinf},
      {"lg2", lg2_approx, kPz, kNinf},      {"lg2", lg2_approx, kPsub, kNinf},
      {"lg2", lg2_approx, kPinf, kPinf},    {"lg2", lg2_approx, kOne, kPz},
      {"sin", sin_approx, kNinf, kNan},     {"sin", sin_approx, kNsub, kNz},
      {"sin", sin_approx, kNz, kNz},        {"sin", sin_approx, kPz, kPz},
      {"sin", sin_approx, kPinf, kNan},
      {"cos", cos_approx, kNinf, kNan},     {"cos", cos_approx, kNsub, kOne},
      {"cos", cos_approx, kNz, kOne},       {"cos", cos_approx, kPinf, kNan},
      {"tanh", tanh_approx, kNinf, 0xBF800000}, {"tanh", tanh_approx, kNz, kNz},
      {"tanh", tanh_approx, kPinf, kOne},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.fn(F, c.in, true), c.ftz_out) << c.name << " " << hex(c.in);
    EXPECT_EQ(c.fn(F, 0x7FC00001, false), kNan) << c.name;
  }
  // Without ftz, subnormal operands are values.
  EXPECT_EQ(rcp_approx(F, 0x00400000, false), 0x7F000000u);  // 1 / 2^-127
  EXPECT_EQ(rcp_approx(F, 0x00200000, false), kPinf);        // 1 / 2^-128 overflows
  EXPECT_EQ(sqrt_approx(F, kPsub, false), 0x1A3504F3u);
  EXPECT_EQ(lg2_approx(F, kPsub, false), 0xC3150000u);       // -149
  EXPECT_EQ(ex2_approx(F, 0xC3150000, false), kPsub);        // 2^-149
  EXPECT_EQ(ex2_approx(F, 0xC3150000, true), kPz);           // flushed result
  EXPECT_EQ(ex2_approx(F, 0xC3160000, false), kPz);          // 2^-150: tie to even
  EXPECT_EQ(ex2_approx(F, 0x43000000, false), kPinf);        // 2^128
  EXPECT_EQ(ex2_approx(F, 0x40400000, false), 0x41000000u);  // 8
  EXPECT_EQ(lg2_approx(F, 0x41000000, false), 0x40400000u);  // 3
  EXPECT_EQ(sin_approx(F, 0x3FC90FDB, false), kOne);         // sin(fl(pi/2))
  EXPECT_EQ(tanh_approx(Format::F16, 0x3C00, false), 0x3A18u);  // tanh(1) = 0.76159
  EXPECT_EQ(ex2_approx(Format::BF16, 0x3F80, true), 0x4000u);
}

// rcp, sqrt and rsqrt are correctly rounded: the two neighbouring midpoints bracket the
// real value (checked with exact rationals).
TEST(IeeeApprox, ExactModelsAreCorrectlyRounded) {
  Rng r(61);
  for (Format f : {Format::F32, Format::F64}) {
    for (int i = 0; i < 3000; ++i) {
      U x = gen(f, r) & ~sign_bit(f);
      if (classify(f, x) != FpClass::Normal && classify(f, x) != FpClass::Subnormal) continue;
      U y = rsqrt_approx(f, x, false);
      if (classify(f, y) != FpClass::Normal) continue;
      mpq_class vx = exact_value(f, x), vy = exact_value(f, y);
      Decoded d = decode(f, y);
      mpq_class half_ulp = pow2(d.exponent - 1);
      mpq_class lo = vy - half_ulp, hi = vy + half_ulp;
      if (d.mantissa == (U{1} << info(f).man_bits)) lo = vy - half_ulp / 2;  // binade edge
      EXPECT_LT(lo * lo * vx, 1) << hex(x);
      EXPECT_GT(hi * hi * vx, 1) << hex(x);
      if (f == Format::F32) {
        EXPECT_EQ(rcp_approx(f, x, false), rcp(f, x)) << hex(x);
        EXPECT_EQ(sqrt_approx(f, x, false), sqrt(f, x)) << hex(x);
      }
    }
  }
}

// ex2, lg2, sin, cos, tanh: the long double result rounded once agrees with the double one
// (within an ulp of f32: the double path rounds twice).
TEST(IeeeApprox, LongDoubleModelsAgreeWithLibm) {
  Rng r(67);
  for (int i = 0; i < 20000; ++i) {
    U x = gen(F, r);
    float v = f32_of(x);
    if (std::isnan(v) || std::fabs(v) > 100) continue;
    auto near_ulp = [&](U got, double want) {
      U w = bits_of(static_cast<float>(want));
      long d = static_cast<long>(got & 0x7FFFFFFF) - static_cast<long>(w & 0x7FFFFFFF);
      return std::isnan(want) ? got == kNan : std::labs(d) <= 1 && ((got ^ w) & 0x80000000) == 0;
    };
    EXPECT_TRUE(near_ulp(ex2_approx(F, x, false), std::exp2(double{v}))) << hex(x);
    EXPECT_TRUE(near_ulp(sin_approx(F, x, false), std::sin(double{v}))) << hex(x);
    EXPECT_TRUE(near_ulp(cos_approx(F, x, false), std::cos(double{v}))) << hex(x);
    EXPECT_TRUE(near_ulp(tanh_approx(F, x, false), std::tanh(double{v}))) << hex(x);
    if (v > 0) {
      EXPECT_TRUE(near_ulp(lg2_approx(F, x, false), std::log2(double{v}))) << hex(x);
    }
  }
}

TEST(IeeeApprox, F64Forms) {
  const Format d = Format::F64;
  // rsqrt.approx.f64: correctly rounded, f64 NaN rules.
  EXPECT_EQ(rsqrt_approx(d, 0x4010000000000000, false), 0x3FE0000000000000u);  // 1/sqrt(4)
  EXPECT_EQ(rsqrt_approx(d, 0x7FF0000000000001, false), 0x7FF8000000000001u);
  EXPECT_EQ(rsqrt_approx(d, 0xBFF0000000000000, false), 0xFFF8000000000000u);
  // The .ftz forms work on the upper word and truncate to 20 fraction bits (H200 values).
  EXPECT_EQ(rcp_approx(d, 0x3FEFFFFFFFFFFFFF, true), 0x3FF0000000000000u);
  EXPECT_EQ(rcp_approx(d, 0x7FD0000000000004, true), 0x0010000000000000u);
  EXPECT_EQ(rcp_approx(d, 0x7FD9BA1EF4D5A417, true), 0x0000000000000000u);  // flushed
  EXPECT_EQ(rcp_approx(d, 0x7FF0000000000001, true), 0x0000000000000000u);  // upper word: inf
  EXPECT_EQ(rcp_approx(d, 0xBFF8000000000000, true), 0xBFE5555500000000u);
  EXPECT_EQ(rcp_approx(d, 0x7FF8000000000000, true), 0x7FFFFFFF00000000u);
  EXPECT_EQ(rsqrt_approx(d, 0x3FFFFFFFFFFFFFFF, true), 0x3FE6A09E00000000u);
  EXPECT_EQ(rsqrt_approx(d, 0xBFF0000000000000, true), 0x7FFFFFFF00000000u);
  EXPECT_EQ(rsqrt_approx(d, 0x66D0000000000004, true), 0x2C80000000000000u);
  EXPECT_EQ(rsqrt_approx(d, 0x8000000000000001, true), 0xFFF0000000000000u);  // -0 after ftz
}

}  // namespace
}  // namespace racer::ieee::test
