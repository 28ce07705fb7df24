// Sign-bit views of symbolic floats (DESIGN "Semantics": sign-bit and/or/xor have a real
// meaning). `and s, 0x80000000` keeps s's sign alone: integer data select(s < 0, 2^31, 0).
// Or'ing such a sign into a float v sets v's sign where s is negative (copysign when v is a
// magnitude), xor'ing it flips v's sign there; both are selects on s < 0, exact on reals.
// Anything else mixed into a float's bits stays refused.
#include "exec/refusal.hpp"
#include "exec/symbolic_domain.hpp"

namespace racer::exec {

using expr::ExprId;

namespace {

mpq_class sign_mask(ptx::Type ft) { return mpq_class(mpz_class(1) << (ptx::type_bits(ft) - 1)); }

void check_float_format(ptx::Type ft) {
  if (ft != ptx::Type::F32 && ft != ptx::Type::F64)
    throw Refusal("sign-bit operation on ." + std::string(ptx::type_name(ft)) + " data (only f32 and f64 are modelled)");
}

}  // namespace

Value SymbolicDomain::sign_bit(ptx::Type ft, Value s) {
  check_float_format(ft);
  if (s.is_packed()) throw Refusal("sign-bit operation on a register holding two 16-bit halves");
  ExprId x = real(s, ft);
  // A constant zero (0 * x in a masked lane) has a sign bit the reals do not keep: IEEE makes
  // it from the signs of the operands, which the exact value has forgotten.
  if (store_.is_rational(x) && store_.rational(x) == 0) throw Refusal("the sign bit of a zero computed from symbolic data (+0 or -0)");
  ExprId negative = store_.cmp(expr::CmpOp::Lt, x, store_.zero());
  if (store_.is_undefined(negative)) throw Refusal("the sign bit of a value that may be NaN");
  if (store_.kind(negative) == expr::Kind::Bool)
    return Value::of_bits(store_.bool_value(negative) ? sign_mask(ft).get_num().get_ui() : 0);
  return Value::of_int_expr(store_.select(negative, store_.constant(sign_mask(ft)), store_.zero()));
}

Value SymbolicDomain::with_sign_bit(ptx::Type ft, Value sign, Value v, bool flip) {
  check_float_format(ft);
  if (!sign.is_symbolic() || !sign.integer || v.integer || v.is_packed())
    throw Refusal("bit-level operation mixing a float with integer data that is not a sign bit");
  // The sign must be exactly select(c, signmask, 0) (or its mirror): one bit, nothing else.
  ExprId e = sign.expr();
  if (store_.kind(e) != expr::Kind::Select) throw Refusal("bit-level operation mixing a float with integer data that is not a sign bit");
  ExprId c = store_.operand(e, 0), hi = store_.operand(e, 1), lo = store_.operand(e, 2);
  auto is = [&](ExprId k, const mpq_class& q) { return store_.is_rational(k) && store_.rational(k) == q; };
  if (is(hi, 0) && is(lo, sign_mask(ft))) {
    c = store_.select(c, store_.false_value(), store_.true_value());
    std::swap(hi, lo);
  }
  if (!is(hi, sign_mask(ft)) || !is(lo, 0))
    throw Refusal("bit-level operation mixing a float with integer data that is not a sign bit");
  ExprId x = real(v, ft);
  ExprId set = flip ? store_.neg(x) : store_.neg(store_.abs(x));
  return Value::of_expr(store_.select(c, set, x));
}

}  // namespace racer::exec
