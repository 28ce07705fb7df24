// add, sub, mul, fma: f32 and f64 against the host CPU in all four rounding modes; f16 and
// bf16 (and f32 fma) against exact rational arithmetic; signed zeros, sat, relu, packed x2.
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
    Mode md{m};
    expect_matches_host<T>("add", m, 2, n, [&](U a, U b, U) { return add(f, a, b, md); },
                           [](T a, T b, T) { return Host<T>::add(a, b); });
    expect_matches_host<T>("sub", m, 2, n, [&](U a, U b, U) { return sub(f, a, b, md); },
                           [](T a, T b, T) { return Host<T>::sub(a, b); });
    expect_matches_host<T>("mul", m, 2, n, [&](U a, U b, U) { return mul(f, a, b, md); },
                           [](T a, T b, T) { return Host<T>::mul(a, b); });
    expect_matches_host<T>("fma", m, 3, n, [&](U a, U b, U c) { return fma(f, a, b, c, md); },
                           [](T a, T b, T c) { return Host<T>::fma(a, b, c); });
  }
}

TEST(IeeeArith, F32MatchesHost) { host_suite<float>(40000); }

// .ftz against the host's FTZ/DAZ mode, which flushes by the same rule.
TEST(IeeeArith, F32FtzMatchesHost) {
  const Format f = Format::F32;
  for (Rounding m : kModes) {
    Mode md{m, true};
    expect_matches_host<float>("add.ftz", m, 2, 20000, [&](U a, U b, U) { return add(f, a, b, md); },
                               [](float a, float b, float) { return Host<float>::add(a, b); }, 3, true);
    expect_matches_host<float>("mul.ftz", m, 2, 20000, [&](U a, U b, U) { return mul(f, a, b, md); },
                               [](float a, float b, float) { return Host<float>::mul(a, b); }, 4, true);
    expect_matches_host<float>("fma.ftz", m, 3, 20000, [&](U a, U b, U c) { return fma(f, a, b, c, md); },
                               [](float a, float b, float c) { return Host<float>::fma(a, b, c); }, 5, true);
  }
}
TEST(IeeeArith, F64MatchesHost) { host_suite<double>(40000); }

