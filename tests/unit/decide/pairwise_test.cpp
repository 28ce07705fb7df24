// Sums and products whose normal form blows up (a common denominator of many fractions, a
// product of many binomials) proved operand by operand, and pairings that must not prove.
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class PairwiseTest : public DecideTest {
 protected:
  std::vector<ExprId> row(size_t n) {
    std::vector<ExprId> xs;
    for (size_t j = 0; j < n; ++j) {
      xs.push_back(sym("r" + std::to_string(j)));
      domains[xs.back()] = {mpq_class(1, 4), mpq_class(3, 2), Grid::F32};
    }
    return xs;
  }
  // 2 sigmoid(2x) - 1 = 2 / (1 + e^-2x) - 1, which is tanh(x).
  ExprId tanh_as_sigmoid(ExprId x) {
    return s.sub(s.div(c(2), s.add(c(1), s.exp(s.mul(c(-2), x)))), c(1));
  }
};

TEST_F(PairwiseTest, ProductOfManyFactorsEqualPairByPair) {
  std::vector<ExprId> xs = row(19), fa, fb;
  for (ExprId x : xs) fa.push_back(s.tanh(x)), fb.push_back(tanh_as_sigmoid(x));
  CellDecision r = decide(s.mul(fa), s.mul(fb));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  // Each factor that is a sum takes its normal form in the atom normalizer, so the products
  // meet factor by factor before any pairing (the single fraction has 2^19 terms).
  EXPECT_EQ(r.step, "polynomial normal form");
}

TEST_F(PairwiseTest, SumWithOffsetsInEveryTerm) {
  // Σ tanh(x_j) against Σ 2/(1 + e^-2x_j) - n: each pair differs by a constant, which the
  // constant terms must make up.
  std::vector<ExprId> xs = row(32), ta, tb;
  for (ExprId x : xs) ta.push_back(s.tanh(x)), tb.push_back(tanh_as_sigmoid(x));
  CellDecision r = decide(s.exp(s.min(s.max(s.add(ta), c(-4)), c(3))), s.exp(s.min(c(3), s.max(c(-4), s.add(tb)))));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
}

TEST_F(PairwiseTest, OneWrongFactorIsNotProved) {
  std::vector<ExprId> xs = row(19), fa, fb;
  for (ExprId x : xs) fa.push_back(s.tanh(x)), fb.push_back(tanh_as_sigmoid(x));
  fb[7] = s.add(fb[7], q(1, 1000));
  EXPECT_NE(decide(s.mul(fa), s.mul(fb)).status, CellStatus::Proved);
}

TEST_F(PairwiseTest, ConstantRatiosMustCancel) {
  // Each factor of b is half of a's: the coefficient 2^19 makes up for it exactly once.
  std::vector<ExprId> xs = row(19), fa, fb;
  for (ExprId x : xs) fa.push_back(s.tanh(x)), fb.push_back(s.mul(q(1, 2), tanh_as_sigmoid(x)));
  ExprId b = s.mul(fb);
  EXPECT_EQ(decide(s.mul(fa), s.mul(s.constant(mpq_class(1 << 19)), b)).status, CellStatus::Proved);
  EXPECT_NE(decide(s.mul(fa), s.mul(s.constant(mpq_class(1 << 18)), b)).status, CellStatus::Proved);
}

}  // namespace
}  // namespace racer::decide::test
