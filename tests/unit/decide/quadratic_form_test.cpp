// A quadratic form is said to be nonnegative only where it is: sums of squares and a one-pass
// variance are, a product of two variables or a difference of squares is not, and whatever the
// test says of a random form holds at random points.
#include <random>

#include "decide/atom_normalizer.hpp"
#include "decide/quadratic_form.hpp"
#include "expr/eval.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

TEST_F(DecideTest, NonnegativeQuadraticFormsAreTheSemidefiniteOnes) {
  AtomNormalizer n(s, PolyLimits{});
  auto nonneg = [&](ExprId q) { return nonnegative_quadratic(s, n.normalize(q)); };
  auto sq = [&](ExprId v) { return s.mul(v, v); };
  std::vector<ExprId> xs{x, y, z, sym("w")};
  ExprId sum = s.add(xs), sum_sq = s.add(std::vector<ExprId>{sq(x), sq(y), sq(z), sq(xs[3])});
  EXPECT_TRUE(nonneg(s.sub(sum_sq, s.mul(q(1, 4), sq(sum)))));              // 4 var(x)
  EXPECT_TRUE(nonneg(s.add(sq(s.sub(x, y)), c(1))));
  EXPECT_TRUE(nonneg(sq(s.add(x, y))));
  EXPECT_TRUE(nonneg(s.add(s.sub(sq(x), s.mul(c(2), x)), c(1))));           // (x - 1)^2
  EXPECT_TRUE(nonneg(c(2)));
  EXPECT_TRUE(nonneg(sq(s.exp(x))));                                        // an atom squared
  EXPECT_FALSE(nonneg(s.mul(x, y)));
  EXPECT_FALSE(nonneg(s.sub(sq(x), sq(y))));
  EXPECT_FALSE(nonneg(s.add(std::vector<ExprId>{sq(x), s.mul(c(3), s.mul(x, y)), sq(y)})));
  EXPECT_FALSE(nonneg(s.sub(sq(x), s.mul(c(2), x))));                       // -1 at x = 1
  EXPECT_FALSE(nonneg(s.mul(x, sq(x))));                                    // degree 3
  EXPECT_FALSE(nonneg(x));
  EXPECT_FALSE(nonneg(c(-1)));
  EXPECT_FALSE(nonneg(s.sub(sum_sq, s.mul(q(1, 3), sq(sum)))));             // 1/3 instead of 1/4
}

TEST_F(DecideTest, WhatTheQuadraticTestProvesHoldsAtRandomPoints) {
  AtomNormalizer n(s, PolyLimits{});
  std::mt19937 rng(21);
  std::vector<ExprId> xs{x, y, z};
  size_t proved = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // A sum of a few squared linear forms, minus a random square or product sometimes.
    std::vector<ExprId> terms;
    for (int k = 0; k < 3; ++k) {
      std::vector<ExprId> lin{c(static_cast<long>(rng() % 5) - 2)};
      for (ExprId v : xs) lin.push_back(s.mul(c(static_cast<long>(rng() % 5) - 2), v));
      ExprId l = s.add(lin);
      terms.push_back(s.mul(l, l));
    }
    if (rng() % 2) terms.push_back(s.mul(q(-static_cast<long>(rng() % 3) - 1, 4), s.mul(xs[rng() % 3], xs[rng() % 3])));
    ExprId form = n.normalize(s.add(terms));
    if (!nonnegative_quadratic(s, form)) continue;
    ++proved;
    for (int p = 0; p < 20; ++p) {
      expr::Assignment at;
      for (ExprId v : xs) at.set(v, mpq_class(static_cast<long>(rng() % 41) - 20, static_cast<long>(rng() % 4) + 1));
      auto val = expr::eval_exact(s, form, at);
      ASSERT_TRUE(val.has_value());
      EXPECT_GE(*val, 0) << expr::to_string(s, form);
    }
  }
  EXPECT_GT(proved, 100u);
}

TEST_F(DecideTest, AOnePassVarianceClampedAtZeroIsTheVariance) {
  std::vector<ExprId> xs{x, y, z, sym("w")};
  ExprId sum = s.add(xs), sum_sq = s.add(std::vector<ExprId>{s.mul(x, x), s.mul(y, y), s.mul(z, z), s.mul(xs[3], xs[3])});
  ExprId mean = s.mul(q(1, 4), sum);
  ExprId one_pass = s.sub(s.mul(q(1, 4), sum_sq), s.mul(mean, mean));
  std::vector<ExprId> dev;
  for (ExprId v : xs) dev.push_back(s.mul(s.sub(v, mean), s.sub(v, mean)));
  ExprId two_pass = s.mul(q(1, 4), s.add(dev));
  EXPECT_EQ(decide(s.sqrt(s.max(one_pass, s.zero())), s.sqrt(two_pass)).status, CellStatus::Proved);
  EXPECT_NE(decide(s.sqrt(s.max(s.mul(x, y), s.zero())), s.sqrt(s.mul(x, y))).status, CellStatus::Proved);
}

}  // namespace
}  // namespace racer::decide::test
