// Bounds over the symbols' ranges say "positive" only where the value is: sums of squares plus
// a constant, exps, square roots, logs and quotients of ranged values; never a value that can
// reach 0 or below somewhere in the box.
#include "expr/sign_bounds.hpp"
#include "fixture.hpp"

namespace racer::expr::test {
namespace {

TEST_F(ExprTest, SignBoundsProvePositiveOnlyWhatIs) {
  SignBounds b(s);
  ExprId r = s.symbol("r_range", expr::Range{mpq_class(1, 4), mpq_class(3)});
  ExprId n = s.symbol("n_range", expr::Range{mpq_class(-2), mpq_class(-1, 2)});
  EXPECT_TRUE(b.positive(s.add(s.mul(x, x), q(1, 100))));
  EXPECT_TRUE(b.positive(s.exp(x)));
  EXPECT_TRUE(b.positive(s.mul(s.exp(x), r)));
  EXPECT_TRUE(b.positive(r));
  EXPECT_TRUE(b.positive(s.div(r, s.add(r, c(1)))));
  EXPECT_TRUE(b.positive(s.sqrt(r)));
  EXPECT_TRUE(b.positive(s.log(s.add(r, c(1)))));   // log(r + 1) >= 1 - 1/(5/4)
  EXPECT_TRUE(b.positive(s.mul(n, n)));
  EXPECT_TRUE(b.positive(s.neg(n)));
  EXPECT_TRUE(b.positive(s.max(x, r)));
  EXPECT_TRUE(b.positive(s.exp(s.mul(c(-50), r))));  // a tiny positive lower bound
  EXPECT_FALSE(b.positive(x));
  EXPECT_FALSE(b.positive(n));
  EXPECT_FALSE(b.positive(s.sub(r, c(1))));
  EXPECT_FALSE(b.positive(s.mul(x, x)));             // 0 at x = 0
  EXPECT_FALSE(b.positive(s.log(r)));                // below 0 for r < 1
  EXPECT_FALSE(b.positive(s.tanh(r)));               // bounded by 0 only
  EXPECT_FALSE(b.positive(s.min(x, r)));
  EXPECT_FALSE(b.positive(s.div(c(1), x)));
  Bounds nb = b.of(s.mul(n, r));
  ASSERT_TRUE(nb.lo && nb.hi);
  EXPECT_EQ(*nb.lo, -6);
  EXPECT_EQ(*nb.hi, mpq_class(-1, 8));
}

}  // namespace
}  // namespace racer::expr::test
