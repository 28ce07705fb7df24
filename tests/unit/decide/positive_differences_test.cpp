// What a positive difference settles: a running sum of exps grows, so the max of its values is
// the last one; a guard comparing it with 0 always takes one branch; its log is finite, so an
// infinite starting max drops out of an online softmax's first rescale. And where the Store
// folds log(exp(x)) to x, the rounding bound still allows for the two routines a program ran.
#include <cmath>

#include "decide/atom_normalizer.hpp"
#include "decide/normal_form.hpp"
#include "decide/rounding_bound.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class PositiveDifferences : public DecideTest {
 protected:
  AtomNormalizer n{s, PolyLimits{}};
  bool same_form(ExprId a, ExprId b) { return normal_form(s, n.normalize(s.sub(a, b)), PolyLimits{}).status == FormStatus::Zero; }
};

TEST_F(PositiveDifferences, TheMaxOfARunningSumOfExpsIsItsLastValue) {
  // fla's log-cumsum-exp carries max over a chunk's prefix sums, each scaled by the chunk's max.
  const ExprId m = s.max(std::vector<ExprId>{x, y, z}), scale = s.pow_int(s.exp(m), -1);
  const ExprId p1 = s.mul(s.exp(x), scale), p2 = s.mul(s.add(s.exp(x), s.exp(y)), scale);
  const ExprId p3 = s.mul(s.add(std::vector<ExprId>{s.exp(x), s.exp(y), s.exp(z)}), scale);
  EXPECT_TRUE(same_form(s.max(std::vector<ExprId>{p2, p1, p3}), p3));
  EXPECT_TRUE(same_form(s.min(std::vector<ExprId>{p2, p3, p1}), p1));
  // e^x - e^y never exceeds e^x; but x + y against x, or e^x - e^y against e^y, is either.
  EXPECT_TRUE(same_form(s.max(s.sub(s.exp(x), s.exp(y)), s.exp(x)), s.exp(x)));
  EXPECT_FALSE(same_form(s.max(s.add(x, y), x), s.add(x, y)));
  EXPECT_FALSE(same_form(s.max(s.sub(s.exp(x), s.exp(y)), s.exp(y)), s.exp(y)));
}

TEST_F(PositiveDifferences, AGuardThePositiveSumAlwaysPassesLeavesOneBranch) {
  // log(where(z != 0, z, 1e-20)) + m for z = exp(x) / exp(m): x, whatever x and m are.
  const ExprId m = s.max(x, y), zc = s.mul(s.exp(x), s.pow_int(s.exp(m), -1)), eps = q(1, 100000);
  const ExprId guarded = s.select(s.cmp(expr::CmpOp::Ne, s.zero(), zc), zc, eps);
  EXPECT_TRUE(same_form(s.add(s.log(guarded), m), x));
  EXPECT_TRUE(same_form(s.select(s.cmp(expr::CmpOp::Lt, zc, s.zero()), eps, zc), zc));
  EXPECT_TRUE(same_form(s.select(s.cmp(expr::CmpOp::Le, s.zero(), zc), zc, eps), zc));
  // x - y has no proved sign: the select stays.
  EXPECT_FALSE(same_form(s.select(s.cmp(expr::CmpOp::Ne, x, y), x, eps), x));
}

TEST_F(PositiveDifferences, TheLogOfASurelyPositiveValueIsFinite) {
  const ExprId lse = s.log(s.add(s.exp(x), s.exp(y)));
  EXPECT_EQ(s.add(s.neg_inf(), lse), s.neg_inf());
  // The first rescale of an online softmax: acc * exp(-inf - lse) with acc = 0.
  EXPECT_EQ(s.mul(s.zero(), s.exp(s.sub(s.neg_inf(), lse))), s.zero());
  // A row padded with -inf and divided by a temperature t > 0: -inf / t is -inf, which max drops.
  const ExprId t = s.symbol("t_pos", expr::Range{mpq_class(1, 2), mpq_class(2)});
  EXPECT_EQ(s.div(s.neg_inf(), t), s.neg_inf());
  EXPECT_EQ(s.max(s.div(x, t), s.div(s.neg_inf(), t)), s.div(x, t));
  EXPECT_NE(s.div(s.neg_inf(), x), s.neg_inf());  // x may be negative
  // log(x) may be -inf (x = 0) or undefined (x < 0): -inf + log(x) is not folded.
  EXPECT_NE(s.add(s.neg_inf(), s.log(x)), s.neg_inf());
  EXPECT_NE(s.add(s.neg_inf(), s.log(s.sub(s.exp(x), s.exp(y)))), s.neg_inf());
}

