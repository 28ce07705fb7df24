#pragma once
// The transcendental functions an expression applies to data, as a bit set over FuncKind (abs
// and the integer wraps aside: they are exact). Of a constant (log(2) where exp2 is exp(x log 2),
// sqrt(2) from rsqrt(2.0) at run time) a function is a constant and does not count.
#include "expr/walk.hpp"

namespace racer::expr {

inline unsigned applied_functions(const Store& st, ExprId root) {
  unsigned mask = 0;
  any_node(st, root, [&](ExprId e) {
    if (st.kind(e) == Kind::Func && st.func_kind(e) != FuncKind::Abs && !is_wrap(st.func_kind(e)) &&
        !st.is_rational(st.operand(e, 0)))
      mask |= 1u << static_cast<unsigned>(st.func_kind(e));
    return false;
  });
  return mask;
}

}  // namespace racer::expr
