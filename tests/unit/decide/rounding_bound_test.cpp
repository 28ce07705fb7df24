// The rounding bound keeps each node's value and error in long double precision: a value
// whose extra bits a double would lose reads back whole from the bound's memo. A node that
// also stands for a float sum whose terms cancelled in the Store (a + (b - a) is b) carries
// that sum's rounding, and a constant no float holds carries at least one rounding.
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

TEST(RoundingBound, ANodeAFoldedSumStandsForCarriesItsOperandsRounding) {
  expr::Store st;
  expr::ExprId a = st.symbol("a"), b = st.symbol("b");
  expr::ExprId difference = st.sub(b, a);
  expr::Assignment at;
  at.set(a, 1000.0);
  at.set(b, 0.5);
  const long double plain = [&] {
    RoundingBound bound(st, FloatModel{}, at);
    return bound.at(b)->error;
  }();
  EXPECT_EQ(plain, 0.0L);  // an input the program holds exactly
  st.note_unfolded(b, a, difference);  // what a + (b - a) became
  RoundingBound bound(st, FloatModel{}, at);
  std::optional<BoundedValue> folded = bound.at(b), d = bound.at(difference);
  ASSERT_TRUE(folded && d);
  EXPECT_EQ(folded->value, 0.5L);
  EXPECT_GE(folded->error, d->error);  // b - a's rounding, of 999.5's magnitude
  EXPECT_GT(folded->error, 999.5L * 0x1p-24L);
}

TEST(RoundingBound, AConstantNoFloatHoldsCarriesARounding) {
  expr::Store st;
  const expr::ExprId third = st.constant(mpq_class(1, 3)), half = st.constant(mpq_class(1, 2));
  expr::Assignment at;
  RoundingBound bound(st, FloatModel{}, at);
  std::optional<BoundedValue> t = bound.at(third);
  ASSERT_TRUE(t);
  EXPECT_GE(t->error, 0x1p-24L * t->value);
  EXPECT_EQ(bound.at(half)->error, 0.0L);
}

}  // namespace
}  // namespace racer::decide
