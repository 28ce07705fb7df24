// substitute, free_symbols and to_string.
#include "fixture.hpp"

namespace racer::expr::test {
namespace {

TEST_F(ExprTest, SubstituteRebuildsCanonically) {
  ExprId e = s.add(s.mul(x, y), s.exp(s.sub(x, z)));
  // x -> z: x*y + exp(0) = y*z + 1
  EXPECT_EQ(substitute(s, e, {{x, z}}), s.add(s.mul(y, z), c(1)));
  // Simultaneous: x <-> y swaps without feeding one replacement into the other.
  EXPECT_EQ(substitute(s, s.sub(x, s.mul(c(2), y)), {{x, y}, {y, x}}), s.sub(y, s.mul(c(2), x)));
  // Constants fold all the way through.
  ExprId p = s.cmp(CmpOp::Lt, x, y);
  ExprId sel = s.select(p, s.add(x, c(1)), s.div(c(1), y));
  EXPECT_EQ(substitute(s, sel, {{x, c(1)}, {y, c(4)}}), c(2));
  EXPECT_EQ(substitute(s, sel, {{x, c(5)}, {y, c(4)}}), q(1, 4));
  // Non-symbol keys replace whole subterms.
  EXPECT_EQ(substitute(s, s.add(s.exp(x), y), {{s.exp(x), y}}), s.mul(c(2), y));
  EXPECT_EQ(substitute(s, e, {}), e);
  // Zero-weight terms keep their meaning: 0*masked becomes 0 once masked is finite.
  ExprId masked = s.select(p, y, s.neg_inf());
  ExprId d = s.sub(masked, masked);
  EXPECT_EQ(substitute(s, d, {{masked, x}}), s.zero());
  EXPECT_EQ(substitute(s, d, {{masked, s.neg_inf()}}), s.undefined());
  expect_all_canonical();
}

TEST_F(ExprTest, SubstituteDeepSharedDag) {
  ExprId v = x;
  for (int i = 0; i < 5000; ++i) v = s.add(s.min(v, y), s.max(v, z));
  ExprId w = substitute(s, v, {{y, c(0)}, {z, c(0)}});
  // With y = z = 0 each level is min(v, 0) + max(v, 0) = v, but the constructors do not
  // know that identity; the result must still evaluate the same.
  EXPECT_EQ(eval_exact(s, w, {{x, mpq_class(3)}}), mpq_class(3));
  EXPECT_EQ(substitute(s, v, {{x, c(1)}, {y, c(0)}, {z, c(0)}}), c(1));
}

TEST_F(ExprTest, FreeSymbols) {
  ExprId e = s.add(s.mul(z, s.exp(x)), s.max(x, c(3)));
  EXPECT_EQ(free_symbols(s, e), (std::vector<ExprId>{x, z}));
  EXPECT_TRUE(free_symbols(s, c(4)).empty());
  EXPECT_EQ(free_symbols(s, y), std::vector<ExprId>{y});
}

TEST_F(ExprTest, PrintsReadableInfix) {
  EXPECT_EQ(str(s.add(s.mul(c(2), x), s.mul(q(3, 4), s.pow_int(y, 2)))), "2*x[0] + 3/4*y[1]^2");
  EXPECT_EQ(str(s.exp(x)), "exp(x[0])");
  EXPECT_EQ(str(s.max(x, y)), "max(x[0], y[1])");
  EXPECT_EQ(str(s.select(s.cmp(CmpOp::Lt, x, q(1, 2)), y, z)), "select(x[0] < 1/2, y[1], z)");
  EXPECT_EQ(str(s.sub(s.sub(x, s.mul(c(2), y)), c(1))), "x[0] - 2*y[1] - 1");
  EXPECT_EQ(str(s.neg(x)), "-x[0]");
  EXPECT_EQ(str(s.div(x, y)), "x[0]/y[1]");
  EXPECT_EQ(str(s.div(x, s.mul(y, z))), "x[0]/(y[1]*z)");
  EXPECT_EQ(str(s.recip(y)), "1/y[1]");
  EXPECT_EQ(str(s.div(c(-3), s.mul(c(4), y))), "-3/(4*y[1])");
  EXPECT_EQ(str(s.mul(s.add(x, c(1)), y)), "y[1]*(x[0] + 1)");  // factors in id order
  EXPECT_EQ(str(s.div(c(1), s.add(x, y))), "1/(x[0] + y[1])");
  EXPECT_EQ(str(s.pow_int(s.exp(x), 3)), "exp(x[0])^3");
  EXPECT_EQ(str(s.add(x, s.neg_inf())), "-inf");
  EXPECT_EQ(str(s.mul(x, s.neg_inf())), "(-inf)*x[0]");
  EXPECT_EQ(str(s.max(x, c(-2))), "max(x[0], -2)");
  EXPECT_EQ(str(s.cmp(CmpOp::Ge, s.add(x, y), c(0))), "0 <= x[0] + y[1]");
  EXPECT_EQ(str(s.symbol("uninit global 0x1000+12")), "{uninit global 0x1000+12}");
  EXPECT_EQ(str(s.undefined()), "undefined");
  EXPECT_EQ(str(str_q("13421773/134217728")), "13421773/134217728");
}

TEST_F(ExprTest, PrintingIsBoundedOnSharedDags) {
  ExprId v = x;
  for (int i = 0; i < 200; ++i) v = s.add(s.min(v, y), s.max(v, z));
  std::string out = to_string(s, v, 10000);
  EXPECT_EQ(out.size(), 10003u);
  EXPECT_EQ(out.substr(out.size() - 3), "...");
  // Depth alone (no sharing) prints in full without recursion.
  ExprId deep = x;
  for (int i = 0; i < 20000; ++i) deep = s.exp(deep);
  EXPECT_EQ(to_string(s, deep).size(), 20000 * 5 + 4u);
}

}  // namespace
}  // namespace racer::expr::test
