// The exact variant: a correct integer product always passes, any change of C fails.
#include <gtest/gtest.h>

#include <vector>

#include "freivalds/modular.hpp"
#include "freivalds/random_vectors.hpp"
#include "support/error.hpp"

namespace racer::freivalds {
namespace {

struct Ints {
  int64_t n;
  std::vector<int8_t> a, b;
  std::vector<int32_t> c;
};

Ints make(int64_t n, bool extreme) {
  Ints s{n, std::vector<int8_t>(n * n), std::vector<int8_t>(n * n), std::vector<int32_t>(n * n, 0)};
  for (int64_t i = 0; i < n * n; ++i) {
    s.a[i] = extreme ? int8_t{-128} : static_cast<int8_t>(splitmix64(i));
    s.b[i] = extreme ? int8_t{-128} : static_cast<int8_t>(splitmix64(i + 1000003));
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t l = 0; l < n; ++l)
      for (int64_t j = 0; j < n; ++j) s.c[i * n + j] += int32_t{s.a[i * n + l]} * s.b[l * n + j];
  return s;
}

TEST(Modular, CorrectPassesAndEveryOffByOneFails) {
  for (bool extreme : {false, true}) {
    Ints s = make(24, extreme);
    EXPECT_TRUE(check_modular({24, 24, 24, s.a.data(), true, s.b.data(), true, s.c.data()}, 2, 5).pass);
    for (int64_t cell : {0, 100, 24 * 24 - 1}) {
      Ints t = s;
      t.c[cell] -= 1;
      ModularResult r = check_modular({24, 24, 24, t.a.data(), true, t.b.data(), true, t.c.data()}, 1, 5);
      EXPECT_FALSE(r.pass);
      EXPECT_EQ(r.first_bad_row, cell / 24);
      EXPECT_DOUBLE_EQ(r.miss_log2, -60);
    }
  }
}

TEST(Modular, UnsignedOperandsAreReadAsUnsigned) {
  const int64_t n = 9;
  std::vector<uint8_t> a(n * n, 200), b(n * n, 255);
  std::vector<int32_t> c(n * n, int32_t{200} * 255 * n);
  EXPECT_TRUE(check_modular({n, n, n, a.data(), false, b.data(), false, c.data()}, 3, 1).pass);
  // The same bytes read as signed give a different product.
  EXPECT_FALSE(check_modular({n, n, n, a.data(), true, b.data(), true, c.data()}, 3, 1).pass);
  EXPECT_THROW(check_modular({n, n, n, a.data(), false, b.data(), false, c.data()}, 0, 1), Error);
}

}  // namespace
}  // namespace racer::freivalds

namespace racer::freivalds {
namespace {

// C + 1 at (i, j) leaves A X - C R = -e_i e_j^T R: row i's residual for vector v is -R[j, v]
// mod p, the value the GPU reports too. A long rectangular product crosses the fold every
// kFoldColumns terms with the largest values.
TEST(Modular, TheResidualOfAnOffByOneIsMinusTheVectorEntry) {
  const int64_t m = 3, n = 2 * kFoldColumns + 77, p = 5;
  const int k = 3;
  std::vector<int8_t> a(m * n, -128), b(n * p, -128);
  std::vector<int32_t> c(m * p, 0);
  for (int64_t l = 0; l < n; l += 3) b[l * p] = 127;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t l = 0; l < n; ++l)
      for (int64_t j = 0; j < p; ++j) c[i * p + j] += int32_t{a[i * n + l]} * b[l * p + j];
  EXPECT_TRUE(check_modular({m, n, p, a.data(), true, b.data(), true, c.data()}, k, 11).pass);
  c[1 * p + 4] += 1;
  ModularResult r = check_modular({m, n, p, a.data(), true, b.data(), true, c.data()}, k, 11);
  ASSERT_FALSE(r.pass);
  EXPECT_EQ(r.first_bad_row, 1);
  EXPECT_EQ(r.first_bad_vector, 0);
  EXPECT_EQ(r.first_bad_residual, mod_sub(0, modular_random_residue(11, 4 * k + 0)));
}

}  // namespace
}  // namespace racer::freivalds
