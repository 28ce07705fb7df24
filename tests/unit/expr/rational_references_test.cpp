// The Store's builders hold references to interned rationals (a coefficient, a weight) while
// they intern new ones; those references must stay valid. They once did not: exp(-2x), built
// as exp(x)^-2 while the rational table grew, read its exponent from freed memory.
#include <gtest/gtest.h>

#include "expr/expr.hpp"

namespace racer::expr {
namespace {

TEST(RationalReferences, ExpOfIntegerMultiplesSurviveTableGrowth) {
  Store s;
  ExprId x = s.symbol("x");
  ExprId ex = s.exp(x);
  // Each new coefficient k interns k and 1/k; enough of them cross several growths.
  for (long k = 2; k < 3000; ++k) {
    ExprId built = s.exp(s.mul(s.constant(-k), x));
    ASSERT_EQ(built, s.pow_int(ex, -k)) << "exp(" << -k << " x)";
  }
}

TEST(RationalReferences, ExpOfSumsSurviveTableGrowth) {
  Store s;
  ExprId x = s.symbol("x"), y = s.symbol("y");
  for (long k = 2; k < 2000; ++k) {
    ExprId built = s.exp(s.add(s.mul(s.constant(k), x), s.mul(s.constant(-k - 1), y)));
    ASSERT_EQ(built, s.mul(s.pow_int(s.exp(x), k), s.pow_int(s.exp(y), -k - 1))) << k;
  }
}

}  // namespace
}  // namespace racer::expr
