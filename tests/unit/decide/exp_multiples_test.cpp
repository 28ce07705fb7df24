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
