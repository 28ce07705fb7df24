// div, rcp, sqrt: f32 and f64 against the host in all four rounding modes; the div.approx and
// div.full models' special rules.
#include <gtest/gtest.h>

#include "exec/ieee.hpp"
#include "ieee_host.hpp"

namespace racer::ieee::test {
namespace {

constexpr Rounding kModes[] = {Rounding::RN, Rounding::RZ, Rounding::RM, Rounding::RP};
using U = std::uint64_t;

template <class T>
void host_suite(int n) {
  const Format f = format_of<T>();
  for (Rounding m : kModes) {
    for (bool ftz : {false, true}) {
      if (ftz && f == Format::F64) continue;  // f64 has no .ftz
      Mode md{m, ftz};
      expect_matches_host<T>("div", m, 2, n, [&](U a, U b, U) { return div(f, a, b, md); },
                             [](T a, T b, T) { return Host<T>::div(a, b); }, 7, ftz);
      expect_matches_host<T>("rcp", m, 1, n, [&](U a, U, U) { return rcp(f, a, md); },
                             [](T a, T, T) { return Host<T>::div(T(1), a); }, 8, ftz);
      expect_matches_host<T>("sqrt", m, 1, n, [&](U a, U, U) { return sqrt(f, a, md); },
                             [](T a, T, T) { return Host<T>::sqrt(a); }, 9, ftz);
    }
  }
}

TEST(IeeeDivSqrt, F32MatchesHost) { host_suite<float>(30000); }
TEST(IeeeDivSqrt, F64MatchesHost) { host_suite<double>(30000); }

TEST(IeeeDivSqrt, Specials) {
  const Format f = Format::F32;
  EXPECT_EQ(div(f, 0x3F800000, 0x00000000), 0x7F800000u);
  EXPECT_EQ(div(f, 0xBF800000, 0x00000000), 0xFF800000u);
  EXPECT_EQ(div(f, 0x3F800000, 0x80000000), 0xFF800000u);
  EXPECT_EQ(div(f, 0x00000000, 0x00000000), canonical_nan(f));
  EXPECT_EQ(div(f, 0x7F800000, 0xFF800000), canonical_nan(f));
  EXPECT_EQ(div(f, 0x80000000, 0x7F800000), 0x80000000u);
  EXPECT_EQ(div(f, 0x00000001, 0x40000000), 0x00000000u);                   // tie to even
  EXPECT_EQ(div(f, 0x00000003, 0x40000000), 0x00000002u);
  EXPECT_EQ(div(f, 0x00000001, 0x40000000, {Rounding::RP}), 0x00000001u);
  EXPECT_EQ(div(f, 0x00800000, 0x40000000, {Rounding::RN, true}), 0x0u);     // ftz result
  EXPECT_EQ(div(f, 0x3F800000, 0x00000001, {Rounding::RN, true}), 0x7F800000u);  // ftz input
  EXPECT_EQ(sqrt(f, 0x80000000), 0x80000000u);
  EXPECT_EQ(sqrt(f, 0xBF800000), canonical_nan(f));
  EXPECT_EQ(sqrt(f, 0x7F800000), 0x7F800000u);
  EXPECT_EQ(sqrt(f, 0x00000001), 0x1A3504F3u);  // sqrt(2^-149) = 2^-74.5
  EXPECT_EQ(sqrt(f, 0x40800000), 0x40000000u);
  EXPECT_EQ(rcp(f, 0x7F7FFFFF), 0x00200000u);   // subnormal reciprocal
  EXPECT_EQ(rcp(f, 0x7F7FFFFF, {Rounding::RN, true}), 0x0u);
  EXPECT_EQ(rcp(Format::F64, 0x0), 0x7FF0000000000000u);
  EXPECT_EQ(sqrt(Format::F64, 0x4000000000000000), 0x3FF6A09E667F3BCDu);
  EXPECT_EQ(sqrt(Format::F64, 0x4000000000000000, {Rounding::RP}), 0x3FF6A09E667F3BCDu);
  EXPECT_EQ(sqrt(Format::F64, 0x4000000000000000, {Rounding::RZ}), 0x3FF6A09E667F3BCCu);
}

TEST(IeeeDivSqrt, DivApproxModel) {
  // a * rcp(b), each rounded (hardware: 0x807fffff / 0xbf800001 = 0x007ffffe).
  EXPECT_EQ(div_approx_f32(0x807FFFFF, 0xBF800001, false), 0x007FFFFEu);
  EXPECT_EQ(div_approx_f32(0x3F800000, 0x40400000, false), 0x3EAAAAABu);  // RN(1/3)
  // |b| > 2^126: the quotient is 0 (and NaN for an infinite a); exactly 2^126 divides.
  EXPECT_EQ(div_approx_f32(0x7F000000, 0xFF7FFFFF, false), 0x80000000u);
  EXPECT_EQ(div_approx_f32(0xFF800000, 0xFF7FFFFF, false), 0x7FFFFFFFu);
  EXPECT_EQ(div_approx_f32(0x7F7FFFFF, 0xFE800000, true), 0xC07FFFFFu);
  // Subnormal operands without ftz are scaled first: 2^-149 / 2^-149 = 1.
  EXPECT_EQ(div_approx_f32(0x00000001, 0x00000001, false), 0x3F800000u);
  EXPECT_EQ(div_approx_f32(0x00000001, 0x007FFFFF, false), 0x34000001u);
  EXPECT_EQ(div_approx_f32(0x00000000, 0x00000001, false), 0x00000000u);
  // With ftz they are zeros: 0 / 0 and x / 0.
  EXPECT_EQ(div_approx_f32(0x007FFFFF, 0x80000001, true), 0x7FFFFFFFu);
  EXPECT_EQ(div_approx_f32(0x3F800001, 0x80000001, true), 0xFF800000u);
  // div.full scales |b| > 2^126 by 1/4: the quotient stays right.
  EXPECT_EQ(div_full_f32(0x3F000000, 0xFF7FFFFF, false), 0x80100000u);
  EXPECT_EQ(div_full_f32(0x7F000000, 0xFF7FFFFF, false), 0xBF000001u);
  EXPECT_EQ(div_full_f32(0x3FFFFFFF, 0x7F000000, true), 0x00000000u);  // tiny: flushed
  // Both stay within 2 ulps of the correctly rounded quotient on normal operands.
  Rng r(31);
  for (int i = 0; i < 20000; ++i) {
    U a = gen(Format::F32, r), b = gen(Format::F32, r);
    U q = div(Format::F32, a, b);
    if (!is_nan(Format::F32, q) && classify(Format::F32, q) == FpClass::Normal &&
        classify(Format::F32, a) == FpClass::Normal && classify(Format::F32, b) == FpClass::Normal &&
        (b & 0x7FFFFFFF) <= 0x7E800000) {
      for (U got : {U{div_approx_f32(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), false)},
                    U{div_full_f32(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), false)}}) {
        long d = static_cast<long>(got & 0x7FFFFFFF) - static_cast<long>(q & 0x7FFFFFFF);
        EXPECT_LE(std::labs(d), 2) << hex(a) << " / " << hex(b);
      }
    }
  }
}

}  // namespace
}  // namespace racer::ieee::test
