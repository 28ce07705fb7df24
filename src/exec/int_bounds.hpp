#pragma once
// Bounds of integer-valued expressions. Symbolic integer arithmetic is exact integer
// arithmetic, which agrees with the hardware's two's complement only while no result can
// leave its type's range; these bounds are the proof that it cannot.
#include <gmpxx.h>

#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>

#include "expr/store.hpp"

namespace racer::exec {

struct Interval {
  mpq_class lo, hi;
};

class IntBounds {
 public:
  using SymbolRange = std::function<std::optional<Interval>(expr::ExprId)>;
  explicit IntBounds(const expr::Store& store) : store_(store) {}
  void set_symbol_range(SymbolRange f) { symbol_range_ = std::move(f); }
  // nullopt: no finite bound is known.
  std::optional<Interval> of(expr::ExprId e);
  // A bound proved by other means (a remainder lies in [0, 2^n)): kept with the rules' own.
  void note(expr::ExprId e, const Interval& known);
  // The exact bounds of e where it depends on one integer symbol with at most kMaxPoints
  // values: e evaluated at each (the interval rules lose the correlation between the steps
  // of a shift and the value shifted). Kept as a note, and asked again answered from memory;
  // nullopt otherwise.
  static constexpr long kMaxPoints = 4096;
  std::optional<Interval> enumerate(expr::ExprId e);

 private:
  std::optional<Interval> enumerate_anew(expr::ExprId e);
  std::pair<std::optional<mpq_class>, std::optional<mpq_class>> one_sided(expr::ExprId e);
  const expr::Store& store_;
  SymbolRange symbol_range_;
  std::unordered_map<uint32_t, std::optional<Interval>> memo_;
  // What enumerate found for each expression it evaluated (an int8 lane is read many times).
  std::unordered_map<uint32_t, std::optional<Interval>> enumerated_;
};

}  // namespace racer::exec
