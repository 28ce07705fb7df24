#pragma once
// Whether an expression is a continuous real function defined at every point of the box its
// symbols range over: built from finite constants, real (not integer) symbols, sums,
// products whose divisors are positive by their shape, exp, tanh, erf, sin, cos, abs, min,
// max, and log and sqrt of values positive by their shape. No comparison, select or
// wrap-around. Such a function's branch-free parts are moreover analytic.
//
// The case split (case_split.hpp) uses it to set aside pieces of measure zero: two continuous
// functions equal on a dense subset of a box are equal on all of it.
#include <functional>

#include "expr/store.hpp"

namespace racer::decide {

bool continuous_everywhere(const expr::Store& s, expr::ExprId root,
                           const std::function<bool(expr::ExprId symbol)>& real_symbol);

}  // namespace racer::decide
