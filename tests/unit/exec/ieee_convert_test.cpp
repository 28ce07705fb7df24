// cvt: float <-> float against the rational reference and the host, fp8 and tf32 rules,
// packed pairs, round to integral, float <-> integer with saturation.
#include <gtest/gtest.h>

#include <cmath>

#include "exec/ieee.hpp"
#include "ieee_host.hpp"

namespace racer::ieee::test {
namespace {

using U = std::uint64_t;
constexpr Rounding kModes[] = {Rounding::RN, Rounding::RZ, Rounding::RM, Rounding::RP};

// Narrowing float conversions against the exact rational reference, every mode.
TEST(IeeeConvert, NarrowingMatchesRationalReference) {
  struct Pair { Format to, from; };
  for (Pair p : {Pair{Format::F16, Format::F32}, Pair{Format::BF16, Format::F32},
                 Pair{Format::F16, Format::F64}, Pair{Format::BF16, Format::F64},
                 Pair{Format::E5M2, Format::F32}, Pair{Format::E4M3, Format::F16},
                 Pair{Format::TF32, Format::F32}}) {
    double maxf = to_double(p.to, max_finite(p.to, false));
    int failures = 0;
    for (Rounding m : kModes) {
      for (bool satf : {false, true}) {
        if (p.to == Format::E4M3 && !satf) continue;  // PTX requires .satfinite for fp8
        Rng r(51);
        for (int i = 0; i < 1500; ++i) {
          U x = gen(p.from, r);
          if (r.chance(2)) {  // land near the destination's range
            const FormatInfo& fi = info(p.from);
            int e = info(p.to).emin() - info(p.to).man_bits - 2 +
                    static_cast<int>(r.below(static_cast<U>(1 << info(p.to).exp_bits) + 16));
            U ex = static_cast<U>(std::clamp(e + fi.bias, 1, (1 << fi.exp_bits) - 2));
            x = make(p.from, r.chance(2), ex, x >> fi.shift);
          }
          if (is_nan(p.from, x) || is_inf(p.from, x) || is_zero(p.from, x)) continue;
          U got = convert(p.to, p.from, x, Mode{m, false, false, false, satf});
          double want = ref_round(p.to, exact_value(p.from, x), m, maxf, satf);
          bool ok = to_double(p.to, got) == want && (want != 0 || is_neg(p.to, got) == is_neg(p.from, x));
          if (!ok && ++failures <= 5) {
            ADD_FAILURE() << info(p.to).name << " <- " << info(p.from).name << " mode " << int(m)
                          << " satfinite " << satf << " on " << hex(x) << ": got " << hex(got);
          }
        }
      }
    }
    EXPECT_EQ(failures, 0);
  }
}

// Widening is exact: every f16, bf16, e4m3, e5m2 value, through f32 and f64.
TEST(IeeeConvert, WideningIsExactAndRoundTrips) {
  for (Format f : {Format::F16, Format::BF16, Format::E4M3, Format::E5M2}) {
    U n = U{1} << info(f).storage_bits;
    for (U x = 0; x < n; ++x) {
      if (is_nan(f, x)) continue;
      for (Format to : {Format::F32, Format::F64}) {
        U w = convert(to, f, x);
        EXPECT_EQ(to_double(to, w), to_double(f, x)) << info(f).name << " " << x;
        EXPECT_EQ(is_neg(to, w), is_neg(f, x));
        EXPECT_EQ(convert(f, to, w, Mode{Rounding::RN, false, false, false, f == Format::E4M3}), x);
      }
    }
  }
}

TEST(IeeeConvert, NaNRules) {
  // Canonical NaNs between the narrow formats.
  EXPECT_EQ(convert(Format::F16, Format::F32, 0xFFC00001), 0x7FFFu);
  EXPECT_EQ(convert(Format::F32, Format::F16, 0xFE01), 0x7FFFFFFFu);
  EXPECT_EQ(convert(Format::BF16, Format::F32, 0x7F800001), 0x7FFFu);
  EXPECT_EQ(convert(Format::E4M3, Format::F32, 0xFFC00000, {Rounding::RN, false, false, false, true}), 0x7Fu);
  EXPECT_EQ(convert(Format::F16, Format::E5M2, 0xFE), 0x7FFFu);
  // To and from f64: sign and top of payload kept, quieted.
  EXPECT_EQ(convert(Format::F64, Format::F32, 0x7F800001), 0x7FF8000020000000u);
  EXPECT_EQ(convert(Format::F64, Format::F32, 0xFFFFFFFF), 0xFFFFFFFFE0000000u);
  EXPECT_EQ(convert(Format::F64, Format::F16, 0x7C01), 0x7FF8040000000000u);
  EXPECT_EQ(convert(Format::F32, Format::F64, 0x7FF0000000000001), 0x7FC00000u);
  EXPECT_EQ(convert(Format::F32, Format::F64, 0xFFFFFFFFFFFFFFFF), 0xFFFFFFFFu);
  EXPECT_EQ(convert(Format::F16, Format::F64, 0xFFF8000000000000), 0xFE00u);
  // cvt.ftz.f64.f32 canonicalizes first.
  EXPECT_EQ(convert(Format::F64, Format::F32, 0x7F800001, {Rounding::RN, true}), 0x7FFFFFFFE0000000u);
  // bf16 -> f32 is a shift.
  EXPECT_EQ(convert(Format::F32, Format::BF16, 0x7F81), 0x7F810000u);
  // f32 -> tf32 truncates; .satfinite then subtracts one tf32 ulp (inf becomes max).
  const Mode rna{Rounding::RNA}, rna_sf{Rounding::RNA, false, false, false, true};
  EXPECT_EQ(convert(Format::TF32, Format::F32, 0x7FFFFFFF, rna), 0x7FFFE000u);
  EXPECT_EQ(convert(Format::TF32, Format::F32, 0x7F800001, rna), 0x7F800000u);
  EXPECT_EQ(convert(Format::TF32, Format::F32, 0x7FC00000, rna_sf), 0x7FBFE000u);
  EXPECT_EQ(convert(Format::TF32, Format::F32, 0xFF800000, rna_sf), 0xFF7FE000u);
  // .sat makes NaN +0; .relu makes it canonical.
  EXPECT_EQ(convert(Format::F32, Format::F64, 0x7FF8000000000000, {Rounding::RN, false, true}), 0x0u);
  EXPECT_EQ(convert(Format::F16, Format::F32, 0x7FC00000, {Rounding::RN, false, false, true}), 0x7FFFu);
}

TEST(IeeeConvert, Fp8AndTf32) {
  const Mode sf{Rounding::RN, false, false, false, true};
  const Format f32 = Format::F32;
  EXPECT_EQ(convert(Format::E4M3, f32, 0x447A0000, sf), 0x7Eu);  // 1000 -> 448
  EXPECT_EQ(convert(Format::E4M3, f32, 0xFF800000, sf), 0xFEu);  // -inf -> -448
  EXPECT_EQ(convert(Format::E4M3, f32, 0x43E80000, sf), 0x7Eu);  // 464: tie to 448
  EXPECT_EQ(convert(Format::E4M3, f32, 0x3B000000, sf), 0x01u);  // 2^-9
  EXPECT_EQ(convert(Format::E4M3, f32, 0x3A800000, sf), 0x00u);  // 2^-10: tie to 0
  EXPECT_EQ(convert(Format::E5M2, f32, 0x49742400, sf), 0x7Bu);  // 1e6 -> 57344
  EXPECT_EQ(convert(Format::E5M2, f32, 0x7F800000, sf), 0x7Bu);
  EXPECT_EQ(convert(Format::E5M2, f32, 0x7F800000), 0x7Cu);       // without satfinite: inf
  const Mode relu_sf{Rounding::RN, false, false, true, true};
  EXPECT_EQ(convert(Format::E4M3, f32, 0xBF800000, relu_sf), 0x00u);
  // cvt.rn.satfinite.e4m3x2.f32 d, a, b: a in the upper byte.
  EXPECT_EQ(convert_pair(Format::E4M3, f32, 0x3F800000, 0xC0000000, sf), 0x38C0u);
  EXPECT_EQ(convert_pair(Format::F16, f32, 0x3F800000, 0xC0000000), 0x3C00C000u);
  // cvt.rn.f16x2.e4m3x2: lanes stay in place.
  EXPECT_EQ(convert_x2(Format::F16, Format::E4M3, 0x38C0), 0x3C00C000u);
  EXPECT_EQ(convert_x2(Format::E5M2, Format::F16, 0x3C00C000, sf), 0x3CC0u);
  // tf32: rna ties away from zero.
  const Mode rna{Rounding::RNA};
  EXPECT_EQ(convert(Format::TF32, f32, 0x3F801000, rna), 0x3F802000u);  // 1 + 2^-11
  EXPECT_EQ(convert(Format::TF32, f32, 0xBF801000, rna), 0xBF802000u);
  EXPECT_EQ(convert(Format::TF32, f32, 0x3F800FFF, rna), 0x3F800000u);
  EXPECT_EQ(convert(Format::TF32, f32, 0x3F803000, {Rounding::RN}), 0x3F804000u);  // tie to even
  EXPECT_EQ(convert(Format::TF32, f32, 0x7F7FF000, rna), 0x7F800000u);
  EXPECT_EQ(convert(Format::TF32, f32, 0x7F7FF000, {Rounding::RNA, false, false, false, true}), 0x7F7FE000u);
}

TEST(IeeeConvert, SatAndRoundToIntegral) {
  const Format f = Format::F32;
  const Mode sat{Rounding::RN, false, true};
  EXPECT_EQ(convert(f, f, 0x3FC00000, sat), 0x3F800000u);
  EXPECT_EQ(convert(f, f, 0xBF000000, sat), 0x00000000u);
  EXPECT_EQ(convert(f, f, 0x80000000, sat), 0x00000000u);
  EXPECT_EQ(convert(f, f, 0x3F000000, sat), 0x3F000000u);
  EXPECT_EQ(round_to_integral(f, 0xBE99999A, Rounding::RN), 0x80000000u);  // -0.3 -> -0
  EXPECT_EQ(round_to_integral(f, 0x3F000000, Rounding::RN), 0x00000000u);  // 0.5 -> 0
  EXPECT_EQ(round_to_integral(f, 0x3FC00000, Rounding::RN), 0x40000000u);  // 1.5 -> 2
  EXPECT_EQ(round_to_integral(f, 0x00000001, Rounding::RP), 0x3F800000u);
  EXPECT_EQ(round_to_integral(f, 0x00000001, Rounding::RP, true), 0x00000000u);
  EXPECT_EQ(round_to_integral(f, 0x80000001, Rounding::RM), 0xBF800000u);
  EXPECT_EQ(round_to_integral(f, 0x4B800001, Rounding::RZ), 0x4B800001u);
  for (Rounding m : kModes) {
    HostRounding hr(m);
    Rng r(53);
    for (int i = 0; i < 20000; ++i) {
      U x = gen(Format::F64, r);
      double v = f64_of(x);
      if (std::isnan(v)) continue;
      volatile double in = v;
      double want = std::nearbyint(in);
      EXPECT_EQ(round_to_integral(Format::F64, x, m), bits_of(want)) << hex(x) << " mode " << int(m);
    }
  }
}

TEST(IeeeConvert, FloatToIntSaturates) {
  struct T { IntType t; long double lo, hi; };
  const T types[] = {{IntType::S8, -128.0L, 127.0L},           {IntType::U8, 0, 255.0L},
                     {IntType::S16, -32768.0L, 32767.0L},      {IntType::U16, 0, 65535.0L},
                     {IntType::S32, -0x1p31L, 0x1p31L - 1},    {IntType::U32, 0, 0x1p32L - 1},
                     {IntType::S64, -0x1p63L, 0x1p63L - 1},    {IntType::U64, 0, 0x1p64L - 1}};
  for (Format f : {Format::F32, Format::F64, Format::F16}) {
    Rng r(57);
    for (Rounding m : kModes) {
      HostRounding hr(m);
      for (int i = 0; i < 4000; ++i) {
        U x = gen(f, r);
        if (r.chance(2) && f != Format::F16) {  // magnitudes around the integer ranges
          const FormatInfo& fi = info(f);
          x = make(f, r.chance(2), static_cast<U>(fi.bias) + r.below(70), r.next());
        }
        for (const T& t : types) {
          U got = to_int(t.t, f, x, m);
          if (is_nan(f, x)) {
            bool indefinite = int_bits(t.t) == 64 || f == Format::F64;
            U top = U{1} << (int_bits(t.t) - 1);
            EXPECT_EQ(got, !indefinite ? 0 : int_signed(t.t) ? ~(top - 1) : top);
            continue;
          }
          volatile long double in = to_double(f, x);
          long double v = std::nearbyint(static_cast<long double>(in));
          v = std::clamp(v, t.lo, t.hi);
          U want = int_signed(t.t) ? static_cast<U>(static_cast<std::int64_t>(v))
                                   : v >= 0x1p63L ? static_cast<U>(v - 0x1p63L) | U{1} << 63
                                                  : static_cast<U>(v);
          EXPECT_EQ(got, want) << info(f).name << " " << hex(x) << " to " << int(t.t) << " mode " << int(m);
        }
      }
    }
  }
  // ftz matters to rpi: a positive subnormal rounds up to 1 unless flushed.
  EXPECT_EQ(to_int(IntType::S32, Format::F32, 0x00000001, Rounding::RP), 1u);
  EXPECT_EQ(to_int(IntType::S32, Format::F32, 0x00000001, Rounding::RP, true), 0u);
  EXPECT_EQ(to_int(IntType::S32, Format::F32, 0xFF800000, Rounding::RZ), 0xFFFFFFFF80000000u);
  EXPECT_EQ(to_int(IntType::U32, Format::F32, 0xBF800000, Rounding::RZ), 0u);
}

TEST(IeeeConvert, IntToFloatMatchesHost) {
  Rng r(59);
  for (Rounding m : kModes) {
    HostRounding hr(m);
    for (int i = 0; i < 20000; ++i) {
      int len = 1 + static_cast<int>(r.below(64));
      U v = r.next() >> (64 - len);
      if (r.chance(2)) v = ~v + 1;
      volatile std::int64_t s64 = static_cast<std::int64_t>(v);
      volatile std::uint64_t u64 = v;
      volatile std::int32_t s32 = static_cast<std::int32_t>(v);
      volatile std::uint32_t u32 = static_cast<std::uint32_t>(v);
      const Mode md{m};
      EXPECT_EQ(from_int(Format::F32, IntType::S64, v, md), bits_of(static_cast<float>(s64)));
      EXPECT_EQ(from_int(Format::F32, IntType::U64, v, md), bits_of(static_cast<float>(u64)));
      EXPECT_EQ(from_int(Format::F32, IntType::S32, v, md), bits_of(static_cast<float>(s32)));
      EXPECT_EQ(from_int(Format::F32, IntType::U32, v, md), bits_of(static_cast<float>(u32)));
      EXPECT_EQ(from_int(Format::F64, IntType::S64, v, md), bits_of(static_cast<double>(s64)));
      EXPECT_EQ(from_int(Format::F64, IntType::U64, v, md), bits_of(static_cast<double>(u64)));
      // f16 against the rational reference (65520 and up overflow in RN).
      std::int32_t iv = s32;
      U got = from_int(Format::F16, IntType::S32, v, md);
      if (iv == 0) {
        EXPECT_EQ(got, 0u);
      } else {
        EXPECT_EQ(to_double(Format::F16, got), ref_round(Format::F16, mpq_class(iv), m, 65504.0, false));
      }
    }
  }
  EXPECT_EQ(from_int(Format::F32, IntType::S8, 0xFF, {}), 0xBF800000u);  // -1
  EXPECT_EQ(from_int(Format::F32, IntType::U8, 0xFF, {}), 0x437F0000u);  // 255
  EXPECT_EQ(from_int(Format::F32, IntType::S32, 0x7FFFFFFF, {Rounding::RN, false, true}), 0x3F800000u);
}

}  // namespace
}  // namespace racer::ieee::test
