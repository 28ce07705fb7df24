// A sum over groups of disjoint atoms is normalized group by group: one function written two
// ways meets (a logistic as exp(x) / (exp(x) + 1) and as 1 - 1 / (exp(x) + 1)) where a single
// fraction over all groups has a factor per group in its denominator; the rewrite keeps the
// value, and a group that differs is never proved away.
#include <cmath>
#include <random>

#include "decide/normal_form.hpp"
#include "decide/rounding_bound.hpp"
#include "decide/separated_form.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class SeparatedFormTest : public DecideTest {
 protected:
  std::vector<ExprId> row(size_t n) {
    std::vector<ExprId> xs;
    for (size_t j = 0; j < n; ++j) {
      xs.push_back(sym("v" + std::to_string(j)));
      domains[xs.back()] = {mpq_class(-4), mpq_class(4), Grid::F32};
    }
    return xs;
  }
  ExprId one() { return c(1); }
  // exp(x) / (exp(x) + 1) and 1 / (1 + exp(-x)): the logistic.
  ExprId sigmoid_a(ExprId v) { return s.div(s.exp(v), s.add(s.exp(v), one())); }
  ExprId sigmoid_b(ExprId v) { return s.div(one(), s.add(one(), s.exp(s.neg(v)))); }
  // 1/2 tanh(x/2) + 1/2: the logistic again.
  ExprId sigmoid_c(ExprId v) { return s.add(s.mul(q(1, 2), s.tanh(s.mul(q(1, 2), v))), q(1, 2)); }
};

TEST_F(SeparatedFormTest, AGroupShiftedByAConstantKeepsItsParts) {
  ExprId e = s.exp(x), f = s.exp(y);
  // e/(e+1) + f = (1 - 1/(e+1)) + f + 1 - 1: the same parts, the constants apart.
  ExprId a = s.add(s.div(e, s.add(e, one())), f);
  ExprId b = s.add(std::vector<ExprId>{s.sub(one(), s.div(one(), s.add(e, one()))), f});
  auto fa = separated_form(s, a, PolyLimits{}), fb = separated_form(s, b, PolyLimits{});
  ASSERT_TRUE(fa && fb);
  EXPECT_EQ(*fa, *fb) << str(*fa) << " vs " << str(*fb);
  // One group only: not separated (the whole fraction is the form).
  EXPECT_FALSE(separated_form(s, s.add(e, s.div(one(), s.add(e, one()))), PolyLimits{}));
  // Both groups written two ways: the difference is zero group by group.
  ExprId a2 = s.add(s.div(e, s.add(e, one())), s.div(f, s.add(f, one())));
  ExprId b2 = s.sub(s.add(c(2), s.div(c(-1), s.add(e, one()))), s.div(one(), s.add(f, one())));
  EXPECT_EQ(separated_normal_form(s, s.sub(a2, b2), PolyLimits{}).status, FormStatus::Zero);
  EXPECT_EQ(separated_normal_form(s, s.sub(s.add(a2, q(1, 3)), b2), PolyLimits{}).status, FormStatus::NonZero);
  EXPECT_EQ(separated_normal_form(s, s.sub(s.add(a2, s.mul(q(1, 3), f)), b2), PolyLimits{}).status, FormStatus::NonZero);
}

TEST_F(SeparatedFormTest, ASumOfLogisticsWrittenTwoWaysIsProved) {
  // log(|Σ σ(v_j)| + 1) against the same over 1/2 tanh(v_j/2) + 1/2, 24 cells: a single fraction
  // has 2^24 terms; group by group each is e/(e+1).
  std::vector<ExprId> vs = row(24), ta, tb;
  for (ExprId v : vs) ta.push_back(sigmoid_b(v)), tb.push_back(sigmoid_c(v));
  auto wrap = [&](ExprId sum) { return s.log(s.add(s.func(expr::FuncKind::Abs, sum), one())); };
  CellDecision r = decide(wrap(s.add(ta)), wrap(s.add(tb)));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  // The difference itself, a sum of 48 terms over 24 groups.
  r = decide(s.add(ta), s.add(tb));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  // One term off by a little: never proved.
  tb[11] = s.add(tb[11], q(1, 1000000));
  EXPECT_NE(decide(wrap(s.add(ta)), wrap(s.add(tb))).status, CellStatus::Proved);
  tb[11] = sigmoid_a(s.mul(q(1001, 1000), vs[11]));
  EXPECT_NE(decide(s.add(ta), s.add(tb)).status, CellStatus::Proved);
}

TEST_F(SeparatedFormTest, AProductOfLogisticsWrittenTwoWaysIsProved) {
  // Π σ(v_j) against Π (1 - σ(-v_j)): each factor a sum, taken to its normal form.
  std::vector<ExprId> vs = row(13), fa, fb;
  for (ExprId v : vs) fa.push_back(sigmoid_b(v)), fb.push_back(s.sub(one(), sigmoid_a(s.neg(v))));
  EXPECT_EQ(decide(s.mul(fa), s.mul(fb)).status, CellStatus::Proved);
  fb[5] = s.sub(one(), sigmoid_a(vs[5]));
  EXPECT_NE(decide(s.mul(fa), s.mul(fb)).status, CellStatus::Proved);
}

TEST_F(SeparatedFormTest, TheFormKeepsTheValue) {
  // Random sums of a few groups at random points: the separated form has the original's value.
  std::mt19937_64 rng(11);
  std::vector<ExprId> vs = row(4);
  auto term = [&](ExprId v) {
    switch (rng() % 5) {
      case 0: return sigmoid_a(v);
      case 1: return sigmoid_b(v);
      case 2: return s.mul(s.add(v, q(1, 3)), s.exp(v));
      case 3: return s.div(s.add(s.mul(v, v), one()), s.add(s.exp(v), q(1, 2)));
      default: return s.mul(q(static_cast<long>(rng() % 7) - 3, 2), v);
    }
  };
  int compared = 0;
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<ExprId> terms{s.constant(mpq_class(static_cast<long>(rng() % 9) - 4, 3))};
    for (int k = 0; k < 6; ++k) terms.push_back(term(vs[rng() % vs.size()]));
    ExprId e = s.add(terms);
    auto f = separated_form(s, e, PolyLimits{});
    if (!f) continue;
    for (int p = 0; p < 6; ++p) {
      expr::Assignment at;
      for (ExprId v : vs) at.set(v, mpq_class(static_cast<long>(rng() % 33) - 16, 4));
      RoundingBound vo(s, FloatModel{}, at), vf(s, FloatModel{}, at);
      auto want = vo.at(e), got = vf.at(*f);
      if (!want) continue;
      ASSERT_TRUE(got) << str(e) << " -> " << str(*f);
      ++compared;
      EXPECT_LE(std::fabs(got->value - want->value), 1e-12L * (1 + std::fabs(want->value))) << str(e) << " -> " << str(*f);
    }
  }
  EXPECT_GT(compared, 300);
}

}  // namespace
}  // namespace racer::decide::test
