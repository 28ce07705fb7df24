// Formats: constants, classification, exact decoding, and the rounding encoder against the
// host CPU (f32) and an exact-rational reference (every format, every rounding mode).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "exec/ieee.hpp"
#include "ieee_gen.hpp"
#include "ieee_ref.hpp"

namespace racer::ieee::test {
namespace {

constexpr Format kAll[] = {Format::F16, Format::BF16, Format::TF32, Format::F32,
                           Format::F64, Format::E4M3, Format::E5M2};
constexpr Rounding kModes[] = {Rounding::RN, Rounding::RZ, Rounding::RM, Rounding::RP};

TEST(IeeeFormat, KnownConstants) {
  EXPECT_EQ(to_double(Format::F16, 0x3C00), 1.0);
  EXPECT_EQ(to_double(Format::F16, 0x7BFF), 65504.0);
  EXPECT_EQ(to_double(Format::F16, 0x0001), 0x1p-24);
  EXPECT_EQ(to_double(Format::F16, 0x0400), 0x1p-14);
  EXPECT_EQ(to_double(Format::F16, 0xC000), -2.0);
  EXPECT_EQ(to_double(Format::BF16, 0x3F80), 1.0);
  EXPECT_EQ(to_double(Format::BF16, 0x7F7F), 0x1.FEp127);
  EXPECT_EQ(to_double(Format::BF16, 0x0001), 0x1p-133);
  EXPECT_EQ(to_double(Format::E4M3, 0x7E), 448.0);
  EXPECT_EQ(to_double(Format::E4M3, 0x78), 256.0);
  EXPECT_EQ(to_double(Format::E4M3, 0x01), 0x1p-9);
  EXPECT_EQ(to_double(Format::E4M3, 0x08), 0x1p-6);
  EXPECT_TRUE(std::isnan(to_double(Format::E4M3, 0x7F)));
  EXPECT_TRUE(std::isnan(to_double(Format::E4M3, 0xFF)));
  EXPECT_EQ(to_double(Format::E5M2, 0x7B), 57344.0);
  EXPECT_EQ(to_double(Format::E5M2, 0x7C), HUGE_VAL);
  EXPECT_EQ(to_double(Format::E5M2, 0x01), 0x1p-16);
  EXPECT_TRUE(std::isnan(to_double(Format::E5M2, 0x7D)));
  EXPECT_EQ(to_double(Format::TF32, 0x3F800000), 1.0);
  EXPECT_EQ(to_double(Format::TF32, 0x3F801FFF), 1.0);  // low 13 bits are not read
  EXPECT_EQ(to_double(Format::TF32, 0x3F802000), 1.0 + 0x1p-10);
  EXPECT_EQ(max_finite(Format::F32, false), 0x7F7FFFFFu);
  EXPECT_EQ(max_finite(Format::E4M3, true), 0xFEu);
  EXPECT_EQ(max_finite(Format::E5M2, false), 0x7Bu);
  EXPECT_EQ(max_finite(Format::TF32, false), 0x7F7FE000u);
  EXPECT_EQ(infinity(Format::F16, true), 0xFC00u);
  EXPECT_EQ(infinity(Format::E4M3, false), 0x7Fu);  // no infinity: NaN
  EXPECT_EQ(one(Format::BF16), 0x3F80u);
  EXPECT_EQ(min_normal(Format::F64, true), 0x8010000000000000u);
  EXPECT_EQ(canonical_nan(Format::F32), 0x7FFFFFFFu);
  EXPECT_EQ(canonical_nan(Format::F16), 0x7FFFu);
  EXPECT_EQ(canonical_nan(Format::BF16), 0x7FFFu);
  EXPECT_EQ(canonical_nan(Format::F64), 0xFFF8000000000000u);  // f64's invalid-operation NaN
  for (Format f : kAll) EXPECT_TRUE(is_nan(f, canonical_nan(f))) << info(f).name;
}

TEST(IeeeFormat, Classify) {
  EXPECT_EQ(classify(Format::F32, 0x80000000), FpClass::Zero);
  EXPECT_EQ(classify(Format::F32, 0x00000001), FpClass::Subnormal);
  EXPECT_EQ(classify(Format::F32, 0x007FFFFF), FpClass::Subnormal);
  EXPECT_EQ(classify(Format::F32, 0x00800000), FpClass::Normal);
  EXPECT_EQ(classify(Format::F32, 0xFF800000), FpClass::Inf);
  EXPECT_EQ(classify(Format::F32, 0xFF800001), FpClass::NaN);
  EXPECT_EQ(classify(Format::E4M3, 0x78), FpClass::Normal);
  EXPECT_EQ(classify(Format::E4M3, 0x7E), FpClass::Normal);
  EXPECT_EQ(classify(Format::E4M3, 0x7F), FpClass::NaN);
  EXPECT_EQ(classify(Format::E4M3, 0x07), FpClass::Subnormal);
  EXPECT_EQ(classify(Format::E5M2, 0xFC), FpClass::Inf);
  EXPECT_EQ(classify(Format::E5M2, 0x7E), FpClass::NaN);
  EXPECT_EQ(classify(Format::TF32, 0x00001FFF), FpClass::Zero);
  EXPECT_EQ(flush(Format::F32, 0x80000005), 0x80000000u);
  EXPECT_EQ(flush(Format::F32, 0x80000005, false), 0x80000005u);
  EXPECT_EQ(flush(Format::F16, 0x03FF), 0x0000u);
  EXPECT_EQ(flush(Format::F16, 0x0400), 0x0400u);
  EXPECT_TRUE(testp(Format::F32, TestOp::Subnormal, 0x1));
  EXPECT_TRUE(testp(Format::F32, TestOp::Normal, 0x80000000));  // PTX: zeros count as normal
  EXPECT_FALSE(testp(Format::F32, TestOp::Normal, 0x1));
  EXPECT_TRUE(testp(Format::F32, TestOp::Finite, 0x7F7FFFFF));
  EXPECT_FALSE(testp(Format::F32, TestOp::Finite, 0x7F800000));
  EXPECT_TRUE(testp(Format::F32, TestOp::Infinite, 0xFF800000));
  EXPECT_TRUE(testp(Format::F32, TestOp::NotANumber, 0x7FC00000));
  EXPECT_FALSE(testp(Format::F32, TestOp::Number, 0x7FC00000));
}

// decode is exact: F32 and F64 against the host's own reading of the bits; the small formats
// exhaustively against a direct formula.
TEST(IeeeFormat, DecodeMatchesHost) {
  Rng r(1);
  for (int i = 0; i < 200000; ++i) {
    std::uint64_t b32 = gen(Format::F32, r), b64 = gen(Format::F64, r);
    float x = f32_of(b32);
    double y = f64_of(b64);
    if (!std::isnan(x)) {
      EXPECT_EQ(to_double(Format::F32, b32), static_cast<double>(x)) << std::hex << b32;
      // (to_double widens on the host: the general widening must agree as well)
      EXPECT_EQ(convert(Format::F64, Format::F32, b32), std::bit_cast<std::uint64_t>(static_cast<double>(x))) << std::hex << b32;
    }
    if (!std::isnan(y)) {
      EXPECT_EQ(to_double(Format::F64, b64), y) << std::hex << b64;
    }
    Decoded d = decode(Format::F32, b32);
    if (!d.nan && !d.inf) {
      double v = std::ldexp(static_cast<double>(d.mantissa), d.exponent);
      EXPECT_EQ(d.neg ? -v : v, static_cast<double>(x));
    }
  }
  struct Small { Format f; int e, m, bias; };
  for (Small s : {Small{Format::F16, 5, 10, 15}, Small{Format::BF16, 8, 7, 127},
                  Small{Format::E4M3, 4, 3, 7}, Small{Format::E5M2, 5, 2, 15}}) {
    int n = 1 + s.e + s.m;
    for (std::uint64_t b = 0; b < (std::uint64_t{1} << n); ++b) {
      int ex = static_cast<int>((b >> s.m) & ((1u << s.e) - 1));
      int man = static_cast<int>(b & ((1u << s.m) - 1));
      bool neg = (b >> (n - 1)) != 0;
      if (is_nan(s.f, b) || is_inf(s.f, b)) continue;
      double v = ex == 0 ? std::ldexp(man, 1 - s.bias - s.m)
                         : std::ldexp((1 << s.m) + man, ex - s.bias - s.m);
      EXPECT_EQ(to_double(s.f, b), neg ? -v : v) << info(s.f).name << " " << b;
    }
  }
}

// F64 -> F32 rounding (the encoder on 53-bit inputs) against the host in all four modes.
TEST(IeeeFormat, NarrowF64ToF32MatchesHost) {
  Rng r(2);
  for (Rounding m : kModes) {
    HostRounding hr(m);
    for (int i = 0; i < 100000; ++i) {
      std::uint64_t b = gen(Format::F64, r);
      if (r.chance(2)) {  // bring the exponent into f32's range, subnormals and overflow
        std::uint64_t ex = 1023 - 160 + r.below(300);
        b = (b & 0x800FFFFFFFFFFFFFull) | ex << 52;
      }
      double x = f64_of(b);
      float h = host_narrow(x);
      std::uint64_t got = from_double(Format::F32, x, m);
      // NaNs too: x86 narrows a NaN as the GPU does (sign, quiet bit, top of the payload).
      EXPECT_EQ(got, bits_of(h)) << std::hexfloat << x << " mode " << int(m);
      // (from_double narrows on the host in RN: the encoder itself must agree as well)
      Mode mode;
      mode.rnd = m;
      EXPECT_EQ(convert(Format::F32, Format::F64, b, mode), bits_of(h)) << std::hexfloat << x << " mode " << int(m);
    }
  }
}

// Every format and mode against the exact-rational reference on doubles spread around the
// format's range (subnormals, halfway points, overflow).
TEST(IeeeFormat, RoundFromExactMatchesRationalReference) {
  Rng r(3);
  for (Format f : {Format::F16, Format::BF16, Format::TF32, Format::E4M3, Format::E5M2}) {
    const FormatInfo& fi = info(f);
    double maxf = to_double(f, max_finite(f, false));
    for (Rounding m : {Rounding::RN, Rounding::RZ, Rounding::RM, Rounding::RP, Rounding::RNA}) {
      for (bool satf : {false, true}) {
        for (int i = 0; i < 2000; ++i) {
          // A value with a few more bits than f, at an exponent near f's range.
          int e = fi.emin() - fi.man_bits - 3 + static_cast<int>(r.below(static_cast<std::uint64_t>(
                      (1 << fi.exp_bits) + fi.man_bits + 6)));
          std::uint64_t mant = r.next() >> (64 - (fi.man_bits + 1 + static_cast<int>(r.below(6))));
          if (r.chance(3)) mant |= 1;  // halfway and near-halfway patterns
          double x = std::ldexp(static_cast<double>(mant), e - fi.man_bits);
          if (r.chance(2)) x = -x;
          if (x == 0) continue;
          std::uint64_t got = from_double(f, x, m, false, satf);
          double want = ref_round(f, mpq_class(x), m, maxf, satf);
          if (f == Format::E4M3 && std::isinf(want)) {
            EXPECT_TRUE(is_nan(f, got)) << x;  // no infinity: NaN
            continue;
          }
          EXPECT_EQ(to_double(f, got), want)
              << fi.name << " " << std::hexfloat << x << " mode " << int(m) << " sat " << satf;
          if (want == 0) {
            EXPECT_EQ(is_neg(f, got), x < 0);
          }
        }
      }
    }
  }
}

TEST(IeeeFormat, OverflowAndFlush) {
  const Format f = Format::F32;
  // 2^128 in each mode.
  EXPECT_EQ(round_from_exact(f, false, 1, 128, false, Rounding::RN), 0x7F800000u);
  EXPECT_EQ(round_from_exact(f, false, 1, 128, false, Rounding::RZ), 0x7F7FFFFFu);
  EXPECT_EQ(round_from_exact(f, true, 1, 128, false, Rounding::RP), 0xFF7FFFFFu);
  EXPECT_EQ(round_from_exact(f, true, 1, 128, false, Rounding::RM), 0xFF800000u);
  EXPECT_EQ(round_from_exact(f, false, 1, 128, false, Rounding::RN, false, true), 0x7F7FFFFFu);
  // The smallest subnormal and below.
  EXPECT_EQ(round_from_exact(f, false, 1, -149, false, Rounding::RN), 0x1u);
  EXPECT_EQ(round_from_exact(f, false, 1, -150, false, Rounding::RN), 0x0u);    // tie -> even
  EXPECT_EQ(round_from_exact(f, false, 1, -150, true, Rounding::RN), 0x1u);     // above the tie
  EXPECT_EQ(round_from_exact(f, true, 1, -200, false, Rounding::RM), 0x80000001u);
  EXPECT_EQ(round_from_exact(f, true, 1, -200, false, Rounding::RN), 0x80000000u);
  EXPECT_EQ(round_from_exact(f, false, 0, -300, true, Rounding::RP), 0x1u);     // sticky only
  EXPECT_EQ(round_from_exact(f, false, 1, -149, false, Rounding::RN, true), 0x0u);  // ftz
  EXPECT_EQ(round_from_exact(f, true, 3, -149, false, Rounding::RN, true), 0x80000000u);
  // ftz flushes results that are tiny after rounding with an unbounded exponent (as measured
  // on sm_90): 2^-126 - 2^-150 is exact at 24 bits and tiny, so it flushes, although the
  // subnormal grid would round it up to 2^-126; 2^-126 (1 - 2^-60) rounds to 2^-126 and stays.
  EXPECT_EQ(round_from_exact(f, false, (u128{1} << 24) - 1, -150, false, Rounding::RN),
            0x00800000u);
  EXPECT_EQ(round_from_exact(f, false, (u128{1} << 24) - 1, -150, false, Rounding::RN, true),
            0x00000000u);
  EXPECT_EQ(round_from_exact(f, true, (u128{1} << 60) - 1, -186, false, Rounding::RN, true),
            0x80800000u);
  EXPECT_EQ(round_from_exact(f, true, (u128{1} << 60) - 1, -186, false, Rounding::RZ, true),
            0x80000000u);
  EXPECT_EQ(round_from_exact(f, false, (u128{1} << 60) - 1, -186, false, Rounding::RP, true),
            0x00800000u);
  EXPECT_EQ(round_from_exact(f, false, (u128{1} << 60) - 1, -187, false, Rounding::RP, true),
            0x00000000u);  // rounds up to 2^-127 only: still tiny
  // 128-bit significands.
  EXPECT_EQ(round_from_exact(f, false, ~u128{0}, -128, false, Rounding::RN), 0x3F800000u);
  EXPECT_EQ(round_from_exact(f, false, ~u128{0}, -128, false, Rounding::RZ), 0x3F7FFFFFu);
  EXPECT_EQ(round_from_exact(Format::E4M3, false, 464, 0, false, Rounding::RN), 0x7Eu);
  EXPECT_EQ(round_from_exact(Format::E4M3, false, 465, 0, false, Rounding::RN), 0x7Fu);
  EXPECT_EQ(round_from_exact(Format::E4M3, true, 465, 0, false, Rounding::RN, false, true), 0xFEu);
  EXPECT_EQ(round_from_exact(Format::E5M2, false, 61440, 0, false, Rounding::RN), 0x7Cu);
  EXPECT_EQ(round_from_exact(Format::E5M2, false, 61439, 0, false, Rounding::RN), 0x7Bu);
  EXPECT_EQ(round_from_exact(Format::TF32, false, 0x1801, 0, false, Rounding::RNA), 0x45C00000u);
  EXPECT_EQ(round_from_exact(Format::TF32, false, 0x801, -11, false, Rounding::RNA), 0x3F802000u);
}

}  // namespace
}  // namespace racer::ieee::test