TEST_F(PositiveDifferences, AComparisonOfAPositiveShapeWithZeroFoldsWhereItIsBuilt) {
  // A log routine tests its argument against 0 after scaling tiny ones by 2^23 (a select on the
  // sum's size, both branches positive): the guard is false, the log finite, -inf - lse is -inf.
  const ExprId sum = s.add(s.exp(x), s.exp(y));
  const ExprId scaled = s.select(s.cmp(expr::CmpOp::Lt, sum, q(1, 1 << 30)), s.mul(c(8388608), sum), sum);
  EXPECT_EQ(s.cmp(expr::CmpOp::Eq, s.zero(), scaled), s.false_value());
  EXPECT_EQ(s.cmp(expr::CmpOp::Ne, scaled, s.zero()), s.true_value());
  EXPECT_EQ(s.cmp(expr::CmpOp::Lt, scaled, c(-1)), s.false_value());
  EXPECT_EQ(s.cmp(expr::CmpOp::Le, s.zero(), scaled), s.true_value());
  EXPECT_EQ(s.add(s.neg_inf(), s.neg(s.log(scaled))), s.neg_inf());
  // A max with one positive member, a min of positive members.
  EXPECT_EQ(s.cmp(expr::CmpOp::Lt, s.zero(), s.max(x, s.exp(y))), s.true_value());
  EXPECT_EQ(s.cmp(expr::CmpOp::Eq, s.min(s.exp(x), sum), s.zero()), s.false_value());
  // Not against a positive constant, and not where a branch or member may be 0 or below.
  EXPECT_EQ(s.kind(s.cmp(expr::CmpOp::Lt, sum, q(1, 2))), expr::Kind::Cmp);
  EXPECT_EQ(s.kind(s.cmp(expr::CmpOp::Eq, s.zero(), s.select(s.cmp(expr::CmpOp::Lt, x, y), sum, x))), expr::Kind::Cmp);
  EXPECT_EQ(s.kind(s.cmp(expr::CmpOp::Eq, s.zero(), s.min(s.exp(x), y))), expr::Kind::Cmp);
}

TEST_F(PositiveDifferences, ALogOfFractionsKeepsTheirCommonDenominatorAProduct) {
  // softplus(lse - x) with lse = z + log(S), S a sum of exps: log(1 + e^(lse - x)) and
  // lse - x + log(1 + e^(x - lse)) are both log(e^x + e^z S) - x, with e^z S not multiplied out
  // (a product of sums distributed is one sum, which log no longer takes apart).
  const ExprId sum = s.add(s.exp(y), s.exp(z)), d = s.sub(s.add(z, s.log(sum)), x);
  const ExprId lse_minus_x = s.sub(s.log(s.add(s.exp(x), s.mul(s.exp(z), sum))), x);
  EXPECT_TRUE(same_form(s.log(s.add(s.one(), s.exp(d))), lse_minus_x));
  EXPECT_TRUE(same_form(s.add(d, s.log(s.add(s.one(), s.exp(s.neg(d))))), lse_minus_x));
  // The softplus as a where on the sign of d: proved.
  const ExprId softplus = s.select(s.cmp(expr::CmpOp::Lt, s.zero(), d), s.add(d, s.log(s.add(s.one(), s.exp(s.neg(d))))),
                                   s.log(s.add(s.one(), s.exp(d))));
  EXPECT_EQ(decide(softplus, lse_minus_x).status, CellStatus::Proved);
  // Not where a denominator may be negative: log(1 + 1/x) stays whole.
  EXPECT_FALSE(same_form(s.log(s.add(s.one(), s.pow_int(x, -1))), s.sub(s.log(s.add(x, s.one())), s.log(x))));
}

TEST_F(PositiveDifferences, TheBoundOfAFoldedLogOfExpAllowsForBothRoutines) {
  const ExprId folded = s.log(s.exp(x));
  ASSERT_EQ(folded, x);
  expr::Assignment at;
  at.set(x, -0.125);
  at.set(y, -0.125);
  const FloatModel model;
  RoundingBound bound(s, model, at);
  const auto bx = bound.at(x), by = bound.at(y);
  ASSERT_TRUE(bx && by);
  EXPECT_EQ(by->error, 0.0L);  // an input as the program holds it
  // logf(expf(x)) is off by expf's relative error and logf's own, here some 2^-20.
  EXPECT_GE(bx->error, model.function_error * (0.125L + 2));
}

}  // namespace
}  // namespace racer::decide::test