// The reference for formats the host lacks: the exact rational result, correctly rounded by
// the independent rational encoder.
void rational_suite(Format f, int n, std::uint64_t seed) {
  auto ops = operands(f, 3, n, seed);
  double maxf = to_double(f, max_finite(f, false));
  int failures = 0;
  for (Rounding m : kModes) {
    Mode md{m};
    for (const auto& o : ops) {
      bool special = false;
      for (U v : o) special = special || is_nan(f, v) || is_inf(f, v);
      if (special) continue;
      mpq_class a = exact_value(f, o[0]), b = exact_value(f, o[1]), c = exact_value(f, o[2]);
      struct Case { const char* name; mpq_class exact; U got; bool zero_neg; };
      bool na = is_neg(f, o[0]), nb = is_neg(f, o[1]), nc = is_neg(f, o[2]);
      auto zsign = [&](bool x, bool y) { return x == y ? x : m == Rounding::RM; };
      Case cases[] = {
          {"add", a + b, add(f, o[0], o[1], md), zsign(na, nb)},
          {"sub", a - b, sub(f, o[0], o[1], md), zsign(na, !nb)},
          {"mul", a * b, mul(f, o[0], o[1], md), na != nb},
          {"fma", a * b + c, fma(f, o[0], o[1], o[2], md), zsign(na != nb, nc)},
      };
      for (const Case& k : cases) {
        bool ok;
        if (k.exact == 0) {
          // Exact zero: sign by the IEEE rule (a product's zero has the xor sign).
          bool prod_zero_fma = std::string(k.name) == "fma" && a * b == 0 && c == 0;
          bool want_neg = prod_zero_fma ? zsign(na != nb, nc) : k.zero_neg;
          ok = is_zero(f, k.got) && is_neg(f, k.got) == want_neg;
        } else {
          double want = ref_round(f, k.exact, m, maxf, false);
          ok = to_double(f, k.got) == want;
          if (want == 0) ok = ok && is_neg(f, k.got) == (k.exact < 0);
        }
        if (!ok && ++failures <= 5) {
          ADD_FAILURE() << info(f).name << " " << k.name << " mode " << int(m) << " on "
                        << hex(o[0]) << " " << hex(o[1]) << " " << hex(o[2]) << ": got "
                        << hex(k.got);
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(IeeeArith, F16MatchesRationalReference) { rational_suite(Format::F16, 5000, 11); }
TEST(IeeeArith, Bf16MatchesRationalReference) { rational_suite(Format::BF16, 5000, 12); }
TEST(IeeeArith, F32FmaMatchesRationalReference) { rational_suite(Format::F32, 3000, 13); }
TEST(IeeeArith, F64FmaMatchesRationalReference) { rational_suite(Format::F64, 2000, 14); }

TEST(IeeeArith, SignedZerosAndSpecials) {
  const Format f = Format::F32;
  const U pz = 0, nz = 0x80000000, one_ = 0x3F800000, mone = 0xBF800000, inf = 0x7F800000;
  EXPECT_EQ(add(f, pz, nz), pz);
  EXPECT_EQ(add(f, nz, nz), nz);
  EXPECT_EQ(add(f, pz, nz, {Rounding::RM}), nz);
  EXPECT_EQ(add(f, one_, mone), pz);
  EXPECT_EQ(add(f, one_, mone, {Rounding::RM}), nz);
  EXPECT_EQ(sub(f, nz, pz), nz);
  EXPECT_EQ(mul(f, nz, one_), nz);
  EXPECT_EQ(fma(f, nz, one_, pz), pz);
  EXPECT_EQ(fma(f, nz, one_, nz), nz);
  EXPECT_EQ(fma(f, pz, mone, nz), nz);
  EXPECT_EQ(add(f, inf, inf ^ 0x80000000), canonical_nan(f));
  EXPECT_EQ(mul(f, inf, pz), canonical_nan(f));
  EXPECT_EQ(fma(f, inf, pz, 0x7FC00000), canonical_nan(f));
  EXPECT_EQ(fma(f, inf, one_, inf ^ 0x80000000), canonical_nan(f));
  EXPECT_EQ(fma(f, one_, one_, inf), inf);
  // NaN payloads are not propagated.
  EXPECT_EQ(add(f, 0xFFC00001, one_), 0x7FFFFFFFu);
  // F64 propagates the NaN operand (quieted) and makes 0xFFF8... for invalid operations.
  EXPECT_EQ(mul(Format::F64, 0xFFF0000000000001, 0), 0xFFF8000000000001u);
  EXPECT_EQ(add(Format::F64, 0x7FF0000000000000, 0xFFF0000000000000), 0xFFF8000000000000u);
  EXPECT_EQ(sqrt(Format::F64, 0xBFF0000000000000), 0xFFF8000000000000u);
  EXPECT_EQ(add(Format::F16, 0xFE01, 0x3C00), 0x7FFFu);
  EXPECT_EQ(fma(Format::BF16, 0x3F80, 0xFFC1, 0x3F80), 0x7FFFu);
}

TEST(IeeeArith, FtzFlushesInputsAndResults) {
  const Format f = Format::F32;
  const Mode ftz{Rounding::RN, true};
  EXPECT_EQ(add(f, 0x00000001, 0x00000001), 0x00000002u);
  EXPECT_EQ(add(f, 0x00000001, 0x00000001, ftz), 0x00000000u);
  EXPECT_EQ(add(f, 0x80000001, 0x3F800000, ftz), 0x3F800000u);
  EXPECT_EQ(mul(f, 0x00800000, 0x3F000000), 0x00400000u);      // 2^-127 is subnormal
  EXPECT_EQ(mul(f, 0x00800000, 0x3F000000, ftz), 0x00000000u);
  EXPECT_EQ(mul(f, 0x80800000, 0x3F000000, ftz), 0x80000000u);  // sign-preserving
  EXPECT_EQ(mul(f, 0x00800000, 0x3F000000, {Rounding::RP, true}), 0x00000000u);
  EXPECT_EQ(fma(f, 0x00000001, 0x4B000000, 0x00000000, ftz), 0x00000000u);  // input flushed
  EXPECT_EQ(fma(f, 0x00000001, 0x4B000000, 0x00000000), 0x00800000u);
  // f16 ftz flushes f16 subnormals.
  EXPECT_EQ(add(Format::F16, 0x0001, 0x0001, ftz), 0x0000u);
  EXPECT_EQ(add(Format::F16, 0x0001, 0x0001), 0x0002u);
}

TEST(IeeeArith, SatAndRelu) {
  const Format f = Format::F32;
  Mode sat{Rounding::RN, false, true};
  EXPECT_EQ(add(f, 0x3F800000, 0x3F800000, sat), 0x3F800000u);  // 2 -> 1
  EXPECT_EQ(add(f, 0xBF800000, 0x00000000, sat), 0x00000000u);  // -1 -> +0
  EXPECT_EQ(mul(f, 0x80000000, 0x3F800000, sat), 0x00000000u);  // -0 -> +0
  EXPECT_EQ(add(f, 0x7F800000, 0xFF800000, sat), 0x00000000u);  // NaN -> +0
  EXPECT_EQ(add(f, 0x3F000000, 0x00000000, sat), 0x3F000000u);
  Mode relu{Rounding::RN, false, false, true};
  EXPECT_EQ(fma(Format::F16, 0x3C00, 0xC000, 0x3C00, relu), 0x0000u);  // -1 -> 0
  EXPECT_EQ(fma(Format::F16, 0x3C00, 0x4000, 0x3C00, relu), 0x4200u);  // 3
  EXPECT_EQ(fma(Format::BF16, 0x7F80, 0x0000, 0x3F80, relu), 0x7FFFu);  // NaN
}

TEST(IeeeArith, PackedX2IsLaneWise) {
  const Format f = Format::F16;
  Rng r(21);
  for (int i = 0; i < 2000; ++i) {
    auto a = static_cast<std::uint32_t>(gen(f, r) | gen(f, r) << 16);
    auto b = static_cast<std::uint32_t>(gen(f, r) | gen(f, r) << 16);
    auto c = static_cast<std::uint32_t>(gen(f, r) | gen(f, r) << 16);
    for (Format g : {Format::F16, Format::BF16}) {
      EXPECT_EQ(add_x2(g, a, b), add(g, a & 0xFFFF, b & 0xFFFF) | add(g, a >> 16, b >> 16) << 16);
      EXPECT_EQ(sub_x2(g, a, b), sub(g, a & 0xFFFF, b & 0xFFFF) | sub(g, a >> 16, b >> 16) << 16);
      EXPECT_EQ(mul_x2(g, a, b), mul(g, a & 0xFFFF, b & 0xFFFF) | mul(g, a >> 16, b >> 16) << 16);
      EXPECT_EQ(fma_x2(g, a, b, c),
                fma(g, a & 0xFFFF, b & 0xFFFF, c & 0xFFFF) | fma(g, a >> 16, b >> 16, c >> 16) << 16);
    }
  }
}

}  // namespace
}  // namespace racer::ieee::test
