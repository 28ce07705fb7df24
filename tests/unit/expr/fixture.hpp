#pragma once
// A Store with a few symbols and shorthands, shared by the expr tests.
#include <gtest/gtest.h>

#include "expr/expr.hpp"

namespace racer::expr::test {

class ExprTest : public ::testing::Test {
 protected:
  Store s;
  ExprId x = s.symbol("x[0]");
  ExprId y = s.symbol("y[1]");
  ExprId z = s.symbol("z");

  ExprId c(long v) { return s.constant(v); }
  ExprId q(long num, long den) { return s.constant(mpq_class(num, den)); }
  ExprId str_q(const char* text) { return s.constant(mpq_class(text)); }
  std::string str(ExprId e) { return to_string(s, e); }

  // Every node built so far satisfies the canonical-form invariants.
  void expect_all_canonical() {
    for (uint32_t i = 0; i < s.size(); ++i) {
      std::string why;
      EXPECT_TRUE(is_canonical(s, ExprId{i}, &why)) << to_string(s, ExprId{i}) << ": " << why;
    }
  }
};

}  // namespace racer::expr::test
