// The arithmetic mod 2^61 - 1 shared by the CPU check and the CUDA kernels, against __int128.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "freivalds/modular_arith.hpp"

namespace racer::freivalds {
namespace {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
constexpr uint64_t p = kModularPrime;

uint64_t ref_mod(i128 v) {
  i128 r = v % static_cast<i128>(p);
  return static_cast<uint64_t>(r < 0 ? r + static_cast<i128>(p) : r);
}

std::vector<uint64_t> residues() {
  std::vector<uint64_t> v = {0, 1, 2, p - 1, p - 2, (uint64_t{1} << 61) - 2, (uint64_t{1} << 60), (uint64_t{1} << 32) - 1,
                             uint64_t{1} << 21, (uint64_t{1} << 42) - 1};
  for (uint64_t i = 0; i < 200; ++i) v.push_back(splitmix64(i) % p);
  return v;
}

TEST(ModularArith, FoldReducesEvery64BitValue) {
  std::vector<uint64_t> xs = {0, p - 1, p, p + 1, uint64_t{1} << 61, UINT64_MAX, UINT64_MAX - 7, 8 * p, 8 * p - 1};
  for (uint64_t i = 0; i < 1000; ++i) xs.push_back(splitmix64(i ^ 77));
  for (uint64_t x : xs) EXPECT_EQ(mod_fold(x), x % p) << x;
}

TEST(ModularArith, AddSubMulShiftMatchInt128) {
  for (uint64_t a : residues())
    for (uint64_t b : residues()) {
      EXPECT_EQ(mod_add(a, b), static_cast<uint64_t>((u128{a} + b) % p));
      EXPECT_EQ(mod_sub(a, b), ref_mod(static_cast<i128>(a) - static_cast<i128>(b)));
      EXPECT_EQ(mod_mul(a, b), static_cast<uint64_t>(u128{a} * b % p)) << a << " * " << b;
    }
  for (uint64_t a : residues())
    for (int s = 0; s < 61; ++s) EXPECT_EQ(mod_shift(a, s), static_cast<uint64_t>((u128{a} << s) % p)) << a << " << " << s;
}

TEST(ModularArith, SignedResidues) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, INT64_MIN, INT64_MAX, static_cast<int64_t>(p), -static_cast<int64_t>(p),
                    -static_cast<int64_t>(p) - 1, int64_t{-128} * 255})
    EXPECT_EQ(signed_residue(v), ref_mod(v)) << v;
  for (uint64_t i = 0; i < 1000; ++i) {
    int64_t v = static_cast<int64_t>(splitmix64(i + 5));
    EXPECT_EQ(signed_residue(v), ref_mod(v)) << v;
  }
}

// The kernels' sums: 8-bit and int32 values times residues, folded every kFoldColumns columns.
TEST(ModularArith, SplitSumsMatchInt128) {
  for (int trial = 0; trial < 20; ++trial) {
    SplitSum s;
    i128 ref = 0;
    for (int64_t l = 0; l < kFoldColumns; ++l) {
      uint64_t x = splitmix64(trial * 100000 + l) % p, y = splitmix64(trial * 100000 + l + 50000) % p;
      auto a = static_cast<int32_t>(static_cast<int8_t>(splitmix64(l ^ trial)));
      auto c = static_cast<int32_t>(static_cast<uint32_t>(splitmix64(l + trial * 7)));
      s.add(a, x);
      s.sub(c, residue_part(y, 0), residue_part(y, 1), residue_part(y, 2));
      ref += static_cast<i128>(a) * x - static_cast<i128>(c) * y;
    }
    EXPECT_EQ(s.residue(), ref_mod(ref));
  }
}

// The bound of kFoldColumns: the largest terms of both kinds in every column, with every part
// at its largest (2^21 - 1), do not overflow the 64-bit sums.
TEST(ModularArith, SplitSumsAtTheFoldBound) {
  for (int32_t a : {255, -128})
    for (int32_t c : {INT32_MIN, INT32_MAX}) {
      SplitSum s;
      i128 ref = 0;
      const i128 whole = i128{kPartMask} + (i128{kPartMask} << 21) + (i128{kPartMask} << 42);
      for (int64_t l = 0; l < kFoldColumns; ++l) {
        s.add(a, kPartMask, kPartMask, kPartMask);
        s.sub(c, kPartMask, kPartMask, kPartMask);
        ref += (i128{a} - i128{c}) * whole;
      }
      EXPECT_EQ(s.residue(), ref_mod(ref)) << a << " " << c;
    }
  for (uint64_t x : {p - 1, (uint64_t{1} << 61) - 3, uint64_t{0}, uint64_t{1}}) {
    SplitSum s;
    for (int32_t v : {-128, 255, 127, 0, INT32_MIN, INT32_MAX}) s.add(v, x);
    EXPECT_EQ(s.residue(), ref_mod(static_cast<i128>(-128 + 255 + 127 + 0 + i128{INT32_MIN} + INT32_MAX) * x)) << x;
  }
}

TEST(ModularArith, RandomResiduesAreResiduesOfTheirBits) {
  for (uint64_t i = 0; i < 1000; ++i) {
    uint64_t r = modular_random_residue(42, i);
    EXPECT_LT(r, p);
    EXPECT_EQ(r, (splitmix64(splitmix64(42 ^ 0x5eed) ^ i) >> 3) % p);
  }
}

}  // namespace
}  // namespace racer::freivalds
