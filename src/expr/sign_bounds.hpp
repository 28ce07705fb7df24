#pragma once
// Rational bounds on an expression over its symbols' ranges (the instance's input domain, as
// the Store holds it): a lower and an upper bound, either possibly infinite, that hold at every
// point of the box where the expression is defined. Coarse (interval arithmetic; exp, log and
// sqrt through rational bounds of their own), and only ever used one way: what lies outside
// them the expression never takes. The atom normalizer takes a log apart (log(y / x) = log(y) -
// log(x)) only over factors it proves positive, so that the rewrite keeps the value wherever the
// original has one; the routine recognizer fits a compiled routine only on the values its input
// can take (idiom/plan.hpp, InputRange).
#include <gmpxx.h>

#include <optional>
#include <unordered_map>
#include <vector>

#include "expr/store.hpp"

namespace racer::expr {

struct Bounds {
  std::optional<mpq_class> lo, hi;  // nullopt: unbounded on that side
};

class SignBounds {
 public:
  explicit SignBounds(const expr::Store& s) : s_(s) {}
  Bounds of(expr::ExprId x);
  // Whether x > 0 wherever it is defined on the box.
  bool positive(expr::ExprId x);

 private:
  Bounds compute(expr::ExprId x);
  Bounds func(expr::FuncKind f, const Bounds& u);
  Bounds wrapped(expr::FuncKind f, expr::ExprId u);
  Bounds normalized_ratios(expr::ExprId x, std::vector<bool>& used);
  Bounds offsets_over_spans(expr::ExprId x, std::vector<bool>& used);

  const expr::Store& s_;
  std::unordered_map<uint32_t, Bounds> memo_;
};

}  // namespace racer::expr
