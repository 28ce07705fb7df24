// The store says whether any expression is piecewise (the early emulation plans the self-check's
// second points by it): a select, min, max or abs makes it so; analytic building does not.
#include <gtest/gtest.h>

#include "expr/store.hpp"

namespace racer::expr {
namespace {

TEST(Store, SaysWhetherAnyExpressionIsPiecewise) {
  auto analytic = [](Store& st) {
    ExprId x = st.symbol("x"), y = st.symbol("y");
    ExprId e = st.add(st.mul(x, y), st.func(FuncKind::Exp, x));
    return std::pair{x, st.mul(e, st.constant(3))};
  };
  {
    Store st;
    analytic(st);
    EXPECT_FALSE(st.has_piecewise());
  }
  for (int kind = 0; kind < 4; ++kind) {
    Store st;
    auto [x, e] = analytic(st);
    ExprId y = st.symbol("y");
    switch (kind) {
      case 0: st.min(e, y); break;
      case 1: st.max(x, y); break;
      case 2: st.abs(st.add(x, y)); break;
      default: st.select(st.cmp(CmpOp::Lt, x, y), x, y); break;
    }
    EXPECT_TRUE(st.has_piecewise()) << kind;
  }
}

}  // namespace
}  // namespace racer::expr
