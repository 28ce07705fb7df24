#pragma once
// Exact evaluation at a rational point: the primitive under witnesses (an inequivalence is
// reported only where both sides evaluate exactly and differ).
#include <gmpxx.h>

#include <optional>

#include "expr/assignment.hpp"
#include "expr/store.hpp"

namespace racer::expr {

// The exact value of x when every symbol takes its value from `at`. nullopt when that value
// is not a rational the evaluator can prove: irrational (exp(1), sqrt(2)), infinite,
// undefined (1/0, inf - inf), or dependent on an undecidable comparison of irrationals.
// Exact values do propagate through such parts where the result does not depend on them
// (0 * exp(x) = 0, max(exp(x), +inf) = +inf). A symbol missing from `at` throws
// racer::Error(Internal). Memoized per call and iterative, so it is linear in the DAG and
// safe at any depth.
std::optional<mpq_class> eval_exact(const Store& s, ExprId x, const Assignment& at);

// As eval_exact, where the value may also be an infinity (a -inf constant for a masked
// logit): `infinity` is +1 or -1 then (and `value` 0), 0 for a rational value.
struct ExtendedValue {
  mpq_class value;
  int infinity = 0;
  bool operator==(const ExtendedValue&) const = default;
};
std::optional<ExtendedValue> eval_extended(const Store& s, ExprId x, const Assignment& at);

}  // namespace racer::expr
