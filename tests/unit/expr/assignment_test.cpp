// expr::Assignment: values kept as doubles where they are exactly one, as rationals elsewhere,
// in a short list for few symbols and in pages for many; every value reads back exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "expr/eval.hpp"

namespace racer::expr {
namespace {

TEST(Assignment, DoublesAndRationalsReadBackExactly) {
  Assignment at;
  at.set(ExprId{3}, 0.1);  // the double nearest 1/10, exactly
  at.set(ExprId{4}, mpq_class(1, 3));
  at.set(ExprId{5}, mpq_class("1152921504606846977"));  // 2^60 + 1: an integer no double holds
  at.set(ExprId{6}, mpq_class(-7, 8));
  at.set(ExprId{7}, -0.0);
  EXPECT_EQ(*at.value(ExprId{3}), mpq_class(0.1));
  EXPECT_EQ(at.exact_double(ExprId{3}), 0.1);
  EXPECT_EQ(*at.value(ExprId{4}), mpq_class(1, 3));
  EXPECT_FALSE(at.exact_double(ExprId{4}));
  ASSERT_NE(at.rational(ExprId{4}), nullptr);
  EXPECT_EQ(*at.rational(ExprId{4}), mpq_class(1, 3));
  EXPECT_EQ(*at.value(ExprId{5}), mpq_class("1152921504606846977"));
  EXPECT_FALSE(at.exact_double(ExprId{5}));
  EXPECT_EQ(at.exact_double(ExprId{6}), -0.875);  // a rational that is a double is kept as one
  EXPECT_EQ(at.rational(ExprId{6}), nullptr);
  EXPECT_EQ(*at.value(ExprId{7}), 0);
  EXPECT_FALSE(std::signbit(*at.exact_double(ExprId{7})));
  at.set(ExprId{9}, mpq_class(2, 6));  // not canonical: kept as 1/3
  EXPECT_EQ(mpq_class(*at.value(ExprId{9})).get_den(), 3);
  at.set(ExprId{10}, mpq_class(6, 4));  // not canonical, and a double once reduced
  EXPECT_EQ(at.exact_double(ExprId{10}), 1.5);
  EXPECT_FALSE(at.contains(ExprId{8}));
  EXPECT_FALSE(at.value(ExprId{8}));
  EXPECT_EQ(at.size(), 7u);
}

TEST(Assignment, ReplacingAValueKeepsTheLastOne) {
  Assignment at;
  at.set(ExprId{1}, mpq_class(1, 3));
  at.set(ExprId{1}, mpq_class(2, 3));
  EXPECT_EQ(*at.value(ExprId{1}), mpq_class(2, 3));
  at.set(ExprId{1}, 4.0);
  EXPECT_EQ(*at.value(ExprId{1}), 4);
  at.set(ExprId{1}, mpq_class(5, 3));
  EXPECT_EQ(*at.value(ExprId{1}), mpq_class(5, 3));
  EXPECT_EQ(at.size(), 1u);
}

TEST(Assignment, ManySymbolsMoveFromTheListToPagesIntact) {
  Assignment at;
  // Far-apart and neighbouring indices, doubles and rationals, past the list's length.
  for (uint32_t i = 0; i < 3000; ++i) {
    ExprId x{i * 7919 % 100003};
    if (i % 3 == 0) at.set(x, mpq_class(static_cast<long>(i), 3));
    else at.set(x, static_cast<double>(i) * 0.5);
  }
  EXPECT_EQ(at.size(), 3000u);
  for (uint32_t i = 0; i < 3000; ++i) {
    ExprId x{i * 7919 % 100003};
    mpq_class want = i % 3 == 0 ? mpq_class(static_cast<long>(i), 3) : mpq_class(static_cast<double>(i) * 0.5);
    want.canonicalize();
    ASSERT_TRUE(at.contains(x)) << i;
    EXPECT_EQ(*at.value(x), want) << i;
  }
  EXPECT_FALSE(at.contains(ExprId{1}));  // (1 is no i * 7919 % 100003 for i < 3000)
  EXPECT_FALSE(at.contains(ExprId{5000000}));
}

TEST(Assignment, EvaluationSeesBothKinds) {
  Store s;
  ExprId x = s.symbol("x"), y = s.symbol("y");
  Assignment at;
  at.set(x, 0.5);
  at.set(y, mpq_class(1, 3));
  EXPECT_EQ(eval_exact(s, s.add(x, y), at), mpq_class(5, 6));
}

}  // namespace
}  // namespace racer::expr
