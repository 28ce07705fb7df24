// Exact folds of functions, min/max, comparisons and select.
#include "fixture.hpp"

namespace racer::expr::test {
namespace {

TEST_F(ExprTest, FunctionsFoldOnlyExactly) {
  EXPECT_EQ(s.exp(c(0)), c(1));
  EXPECT_EQ(s.log(c(1)), c(0));
  EXPECT_EQ(s.sqrt(q(9, 4)), q(3, 2));
  EXPECT_EQ(s.sqrt(c(0)), c(0));
  EXPECT_EQ(s.kind(s.sqrt(c(2))), Kind::Func) << "sqrt(2) is irrational and must stay";
  EXPECT_EQ(s.kind(s.sqrt(q(1, 2))), Kind::Func);
  EXPECT_EQ(s.kind(s.exp(c(1))), Kind::Func);
  EXPECT_EQ(s.kind(s.log(c(2))), Kind::Func);
  EXPECT_EQ(s.abs(q(-3, 7)), q(3, 7));
  EXPECT_EQ(s.tanh(c(0)), c(0));
  EXPECT_EQ(s.erf(c(0)), c(0));
  EXPECT_EQ(s.sin(c(0)), c(0));
  EXPECT_EQ(s.cos(c(0)), c(1));
  EXPECT_EQ(s.exp(s.sub(x, x)), c(1));
}

TEST_F(ExprTest, FunctionSymmetries) {
  EXPECT_EQ(s.abs(s.neg(x)), s.abs(x));
  EXPECT_EQ(s.abs(s.mul(c(-3), x)), s.mul(c(3), s.abs(x)));
  EXPECT_EQ(s.abs(s.abs(x)), s.abs(x));
  EXPECT_EQ(s.abs(s.exp(x)), s.exp(x));
  // A sum's scale comes out too, whatever its sign: |x/4 + y/4| is |x + y| / 4, |3 - 2x| is 2 |x - 3/2|.
  const ExprId sum = s.add(x, y);
  EXPECT_EQ(s.abs(s.mul(q(1, 4), sum)), s.mul(q(1, 4), s.abs(sum)));
  EXPECT_EQ(s.abs(s.add(s.mul(q(-1, 4), x), s.mul(q(-1, 4), y))), s.mul(q(1, 4), s.abs(sum)));
  EXPECT_EQ(s.abs(s.sub(c(3), s.mul(c(2), x))), s.abs(s.sub(s.mul(c(2), x), c(3))));
  EXPECT_EQ(s.abs(s.add(x, s.mul(c(2), y))), s.mul(c(2), s.abs(s.add(s.mul(q(1, 2), x), y))));
  EXPECT_EQ(s.tanh(s.neg(x)), s.neg(s.tanh(x)));
  EXPECT_EQ(s.sin(s.mul(c(-2), x)), s.neg(s.sin(s.mul(c(2), x))));
  EXPECT_EQ(s.cos(s.neg(x)), s.cos(x));
  EXPECT_EQ(s.log(s.exp(x)), x);
  EXPECT_NE(s.exp(s.log(x)), x) << "exp(log(x)) = x only for x > 0";
  expect_all_canonical();
}

TEST_F(ExprTest, MinMaxCanonical) {
  EXPECT_EQ(s.max(c(2), q(5, 2)), q(5, 2));
  EXPECT_EQ(s.min(c(2), q(5, 2)), c(2));
  EXPECT_EQ(s.max(x, y), s.max(y, x));
  EXPECT_EQ(s.max(s.max(x, y), z), s.max(x, s.max(y, z)));
  EXPECT_EQ(s.max(x, x), x);
  EXPECT_EQ(s.max(s.max(x, c(1)), s.max(y, c(3))), s.max(std::vector<ExprId>{x, y, c(3)}));
  EXPECT_EQ(s.arity(s.max(s.max(x, c(1)), s.max(y, c(3)))), 3u);
  EXPECT_NE(s.max(x, y), s.min(x, y));
  EXPECT_EQ(s.kind(s.min(s.max(x, y), z)), Kind::Min) << "min of max does not flatten";
  expect_all_canonical();
}

TEST_F(ExprTest, ClampsHaveOneForm) {
  const ExprId clamp = s.min(c(448), s.max(c(-448), x));
  EXPECT_EQ(s.max(c(-448), s.min(c(448), x)), clamp) << "max(L, min(H, x)) is min(H, max(L, x)) for L <= H";
  EXPECT_EQ(s.min(c(448), s.max(c(-448), clamp)), clamp) << "a clamp taken twice is one clamp";
  EXPECT_EQ(s.max(c(-448), s.min(c(448), clamp)), clamp);
  EXPECT_EQ(s.min(c(240), s.max(c(-448), s.min(c(448), s.max(c(-240), x)))), s.min(c(240), s.max(c(-240), x)))
      << "nested clamps: the narrower interval";
  EXPECT_EQ(s.max(c(-448), s.min(std::vector<ExprId>{c(448), x, y})), s.min(c(448), s.max(c(-448), s.min(x, y))));
  // L > H: max(L, min(H, x)) is L everywhere, while min(H, max(L, x)) would be H: no rewrite.
  EXPECT_EQ(s.kind(s.max(c(5), s.min(c(3), x))), Kind::Max);
  EXPECT_EQ(s.kind(s.max(c(1), s.min(x, y))), Kind::Max) << "no constant inside: not a clamp";
  EXPECT_EQ(s.kind(s.max(std::vector<ExprId>{c(1), y, s.min(c(3), x)})), Kind::Max) << "three arguments: not a clamp";
  expect_all_canonical();
}

TEST_F(ExprTest, ComplementarySelectsOfOneValueJoinInAMax) {
  // A guarded atomic maximum run as max(select(x >= 0, x, -inf)) and max(select(x < 0, x, -inf)):
  // together x.
  const ExprId neg = s.cmp(CmpOp::Lt, x, c(0)), nonneg = s.cmp(CmpOp::Ge, x, c(0));
  const ExprId a = s.select(nonneg, x, s.neg_inf()), b = s.select(neg, x, s.neg_inf());
  EXPECT_EQ(s.max(std::vector<ExprId>{a, y, b}), s.max(x, y));
  EXPECT_EQ(s.max(std::vector<ExprId>{a, s.max(y, z), b}), s.max(std::vector<ExprId>{x, y, z})) << "flattened";
  EXPECT_EQ(s.min(s.select(nonneg, x, s.pos_inf()), s.select(neg, x, s.pos_inf())), x);
  // Not complements, another value, or not the identity: kept.
  EXPECT_EQ(s.kind(s.max(a, s.select(s.cmp(CmpOp::Lt, x, c(1)), x, s.neg_inf()))), Kind::Max);
  EXPECT_EQ(s.kind(s.max(a, s.select(neg, y, s.neg_inf()))), Kind::Max);
  EXPECT_EQ(s.kind(s.max(a, s.select(neg, x, c(0)))), Kind::Max);
  expect_all_canonical();
}

TEST_F(ExprTest, ComparisonsFold) {
  EXPECT_EQ(s.cmp(CmpOp::Lt, c(1), c(2)), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Ge, c(1), c(2)), s.false_value());
  EXPECT_EQ(s.cmp(CmpOp::Eq, q(1, 2), q(2, 4)), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Le, x, x), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Lt, x, x), s.false_value());
  EXPECT_EQ(s.cmp(CmpOp::Lt, x, s.add(x, c(1))), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Eq, s.mul(c(2), s.add(x, y)), s.add(s.mul(c(2), y), s.mul(c(2), x))), s.true_value());
  // Gt/Ge are Lt/Le swapped; Eq/Ne are symmetric.
  EXPECT_EQ(s.cmp(CmpOp::Gt, x, y), s.cmp(CmpOp::Lt, y, x));
  EXPECT_EQ(s.cmp(CmpOp::Ge, x, y), s.cmp(CmpOp::Le, y, x));
  EXPECT_EQ(s.cmp(CmpOp::Eq, x, y), s.cmp(CmpOp::Eq, y, x));
  EXPECT_NE(s.cmp(CmpOp::Lt, x, y), s.cmp(CmpOp::Lt, y, x));
  expect_all_canonical();
}

