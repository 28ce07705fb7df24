// The CPU backend: correct products pass, corruptions above the tolerance fail, below do not.
#include <gtest/gtest.h>

#include <cmath>

#include "freivalds/freivalds.hpp"
#include "freivalds/random_vectors.hpp"
#include "freivalds/synthetic.hpp"

namespace racer::freivalds {
namespace {

TEST(RandomVectors, AreReproducibleBoundedAndDistinctPerSeed) {
  double sum = 0, max_abs = 0;
  for (uint64_t i = 0; i < 10000; ++i) {
    float r = random_entry(7, i);
    EXPECT_EQ(r, random_entry(7, i));
    EXPECT_LT(std::fabs(r), 1.0f);
    EXPECT_EQ(std::ldexp(r, 24), std::nearbyint(std::ldexp(r, 24)));  // a multiple of 2^-24
    sum += r;
    max_abs = std::max<double>(max_abs, std::fabs(r));
  }
  EXPECT_NEAR(sum / 10000, 0, 0.02);
  EXPECT_GT(max_abs, 0.99);
  EXPECT_NE(random_entry(7, 3), random_entry(8, 3));
}

TEST(CpuCheck, CorrectProductsPassInEveryFormatAndModel) {
  for (Format f : {Format::F32, Format::TF32, Format::F16, Format::BF16})
    for (ErrorModel m : {ErrorModel::WorstCase, ErrorModel::Probabilistic})
      for (int64_t n : {17, 96}) {
        SyntheticProduct s = make_product(f, n, 3);
        Result r = check_cpu(s.view(), {8, 11, m, 0x1p-40, false});
        EXPECT_TRUE(r.pass) << format_name(f) << " " << error_model_name(m) << " n=" << n << " ratio " << r.worst_ratio;
        EXPECT_LT(r.worst_ratio, 0.5);
        EXPECT_GT(r.tolerance, 0);
      }
}

// One element changed by c times its row's tolerance: caught at c = 3 (k = 16 vectors each
// miss with probability about 1/3), never at c = 0.5 (|r| < 1 keeps it under the tolerance).
TEST(CpuCheck, DetectsCorruptionsAboveTheToleranceOnly) {
  for (Format f : {Format::F32, Format::BF16}) {
    SyntheticProduct s = make_product(f, 80, 5);
    Options o{16, 9, ErrorModel::Probabilistic, 0x1p-40, true};
    Result clean = check_cpu(s.view(), o);
    ASSERT_TRUE(clean.pass);
    for (auto [factor, caught] : {std::pair{3.0, true}, std::pair{-3.0, true}, std::pair{0.5, false}}) {
      SyntheticProduct t = s;
      double applied = corrupt(t, 40, 13, factor * clean.row_tolerances[40]);
      ASSERT_NEAR(applied / clean.row_tolerances[40], factor, 0.05 * std::fabs(factor) + 1e-3) << format_name(f);
      Result r = check_cpu(t.view(), o);
      EXPECT_EQ(r.pass, !caught) << format_name(f) << " factor " << factor << " ratio " << r.worst_ratio;
      if (caught) {
        EXPECT_EQ(r.worst_row, 40);
        EXPECT_EQ(r.failing_rows, 1);
      }
    }
  }
}

TEST(CpuCheck, RectangularProductsAndNonFiniteValues) {
  const int64_t m = 7, n = 33, p = 12;
  std::vector<float> a(m * n), b(n * p), c(m * p, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = random_entry(1, i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = random_entry(2, i);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < p; ++j) {
      double s = 0;
      for (int64_t l = 0; l < n; ++l) s += double(a[i * n + l]) * b[l * p + j];
      c[i * p + j] = static_cast<float>(s);
    }
  HostProduct pr{Format::F32, m, n, p, a.data(), b.data(), c.data()};
  EXPECT_TRUE(check_cpu(pr, {4, 1, ErrorModel::WorstCase, 0x1p-40, false}).pass);
  c[5 * p + 3] = NAN;
  Result r = check_cpu(pr, {4, 1, ErrorModel::WorstCase, 0x1p-40, false});
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.worst_row, 5);
  EXPECT_TRUE(std::isinf(r.worst_ratio));
}

}  // namespace
}  // namespace racer::freivalds
