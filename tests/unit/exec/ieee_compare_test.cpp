// setp comparisons against the host, min/max NaN and signed-zero rules, abs/neg/copysign.
#include <gtest/gtest.h>

#include "exec/ieee.hpp"
#include "ieee_host.hpp"

namespace racer::ieee::test {
namespace {

using U = std::uint64_t;

template <class T>
bool host_compare(Cmp c, T x, T y) {
  bool un = std::isnan(x) || std::isnan(y);
  switch (c) {
    case Cmp::Eq: return !un && x == y;
    case Cmp::Ne: return !un && x != y;
    case Cmp::Lt: return !un && x < y;
    case Cmp::Le: return !un && x <= y;
    case Cmp::Gt: return !un && x > y;
    case Cmp::Ge: return !un && x >= y;
    case Cmp::Equ: return un || x == y;
    case Cmp::Neu: return un || x != y;
    case Cmp::Ltu: return un || x < y;
    case Cmp::Leu: return un || x <= y;
    case Cmp::Gtu: return un || x > y;
    case Cmp::Geu: return un || x >= y;
    case Cmp::Num: return !un;
    case Cmp::Nan: return un;
  }
  return false;
}

template <class T>
void compare_suite() {
  const Format f = format_of<T>();
  for (bool ftz : {false, true}) {
    int failures = 0;
    for (const auto& o : operands(f, 2, 20000, 41)) {
      T x = value_of<T>(flush(f, o[0], ftz)), y = value_of<T>(flush(f, o[1], ftz));
      for (int c = 0; c < 14; ++c) {
        bool got = compare(f, static_cast<Cmp>(c), o[0], o[1], ftz);
        if (got != host_compare(static_cast<Cmp>(c), x, y) && ++failures <= 5) {
          ADD_FAILURE() << "cmp " << c << " ftz " << ftz << " on " << hex(o[0]) << " " << hex(o[1]);
        }
      }
    }
    EXPECT_EQ(failures, 0);
  }
}

TEST(IeeeCompare, F32MatchesHost) { compare_suite<float>(); }
TEST(IeeeCompare, F64MatchesHost) { compare_suite<double>(); }

TEST(IeeeCompare, SmallFormats) {
  EXPECT_TRUE(compare(Format::F16, Cmp::Eq, 0x8000, 0x0000));
  EXPECT_TRUE(compare(Format::F16, Cmp::Lt, 0xFC00, 0xFBFF));
  EXPECT_FALSE(compare(Format::F16, Cmp::Lt, 0x7E00, 0x3C00));
  EXPECT_TRUE(compare(Format::F16, Cmp::Ltu, 0x7E00, 0x3C00));
  EXPECT_TRUE(compare(Format::BF16, Cmp::Gt, 0x3F81, 0x3F80));
  EXPECT_TRUE(compare(Format::F16, Cmp::Eq, 0x0001, 0x8002, true));  // both flush to zero
  EXPECT_FALSE(compare(Format::F16, Cmp::Eq, 0x0001, 0x8002));
  EXPECT_TRUE(compare(Format::E4M3, Cmp::Gt, 0x7E, 0x7D));
  EXPECT_TRUE(compare(Format::E4M3, Cmp::Nan, 0x7F, 0x00));
  EXPECT_TRUE(compare(Format::TF32, Cmp::Eq, 0x3F800000, 0x3F801FFF));  // low bits not read
}

TEST(IeeeMinMax, NanAndSignedZero) {
  const Format f = Format::F32;
  const U pz = 0, nz = 0x80000000, one_ = 0x3F800000, two = 0x40000000, nan = 0x7FC00001;
  EXPECT_EQ(min(f, pz, nz), nz);
  EXPECT_EQ(min(f, nz, pz), nz);
  EXPECT_EQ(max(f, pz, nz), pz);
  EXPECT_EQ(max(f, nz, pz), pz);
  EXPECT_EQ(min(f, nan, one_), one_);
  EXPECT_EQ(min(f, one_, nan), one_);
  EXPECT_EQ(max(f, nan, 0xFF800000), 0xFF800000u);
  EXPECT_EQ(min(f, nan, 0xFFC00000), canonical_nan(f));
  EXPECT_EQ(min(f, one_, nan, {false, true}), canonical_nan(f));
  EXPECT_EQ(max(f, nan, nan, {false, true}), canonical_nan(f));
  EXPECT_EQ(min(f, one_, two, {false, true}), one_);
  EXPECT_EQ(min(f, 0xC0000000, 0x40400000, {false, false, true}), 0xC0000000u);  // -2
  EXPECT_EQ(max(f, 0xC0000000, 0x40400000, {false, false, true}), 0xC0400000u);  // -3
  EXPECT_EQ(max(f, 0xC0000000, 0xC0400000, {false, false, true}), 0x40400000u);  // +3
  EXPECT_EQ(min(f, 0x80000001, 0x00000002, {true}), 0x80000000u);  // flushed: -0 < +0
  EXPECT_EQ(min(f, 0x80000001, 0x00000002), 0x80000001u);
  EXPECT_EQ(min(Format::F16, 0x7E01, 0xFE00), 0x7FFFu);
  EXPECT_EQ(max(Format::BF16, 0x7FC1, 0xBF80), 0xBF80u);
  // f64: both NaN gives b quieted (as measured).
  EXPECT_EQ(min(Format::F64, 0x7FF8000000000000, 0x7FF0000000000001), 0x7FF8000000000001u);
  EXPECT_EQ(max(Format::F64, 0x7FF8000000000000, 0x4000000000000000), 0x4000000000000000u);
  // Random values against the definition.
  Rng r(43);
  for (int i = 0; i < 20000; ++i) {
    U a = gen(f, r), b = r.chance(3) ? near(f, a, r) : gen(f, r);
    if (is_nan(f, a) || is_nan(f, b)) continue;
    float x = f32_of(a), y = f32_of(b);
    U lo = x < y ? a : y < x ? b : (is_neg(f, a) ? a : b);
    U hi = x > y ? a : y > x ? b : (is_neg(f, a) ? b : a);
    EXPECT_EQ(min(f, a, b), lo) << hex(a) << " " << hex(b);
    EXPECT_EQ(max(f, a, b), hi) << hex(a) << " " << hex(b);
  }
}

TEST(IeeeSign, AbsNegCopysign) {
  const Format f = Format::F32;
  EXPECT_EQ(abs(f, 0xBF800000), 0x3F800000u);
  EXPECT_EQ(abs(f, 0x80000000), 0x00000000u);
  EXPECT_EQ(abs(f, 0x80000001), 0x00000001u);
  EXPECT_EQ(abs(f, 0x80000001, true), 0x00000000u);
  EXPECT_EQ(neg(f, 0x00000000), 0x80000000u);
  EXPECT_EQ(neg(f, 0x00000001, true), 0x80000000u);
  EXPECT_EQ(neg(f, 0xFF800000), 0x7F800000u);
  // NaN operands give the canonical NaN (f64: quieted, sign kept), as the hardware does.
  EXPECT_EQ(abs(f, 0xFFC00000), 0x7FFFFFFFu);
  EXPECT_EQ(neg(f, 0x7F800001), 0x7FFFFFFFu);
  EXPECT_EQ(neg(Format::F16, 0x7C01), 0x7FFFu);
  EXPECT_EQ(abs(Format::BF16, 0xFF81), 0x7FFFu);
  EXPECT_EQ(abs(Format::F64, 0xFFF0000000000001), 0xFFF8000000000001u);
  EXPECT_EQ(neg(Format::F64, 0x7FF8000000000000), 0x7FF8000000000000u);
  EXPECT_EQ(neg(Format::F64, 0x3FF0000000000000), 0xBFF0000000000000u);
  // copysign.f32 d, a, b: |b| with a's sign; a bit operation, NaN included.
  EXPECT_EQ(copysign(f, 0x80000000, 0x3F800000), 0xBF800000u);
  EXPECT_EQ(copysign(f, 0x3F800000, 0xFFC00001), 0x7FC00001u);
  EXPECT_EQ(copysign(Format::F16, 0x8000, 0x3C00), 0xBC00u);
  EXPECT_EQ(neg(Format::TF32, 0x3F802000), 0xBF802000u);
}

}  // namespace
}  // namespace racer::ieee::test
