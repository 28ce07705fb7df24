// The rounding bound keeps each node's value and error in long double precision: a value
// whose extra bits a double would lose reads back whole from the bound's memo.
#include <gtest/gtest.h>

#include "decide/rounding_bound.hpp"

namespace racer::decide {
namespace {

TEST(RoundingBound, ValuesKeepTheirLongDoublePrecision) {
  expr::Store st;
  expr::ExprId x = st.symbol("x"), y = st.symbol("y");
  expr::ExprId sum = st.add(x, y);
  expr::ExprId twice = st.add(sum, sum);  // (reads sum's memoized value)
  expr::Assignment at;
  at.set(x, 1.0);
  at.set(y, 0x1p-60);
  RoundingBound bound(st, FloatModel{}, at);
  std::optional<BoundedValue> t = bound.at(twice), s = bound.at(sum);
  ASSERT_TRUE(t && s);
  EXPECT_EQ(s->value, 1.0L + 0x1p-60L);
  EXPECT_EQ(t->value, 2.0L + 0x1p-59L);
  EXPECT_GT(s->error, 0.0L);
  EXPECT_GE(t->error, 2 * s->error);
  for (int i = 0; i < 3; ++i) {
    std::optional<BoundedValue> again = bound.at(sum);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->value, s->value);
    EXPECT_EQ(again->error, s->error);
  }
}

}  // namespace
}  // namespace racer::decide
