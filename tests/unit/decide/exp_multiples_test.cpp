// exp(x) and exp(x/2)^2 are one function: exps whose arguments are rational multiples of one
// base meet over a single atom, and the rewrite keeps every value. A minimum is the negated
// maximum of the negated operands, so that -min(-a, -b) meets max(a, b).
#include <cmath>
#include <random>

#include "decide/exp_multiples.hpp"
#include "decide/rounding_bound.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

TEST_F(DecideTest, ExpsOfRationalMultiplesOfOneArgumentMeet) {
  ExprId half = s.exp(s.mul(q(1, 2), x));
  EXPECT_EQ(decide(s.exp(x), s.mul(half, half)).status, CellStatus::Proved);
  ExprId third = s.exp(s.mul(q(1, 3), x)), two_thirds = s.exp(s.mul(q(2, 3), x));
  EXPECT_EQ(decide(s.mul(two_thirds, third), s.exp(x)).status, CellStatus::Proved);
  ExprId quarter = s.exp(s.mul(q(1, 4), s.add(s.mul(q(1, 2), y), s.mul(q(3, 2), z))));
  ExprId whole = s.exp(s.add(s.mul(q(1, 2), y), s.mul(q(3, 2), z)));
  EXPECT_EQ(decide(s.pow_int(quarter, 4), whole).status, CellStatus::Proved);
  EXPECT_NE(decide(s.exp(s.mul(q(1, 2), x)), s.exp(s.mul(q(1, 3), x))).status, CellStatus::Proved);
  EXPECT_NE(decide(s.mul(half, half), s.exp(y)).status, CellStatus::Proved);
}

TEST_F(DecideTest, ALogisticWrittenWithEitherSignOfItsArgumentMeets) {
  // x + 1/(exp(k y) + 1) against x + exp(-k y) / (exp(-k y) + 1) with k's
  // denominator 2^24 (an f32 constant): exp(k y) and exp(-k y) are one atom and its inverse.
  const ExprId k = q(11863283, 16777216);
  ExprId e = s.exp(s.mul(k, y)), inv = s.exp(s.mul(s.neg(k), y));
  EXPECT_EQ(decide(s.add(x, s.div(c(1), s.add(e, c(1)))), s.add(x, s.div(inv, s.add(inv, c(1))))).status,
            CellStatus::Proved);
  EXPECT_NE(decide(s.div(c(1), s.add(e, c(1))), s.div(e, s.add(inv, c(1)))).status, CellStatus::Proved);
  // exp(y - 1) and exp(1 - y) share exp(1): sigmoid(1 - y) is 1 - sigmoid(y - 1).
  ExprId down = s.exp(s.sub(y, c(1))), up = s.exp(s.sub(c(1), y));
  EXPECT_EQ(decide(s.div(c(1), s.add(down, c(1))), s.sub(c(1), s.div(c(1), s.add(up, c(1))))).status, CellStatus::Proved);
  // Integer multiples of a constant: exp(2) is exp(1)^2, exp(-3/2) is exp(1/2)^-3.
  EXPECT_EQ(decide(s.mul(s.exp(c(2)), x), s.mul(s.pow_int(s.exp(c(1)), 2), x)).status, CellStatus::Proved);
  EXPECT_EQ(decide(s.mul(s.exp(q(-3, 2)), x), s.div(x, s.pow_int(s.exp(q(1, 2)), 3))).status, CellStatus::Proved);
  EXPECT_NE(decide(s.mul(s.exp(c(2)), x), s.mul(s.exp(c(1)), x)).status, CellStatus::Proved);
}

TEST_F(DecideTest, AMinimumOfNegatedValuesMeetsTheMaximum) {
  std::vector<ExprId> xs{s.exp(x), s.exp(y), z}, negated;
  for (ExprId v : xs) negated.push_back(s.neg(v));
  EXPECT_EQ(decide(s.max(xs), s.neg(s.min(negated))).status, CellStatus::Proved);
  EXPECT_EQ(decide(s.min(x, y), s.neg(s.max(s.neg(y), s.neg(x)))).status, CellStatus::Proved);
  EXPECT_NE(decide(s.max(xs), s.min(xs)).status, CellStatus::Proved);
}

TEST_F(DecideTest, MergingExpMultiplesKeepsTheValue) {
  std::mt19937_64 rng(11);
  const mpq_class qs[] = {mpq_class(1, 2), mpq_class(1, 3), mpq_class(2, 3), mpq_class(1), mpq_class(-1, 2), mpq_class(3, 4), mpq_class(-5, 6)};
  const ExprId bases[] = {x, s.add(x, s.mul(q(1, 2), y))};
  int merged = 0;
  for (int trial = 0; trial < 200; ++trial) {
    ExprId e = s.zero();
    for (int k = 0; k < 3; ++k) {
      ExprId term = s.exp(s.mul(s.constant(qs[rng() % 7]), bases[rng() % 2]));
      e = rng() % 2 ? s.add(e, s.mul(term, s.constant(static_cast<long>(rng() % 3) + 1))) : s.mul(s.add(e, s.one()), term);
    }
    ExprId m = merge_exp_multiples(s, e);
    merged += m != e;
    for (int p = 0; p < 6; ++p) {
      expr::Assignment at;
      at.set(x, mpq_class(static_cast<long>(rng() % 41) - 20, 8));
      at.set(y, mpq_class(static_cast<long>(rng() % 41) - 20, 8));
      RoundingBound vs(s, FloatModel{}, at), vm(s, FloatModel{}, at);
      auto a = vs.at(e), b = vm.at(m);
      ASSERT_TRUE(a && b) << str(e);
      EXPECT_LE(std::fabs(a->value - b->value), 1e-12L * (1 + std::fabs(a->value))) << str(e) << " -> " << str(m);
    }
  }
  EXPECT_GT(merged, 100) << "the exps were merged";
}

}  // namespace
}  // namespace racer::decide::test
