// Two's-complement wrap-around (node.hpp, wrap_kind). Hardware integer arithmetic is exact
// arithmetic mod 2^w, so a wrap of width w only sees its operand mod 2^w: whatever changes the
// operand by a multiple of 2^w may be undone before the node is built. That is what makes
// programs that add in different orders, or accumulate in 64 bits and truncate, meet as one
// node. The changes made here, each a multiple of 2^w wherever the operand is defined:
//  * a constant term c becomes its representative in [-2^(w-1), 2^(w-1)) (c - 2^w k);
//  * an integer weight of an integral term likewise (the term times 2^w k is a multiple);
//  * a wrap of width v >= w in a ring position is its operand (they differ by 2^v k): a term
//    with an integer weight, or a factor of a product with an integer coefficient whose
//    factors are all integral with non-negative integer powers (any other factor could turn
//    2^v k into something that is no multiple of 2^w);
//  * the same inside sums and products in ring positions.
#include <vector>

#include "expr/rational_ops.hpp"
#include "expr/store.hpp"

namespace racer::expr {

using detail::kFinite;

namespace {

bool is_integer(const mpq_class& q) { return q.get_den() == 1; }

// q - 2^w k in [-2^(w-1), 2^(w-1)): small negative constants stay small.
mpq_class centered(const mpq_class& q, unsigned bits) { return detail::wrap_value(q, bits, true); }

}  // namespace

bool Store::integral(ExprId x) const {
  if (auto it = integral_.find(x.index); it != integral_.end()) return it->second;
  bool r = false;
  switch (kind(x)) {
    case Kind::Const: r = is_rational(x) && is_integer(rational(x)); break;
    case Kind::Bool: r = false; break;  // a condition, not a number
    case Kind::Symbol: r = symbol_info(x).integer; break;
    case Kind::Add:
      r = is_integer(coef(x));
      for (uint32_t i = 0; i < arity(x) && r; ++i) r = is_integer(weight(x, i)) && integral(operand(x, i));
      break;
    case Kind::Mul:
      r = is_integer(coef(x));
      for (uint32_t i = 0; i < arity(x) && r; ++i) r = weight(x, i) >= 0 && integral(operand(x, i));
      break;
    case Kind::Func: r = is_wrap(func_kind(x)) && integral(operand(x, 0)); break;
    case Kind::Min:
    case Kind::Max:
      r = true;
      for (uint32_t i = 0; i < arity(x) && r; ++i) r = integral(operand(x, i));
      break;
    case Kind::Select: r = !is_condition(x) && integral(operand(x, 1)) && integral(operand(x, 2)); break;
    case Kind::Cmp: r = false; break;
  }
  integral_.emplace(x.index, r);
  return r;
}

// x changed by multiples of 2^bits only (the header's rules), for x in a ring position of a wrap
// of that width.
ExprId Store::reduce_mod(ExprId x, unsigned bits) {
  switch (kind(x)) {
    case Kind::Const: return is_rational(x) ? constant(centered(rational(x), bits)) : x;
    case Kind::Func:
      if (is_wrap(func_kind(x)) && wrap_bits(func_kind(x)) >= bits) return reduce_mod(operand(x, 0), bits);
      return x;
    case Kind::Add: {
      std::vector<ExprId> terms{constant(centered(coef(x), bits))};
      for (uint32_t i = 0; i < arity(x); ++i) {
        ExprId t = operand(x, i);
        mpq_class w = weight(x, i);
        if (is_integer(w)) {
          if (integral(t)) w = centered(w, bits);
          if (w == 0) continue;
          t = reduce_mod(t, bits);
        }
        terms.push_back(mul(constant(w), t));
      }
      return add(terms);
    }
    case Kind::Mul: {
      if (!integral(x)) return x;
      mpq_class c = centered(coef(x), bits);
      if (c == 0) return zero_;
      std::vector<ExprId> factors{constant(c)};
      for (uint32_t i = 0; i < arity(x); ++i)
        factors.push_back(pow_int(reduce_mod(operand(x, i), bits), weight(x, i).get_num()));
      return mul(factors);
    }
    default: return x;
  }
}

ExprId Store::wrap_func(FuncKind f, ExprId a) {
  const unsigned bits = wrap_bits(f);
  const bool is_signed = wrap_signed(f);
  if (is_inf(a)) return undefined_;  // no residue mod 2^w
  if (is_rational(a)) return constant(detail::wrap_value(rational(a), bits, is_signed));
  // A symbol whose declared range fits is its own residue.
  if (kind(a) == Kind::Symbol && symbol_info(a).range) {
    const Range& r = *symbol_info(a).range;
    mpq_class lo = is_signed ? mpq_class(-(mpz_class(1) << (bits - 1))) : mpq_class(0);
    if (r.lo >= lo && r.hi < lo + mpq_class(mpz_class(1) << bits)) return a;
  }
  ExprId reduced = reduce_mod(a, bits);
  if (is_rational(reduced)) return constant(detail::wrap_value(rational(reduced), bits, is_signed));
  uint32_t op = reduced.index;
  return intern(Kind::Func, uint8_t(f), 0, std::span<const uint32_t>(&op, 1), is_finite(reduced) ? kFinite : 0);
}

}  // namespace racer::expr
