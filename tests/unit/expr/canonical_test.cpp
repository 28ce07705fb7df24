// Canonical forms: equal sums and products built in different ways are one node.
#include "fixture.hpp"

namespace racer::expr::test {
namespace {

TEST_F(ExprTest, AddIsCommutativeAndAssociative) {
  EXPECT_EQ(s.add(x, y), s.add(y, x));
  EXPECT_EQ(s.add(s.add(x, y), z), s.add(x, s.add(y, z)));
  EXPECT_EQ(s.add(s.add(z, c(1)), s.add(y, x)), s.add(std::vector<ExprId>{c(1), x, y, z}));
  expect_all_canonical();
}

TEST_F(ExprTest, MulIsCommutativeAndAssociative) {
  EXPECT_EQ(s.mul(x, y), s.mul(y, x));
  EXPECT_EQ(s.mul(s.mul(x, y), z), s.mul(x, s.mul(y, z)));
  EXPECT_EQ(s.mul(s.mul(c(2), x), s.mul(c(3), y)), s.mul(c(6), s.mul(x, y)));
  expect_all_canonical();
}

TEST_F(ExprTest, LikeTermsMerge) {
  EXPECT_EQ(s.add(x, s.mul(c(2), x)), s.mul(c(3), x));
  EXPECT_EQ(s.sub(x, x), s.zero());
  EXPECT_EQ(s.add(x, s.neg(x)), s.zero());
  EXPECT_EQ(s.mul(x, x), s.pow_int(x, 2));
  EXPECT_EQ(s.mul(x, s.recip(x)), s.one());
  EXPECT_EQ(s.div(s.mul(x, y), y), x);
  EXPECT_EQ(s.div(x, x), s.one());
  EXPECT_EQ(s.add(s.mul(x, y), s.mul(c(2), s.mul(y, x))), s.mul(c(3), s.mul(x, y)));
  EXPECT_EQ(s.pow_int(s.pow_int(x, 2), 3), s.pow_int(x, 6));
  EXPECT_EQ(s.pow_int(s.mul(c(2), x), -2), s.mul(q(1, 4), s.pow_int(x, -2)));
  expect_all_canonical();
}

TEST_F(ExprTest, NumericCoefficientDistributesOverSum) {
  ExprId sum = s.add(x, y);
  EXPECT_EQ(s.mul(c(2), sum), s.add(s.mul(c(2), x), s.mul(c(2), y)));
  EXPECT_EQ(s.sub(s.mul(sum, c(2)), s.mul(c(2), y)), s.mul(c(2), x));
  EXPECT_EQ(s.kind(s.mul(c(2), sum)), Kind::Add);
  EXPECT_EQ(s.neg(s.sub(x, y)), s.sub(y, x));
  expect_all_canonical();
}

TEST_F(ExprTest, SumFactorsShareContent) {
  // (2x + 2y) * z and 2 * ((x + y) * z) are one node; so are their reciprocals.
  ExprId twice = s.add(s.mul(c(2), x), s.mul(c(2), y));
  EXPECT_EQ(s.mul(twice, z), s.mul(c(2), s.mul(s.add(x, y), z)));
  EXPECT_EQ(s.recip(twice), s.mul(q(1, 2), s.recip(s.add(x, y))));
  EXPECT_EQ(s.div(s.mul(twice, z), z), twice);
  EXPECT_EQ(s.pow_int(s.neg(s.add(x, y)), 2), s.pow_int(s.add(x, y), 2));
  expect_all_canonical();
}

TEST_F(ExprTest, ProductOfSumsIsNotExpanded) {
  ExprId sq = s.mul(s.add(x, y), s.add(x, y));
  ASSERT_EQ(s.kind(sq), Kind::Mul);
  EXPECT_EQ(s.arity(sq), 1u);
  EXPECT_EQ(s.weight(sq, 0), 2);
  EXPECT_EQ(str(sq), "(x[0] + y[1])^2");
}

TEST_F(ExprTest, RationalFoldingIsExact) {
  // The float nearest 0.1 is 13421773/134217728 and must stay that, not 1/10.
  ExprId f = str_q("13421773/134217728");
  EXPECT_NE(f, q(1, 10));
  EXPECT_EQ(s.rational(s.mul(f, c(10))), mpq_class("67108865/67108864"));
  EXPECT_EQ(s.rational(s.add(f, f)), mpq_class("13421773/67108864"));
  EXPECT_EQ(s.add(q(1, 3), q(2, 3)), s.one());
  EXPECT_EQ(s.div(c(1), c(3)), q(1, 3));
  EXPECT_EQ(s.pow_int(q(2, 3), -3), q(27, 8));
  EXPECT_EQ(s.mul(s.add(x, f), c(10)), s.add(s.mul(c(10), x), str_q("67108865/67108864")));
}

TEST_F(ExprTest, ZeroCoefficientsDropForFiniteTerms) {
  EXPECT_EQ(s.mul(c(0), x), s.zero());
  EXPECT_EQ(s.mul(c(0), s.exp(x)), s.zero());
  EXPECT_EQ(s.add(s.mul(c(3), x), s.mul(c(-3), x)), s.zero());
  EXPECT_EQ(s.sub(s.add(x, y), x), y);
}

TEST_F(ExprTest, LoneTermsAreProducts) {
  ExprId k = s.mul(c(3), x);
  ASSERT_EQ(s.kind(k), Kind::Mul);
  EXPECT_EQ(s.coef(k), 3);
  EXPECT_EQ(s.sub(s.add(k, y), y), k);
  EXPECT_EQ(s.sub(s.add(x, y), y), x);
}

}  // namespace
}  // namespace racer::expr::test
