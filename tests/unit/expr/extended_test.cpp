// Extended reals: the identities of +-inf that hold exactly, and Undefined where none does.
#include "fixture.hpp"

namespace racer::expr::test {
namespace {

class ExtendedTest : public ExprTest {
 protected:
  ExprId inf = s.pos_inf();
  ExprId ninf = s.neg_inf();
  ExprId undef = s.undefined();
  // A value that is -inf on masked lanes: not finite, not constant.
  ExprId masked = s.select(s.cmp(CmpOp::Lt, x, c(0)), y, s.neg_inf());
};

TEST_F(ExtendedTest, InfinityAbsorbsFiniteSums) {
  EXPECT_EQ(s.add(c(5), ninf), ninf);
  EXPECT_EQ(s.add(x, ninf), ninf) << "symbols are finite";
  EXPECT_EQ(s.add(s.mul(x, s.exp(y)), ninf), ninf);
  EXPECT_EQ(s.sub(x, inf), ninf);
  EXPECT_EQ(s.add(ninf, ninf), ninf);
  EXPECT_TRUE(s.is_finite(s.add(x, s.exp(y))));
  EXPECT_FALSE(s.is_finite(masked));
}

// The log-sum-exp a split softmax stores (13 rows of 24 factors exp(q_i * k_ji)) is finite, so
// the first rescaling of the merge, exp(-inf - lse), is 0 and the accumulator it scales (0)
// drops out instead of staying as 0 * exp(-inf - lse), which no evaluation can read.
TEST_F(ExtendedTest, TheLogOfALargeSumOfExpsIsFinite) {
  std::vector<ExprId> rows;
  for (int j = 0; j < 13; ++j) {
    ExprId row = c(1);
    for (int i = 0; i < 24; ++i)
      row = s.mul(row, s.exp(s.mul(s.symbol("q[" + std::to_string(i) + "]"), s.symbol("k[" + std::to_string(j) + "," + std::to_string(i) + "]"))));
    rows.push_back(row);
  }
  ExprId sum = rows[0];
  for (size_t j = 1; j < rows.size(); ++j) sum = s.add(sum, rows[j]);
  ExprId lse = s.log(sum);
  EXPECT_TRUE(s.is_finite(lse));
  EXPECT_EQ(s.exp(s.sub(ninf, lse)), c(0));
  EXPECT_EQ(s.mul(c(0), s.exp(s.mul(s.log(c(2)), s.sub(ninf, lse)))), c(0));
}

TEST_F(ExtendedTest, NoValueIsUndefined) {
  EXPECT_EQ(s.add(inf, ninf), undef);
  EXPECT_EQ(s.sub(inf, inf), undef);
  EXPECT_EQ(s.mul(c(0), inf), undef);
  EXPECT_EQ(s.div(inf, inf), undef);
  EXPECT_EQ(s.div(x, c(0)), undef);
  EXPECT_EQ(s.recip(c(0)), undef);
  EXPECT_EQ(s.log(c(-1)), undef);
  EXPECT_EQ(s.sqrt(c(-4)), undef);
  EXPECT_EQ(s.sin(inf), undef);
  EXPECT_EQ(s.cos(ninf), undef);
  // Undefined absorbs everything it meets.
  EXPECT_EQ(s.add(x, undef), undef);
  EXPECT_EQ(s.mul(c(0), undef), undef);
  EXPECT_EQ(s.exp(undef), undef);
  EXPECT_EQ(s.max(x, undef), undef);
  EXPECT_EQ(s.cmp(CmpOp::Lt, x, undef), undef);
  EXPECT_EQ(s.select(undef, x, y), undef);
}

TEST_F(ExtendedTest, ProductsWithInfinity) {
  EXPECT_EQ(s.mul(c(-2), ninf), inf);
  EXPECT_EQ(s.mul(ninf, ninf), inf);
  EXPECT_EQ(s.recip(inf), s.zero());
  EXPECT_EQ(s.div(x, ninf), s.zero());
  EXPECT_EQ(s.pow_int(ninf, 3), ninf);
  // x * inf has no sign (and is NaN at x = 0): it stays.
  ExprId xi = s.mul(x, inf);
  EXPECT_EQ(s.kind(xi), Kind::Mul);
  EXPECT_FALSE(s.is_finite(xi));
  EXPECT_EQ(s.mul(c(3), xi), xi);
  EXPECT_EQ(s.mul(c(-3), xi), s.mul(x, ninf));
}

TEST_F(ExtendedTest, InputDependentNanIsKept) {
  // masked - masked is 0 on live lanes and NaN on masked ones: never folded to 0.
  ExprId d = s.sub(masked, masked);
  EXPECT_NE(d, s.zero());
  EXPECT_FALSE(s.is_finite(d));
  EXPECT_EQ(d, s.mul(c(0), masked));
  EXPECT_EQ(str(d), "0*select(x[0] < 0, y[1], -inf)");
  // masked + (-inf) is -inf or NaN: the infinity stays next to it.
  ExprId e = s.add(masked, ninf);
  EXPECT_EQ(s.kind(e), Kind::Add);
  EXPECT_EQ(s.add(s.add(masked, c(7)), ninf), e) << "finite parts vanish next to an infinity";
  EXPECT_EQ(s.add(e, inf), undef);
  // masked / masked is 1 on live lanes, NaN on masked ones.
  ExprId r = s.div(masked, masked);
  EXPECT_NE(r, s.one());
  Assignment live{{x, mpq_class(-1)}, {y, mpq_class(5)}};
  Assignment dead{{x, mpq_class(1)}, {y, mpq_class(5)}};
  EXPECT_EQ(eval_exact(s, r, live), mpq_class(1));
  EXPECT_EQ(eval_exact(s, r, dead), std::nullopt);
  EXPECT_EQ(eval_exact(s, d, live), mpq_class(0));
  EXPECT_EQ(eval_exact(s, d, dead), std::nullopt);
  expect_all_canonical();
}

TEST_F(ExtendedTest, FunctionLimits) {
  EXPECT_EQ(s.exp(ninf), s.zero());
  EXPECT_EQ(s.exp(inf), inf);
  EXPECT_EQ(s.log(c(0)), ninf);
  EXPECT_EQ(s.log(inf), inf);
  EXPECT_EQ(s.sqrt(inf), inf);
  EXPECT_EQ(s.tanh(ninf), c(-1));
  EXPECT_EQ(s.erf(inf), c(1));
  EXPECT_EQ(s.abs(ninf), inf);
  // The softmax of a fully masked score: exp(-inf - m) = 0 for finite m.
  EXPECT_EQ(s.exp(s.sub(ninf, s.max(x, y))), s.zero());
}

TEST_F(ExtendedTest, MinMaxIdentities) {
  EXPECT_EQ(s.max(x, ninf), x);
  EXPECT_EQ(s.min(x, inf), x);
  EXPECT_EQ(s.max(x, inf), inf);
  EXPECT_EQ(s.min(ninf, s.exp(x)), ninf);
  EXPECT_EQ(s.max(ninf, ninf), ninf);
  EXPECT_EQ(s.max(masked, ninf), masked);
  // max(v, +inf) = +inf needs v to be a number; 0*masked may be NaN, so the node stays.
  EXPECT_NE(s.max(s.mul(c(0), masked), inf), inf);
}

TEST_F(ExtendedTest, ComparisonsWithInfinity) {
  EXPECT_EQ(s.cmp(CmpOp::Lt, ninf, x), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Gt, ninf, x), s.false_value());
  EXPECT_EQ(s.cmp(CmpOp::Eq, inf, inf), s.true_value());
  EXPECT_EQ(s.cmp(CmpOp::Le, inf, ninf), s.false_value());
  EXPECT_EQ(s.cmp(CmpOp::Ne, x, inf), s.true_value());
  // Against a possibly infinite value nothing is decided.
  EXPECT_EQ(s.kind(s.cmp(CmpOp::Lt, ninf, masked)), Kind::Cmp);
}

}  // namespace
}  // namespace racer::expr::test
