#pragma once
// A register or memory value: concrete bits, or a real-valued expression from the shared
// Store. Integer and address arithmetic stays on bits; only data derived from symbolic
// inputs becomes an expression.
#include <cstdint>

#include "expr/expr_id.hpp"

namespace racer::exec {

struct Value {
  uint64_t bits = 0;
  // 0: concrete (bits valid); kPoison: an atomic's old value, never to be read;
  // otherwise ExprId index + 1 of a real number or a condition (for predicates).
  uint32_t sym = 0;
  // A symbolic value is either float data (a real) or integer data (an exact integer whose
  // range is known to fit the type it was computed in); reading one as the other would be
  // a bit-level reinterpretation.
  bool integer = false;

  static constexpr uint32_t kPoison = UINT32_MAX;

  static Value of_bits(uint64_t b) { return {b, 0, false}; }
  static Value of_expr(expr::ExprId e) { return {0, e.index + 1, false}; }
  static Value of_int_expr(expr::ExprId e) { return {0, e.index + 1, true}; }
  static Value poison() { return {0, kPoison, false}; }

  bool is_concrete() const { return sym == 0; }
  bool is_poison() const { return sym == kPoison; }
  bool is_symbolic() const { return sym != 0 && sym != kPoison; }
  expr::ExprId expr() const { return expr::ExprId{sym - 1}; }
  bool operator==(const Value&) const = default;
};

}  // namespace racer::exec