TEST_F(ExprTest, ComparisonsUseSymbolRanges) {
  ExprId u = s.symbol("u", Range{mpq_class(0), mpq_class(1)});
  EXPECT_EQ(s.cmp(CmpOp::Lt, u, c(2)), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Ge, u, c(0)), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Lt, s.add(u, c(5)), c(7)), s.true_value());
  EXPECT_EQ(s.kind(s.cmp(CmpOp::Lt, s.add(u, c(5)), c(6))), Kind::Cmp);
  EXPECT_EQ(s.kind(s.cmp(CmpOp::Lt, u, c(1))), Kind::Cmp) << "u = 1 is in range";
  EXPECT_EQ(s.cmp(CmpOp::Eq, s.mul(c(-2), u), c(3)), s.false_value());
}

TEST_F(ExprTest, SelectFolds) {
  ExprId p = s.cmp(CmpOp::Lt, x, q(1, 2));
  EXPECT_EQ(s.select(s.cmp(CmpOp::Lt, c(0), c(1)), y, z), y);
  EXPECT_EQ(s.select(s.cmp(CmpOp::Lt, c(1), c(0)), y, z), z);
  EXPECT_EQ(s.select(p, y, y), y);
  EXPECT_EQ(s.select(p, s.select(p, y, z), x), s.select(p, y, x));
  EXPECT_EQ(s.select(p, x, s.select(p, y, z)), s.select(p, x, z));
  EXPECT_EQ(s.select(p, s.true_value(), s.false_value()), p);
  EXPECT_NE(s.select(p, y, z), s.select(p, z, y));
  // Conditions combine through select: p and q.
  ExprId pq = s.select(p, s.cmp(CmpOp::Lt, y, c(0)), s.false_value());
  EXPECT_TRUE(s.is_condition(pq));
  EXPECT_EQ(s.kind(s.select(pq, x, y)), Kind::Select);
  EXPECT_FALSE(s.is_finite(s.select(p, x, s.neg_inf())));
  EXPECT_TRUE(s.is_finite(s.select(p, x, y)));
  expect_all_canonical();
}

}  // namespace
}  // namespace racer::expr::test
