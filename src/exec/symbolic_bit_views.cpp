// Bit-level views of symbolic data that are exact on reals (DESIGN "Semantics").
// Sign bits: `and s, 0x80000000` keeps s's sign alone, integer data select(s < 0, 2^31, 0).
// Or'ing such a sign into a float v sets v's sign where s is negative (copysign when v is a
// magnitude), xor'ing it flips v's sign there; both are selects on s < 0.
// Powers of two: integer data that is an exponent field alone ((k + 127) << 23), read as a
// float, is 2^k while the field stays within the normal range.
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
  if (s.holds_lanes()) throw Refusal("sign-bit operation on a register holding lanes (packed halves or bytes)");
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
  if (!sign.is_symbolic() || !sign.integer || v.integer || v.holds_lanes())
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

namespace {

// Whether every value of the integer-valued expression e is a multiple of d: its constant
// term and every term's coefficient are (integer data is built from integer symbols by sums,
// products with integer coefficients, min, max and selects of integers).
bool multiple_of(const expr::Store& st, ExprId e, const mpz_class& d) {
  auto divides = [&](const mpq_class& q) { return q.get_den() == 1 && q.get_num() % d == 0; };
  switch (st.kind(e)) {
    case expr::Kind::Const: return st.is_rational(e) && divides(st.rational(e));
    case expr::Kind::Add:
      if (!divides(st.coef(e))) return false;
      for (uint32_t i = 0; i < st.arity(e); ++i)
        if (!divides(st.weight(e, i)) && !(st.weight(e, i).get_den() == 1 && multiple_of(st, st.operand(e, i), d)))
          return false;
      return true;
    case expr::Kind::Mul: return divides(st.coef(e));
    case expr::Kind::Select: return multiple_of(st, st.operand(e, 1), d) && multiple_of(st, st.operand(e, 2), d);
    default: return false;
  }
}

}  // namespace

std::optional<ExprId> SymbolicDomain::power_of_two_float(ExprId e, ptx::Type t) {
  if (t != ptx::Type::F32 && t != ptx::Type::F64) return std::nullopt;
  const unsigned man = t == ptx::Type::F32 ? 23 : 52;
  const long bias = t == ptx::Type::F32 ? 127 : 1023, max_field = t == ptx::Type::F32 ? 254 : 2046;
  const mpz_class unit = mpz_class(1) << man;
  auto b = bounds_.of(e);
  if (!b || b->lo < mpq_class(unit) || b->hi > mpq_class(unit * max_field) || !multiple_of(store_, e, unit)) return std::nullopt;
  ExprId k = store_.sub(store_.mul(e, store_.constant(mpq_class(1, unit))), store_.constant(bias));
  return store_.exp(store_.mul(k, ln2()));
}

// A quotient where every value of e is a multiple of 2^n; otherwise floor(e / 2^n) as its
// least quotient over e's bounds plus one step select(e >= q 2^n, 1, 0) per quotient above it
// (exact on every value in the bounds); beyond kMaxSteps steps, or with no bounds, through the
// residue mod 2^n (a wrap node).
ExprId SymbolicDomain::floor_pow2(ExprId e, unsigned n) {
  constexpr long kMaxSteps = 64;
  const mpz_class unit = mpz_class(1) << n;
  if (multiple_of(store_, e, unit)) return store_.mul(e, store_.constant(mpq_class(1, unit)));
  auto b = bounds_.of(e);
  mpz_class qlo, qhi;
  if (b) {
    mpz_fdiv_q(qlo.get_mpz_t(), mpz_class(b->lo).get_mpz_t(), unit.get_mpz_t());
    mpz_fdiv_q(qhi.get_mpz_t(), mpz_class(b->hi).get_mpz_t(), unit.get_mpz_t());
  }
  if (!b || qhi - qlo > kMaxSteps) {
    // Too many steps (a full-range value): (e - (e mod 2^n)) / 2^n, the residue a wrap to n
    // unsigned bits, for data known to be integers (symbolic_wrap.cpp says why).
    if (!from_integer_inputs(e)) {
      if (!b) throw Refusal("a shift or mask of symbolic integer data with no known bounds");
      throw Refusal("a shift or mask of symbolic integer data whose bounds span " + mpz_class(qhi - qlo).get_str() +
                    " quotients by 2^" + std::to_string(n) + " (more than " + std::to_string(kMaxSteps) + " steps)");
    }
    ExprId r = store_.mul(store_.sub(e, store_.wrap(e, n, false)), store_.constant(mpq_class(1, unit)));
    if (b) bounds_.note(r, Interval{mpq_class(qlo), mpq_class(qhi)});
    return r;
  }
  ExprId r = store_.constant(mpq_class(qlo));
  for (mpz_class q = qlo + 1; q <= qhi; ++q)
    r = store_.add(r, store_.select(store_.cmp(expr::CmpOp::Ge, e, store_.constant(mpq_class(q * unit))), store_.one(),
                                    store_.zero()));
  return r;
}

Value SymbolicDomain::int_shift_right(ptx::Type t, Value a, unsigned n) {
  if (ptx::type_class(t) == ptx::TypeClass::Signed) return checked_int(floor_pow2(integer(a, t), n), t);
  // shr.b and shr.u are logical: the value read unsigned.
  const unsigned w = ptx::type_bits(t);
  const ptx::Type ut = w == 64 ? ptx::Type::U64 : w == 16 ? ptx::Type::U16 : ptx::Type::U32;
  const ptx::Type st = w == 64 ? ptx::Type::S64 : w == 16 ? ptx::Type::S16 : ptx::Type::S32;
  if (a.is_symbolic() && a.integer)
    if (auto b = bounds_.of(a.expr()); b && b->lo < 0) {
      // A negative value of the signed range reads as e + 2^w: floor each reading (exact over
      // all of e's bounds) and select by sign; the result lies in [0, 2^(w-n)).
      ExprId e = integer(a, st);
      ExprId neg = store_.cmp(expr::CmpOp::Lt, e, store_.zero());
      ExprId r = store_.select(neg, floor_pow2(store_.add(e, store_.constant(mpq_class(mpz_class(1) << w))), n),
                               floor_pow2(e, n));
      bounds_.note(r, Interval{0, mpq_class((mpz_class(1) << (w - n)) - 1)});
      return checked_int(r, ut);
    }
  return checked_int(floor_pow2(integer(a, ut), n), ut);
}

// e mod 2^n, whose bounds [0, 2^n) the interval rules cannot see through the floor's steps:
// noted with it.
ExprId SymbolicDomain::mod_pow2(ExprId e, unsigned n) {
  const mpz_class unit = mpz_class(1) << n;
  if (auto b = bounds_.of(e); b && b->lo >= 0 && b->hi < mpq_class(unit)) return e;
  ExprId r = store_.sub(e, store_.mul(store_.constant(mpq_class(unit)), floor_pow2(e, n)));
  bounds_.note(r, Interval{0, mpq_class(unit - 1)});
  return r;
}

Value SymbolicDomain::int_bit_field(ptx::Type t, Value a, unsigned p, unsigned q) {
  ExprId e = integer(a, t);
  if (q == ptx::type_bits(t)) return checked_int(store_.sub(e, mod_pow2(e, p)), t);  // 2^p floor(e / 2^p)
  ExprId r = p == 0 ? mod_pow2(e, q) : store_.sub(mod_pow2(e, q), mod_pow2(e, p));
  bounds_.note(r, Interval{0, mpq_class((mpz_class(1) << q) - (mpz_class(1) << p))});
  return checked_int(r, t);
}

std::optional<Value> SymbolicDomain::int_flag_logic(bool xor_op, ptx::Type t, Value a, uint64_t k) {
  if (!a.is_symbolic() || !a.integer) return std::nullopt;
  ExprId e = a.expr();
  auto b = bounds_.of(e);
  if (!b || b->lo < 0 || b->hi > 1) return std::nullopt;
  // e in {0, 1} touches bit 0 alone: k's other bits pass through; bit 0 is e | k0 or e ^ k0.
  const mpz_class high = mpz_class(std::to_string(k & ~uint64_t{1}));
  ExprId low = (k & 1) == 0 ? e : xor_op ? store_.sub(store_.one(), e) : store_.one();
  return checked_int(store_.add(store_.constant(mpq_class(high)), low), t);
}

// Low bits of integer data e known to be 0 (at most `width`): a constant's, those of k in k y (y
// an integer), the fewest of a sum's weights and constant (16 (s_1 + ... + s_n) is built as
// 16 s_1 + ...), the fewer of a selection's two values.
unsigned SymbolicDomain::low_zero_bits(ExprId e, unsigned width) {
  auto of = [&](const mpq_class& k) {
    if (k.get_den() != 1) return 0u;
    return k == 0 ? width : std::min(width, static_cast<unsigned>(mpz_scan1(k.get_num_mpz_t(), 0)));
  };
  if (store_.kind(e) == expr::Kind::Mul) {  // k y_1^p_1 ...: integer data y_i, whole powers p_i > 0
    for (uint32_t i = 0; i < store_.arity(e); ++i) {
      const mpq_class& p = store_.weight(e, i);
      if (p.get_den() != 1 || p <= 0 || !from_integer_inputs(store_.operand(e, i))) return 0;
    }
    return of(store_.coef(e));
  }
  if (store_.is_rational(e)) return of(store_.rational(e));
  if (store_.kind(e) == expr::Kind::Select && !store_.is_condition(e))  // either branch's (a sign: 8 or 0)
    return std::min(low_zero_bits(store_.operand(e, 1), width), low_zero_bits(store_.operand(e, 2), width));
  if (store_.kind(e) != expr::Kind::Add) return 0;
  unsigned zeros = of(store_.coef(e));
  for (uint32_t i = 0; i < store_.arity(e) && zeros > 0; ++i)
    zeros = from_integer_inputs(store_.operand(e, i)) ? std::min(zeros, of(store_.weight(e, i))) : 0;
  return zeros;
}

std::optional<Value> SymbolicDomain::int_disjoint_bits(ptx::Type t, Value a, Value b) {
  const unsigned width = ptx::type_bits(t);
  const mpq_class top = mpq_class(mpz_class(1) << width);
  struct Part {
    ExprId e;
    mpq_class lo, hi;
    unsigned zeros;  // low bits known to be 0
  };
  // Integer data (the register's bits as a two's-complement or unsigned number of `width`
  // bits), with its bounds and its low zero bits.
  auto part = [&](Value v) -> std::optional<Part> {
    if (v.is_concrete()) {
      const uint64_t x = width < 64 ? v.bits & ((uint64_t{1} << width) - 1) : v.bits;
      const mpq_class q(mpz_class(std::to_string(x)));
      return Part{store_.constant(q), q, q, x ? static_cast<unsigned>(__builtin_ctzll(x)) : width};
    }
    if (!v.is_symbolic() || !v.integer || !from_integer_inputs(v.expr())) return std::nullopt;
    const ExprId e = v.expr();
    const std::optional<Interval> r = bounds_.of(e);
    if (!r || r->lo <= -top || r->hi >= top) return std::nullopt;
    return Part{e, r->lo, r->hi, low_zero_bits(e, width)};
  };
  std::optional<Part> p = part(a), q = part(b);
  if (!p || !q) return std::nullopt;
  // A sign bit alone (0 or 2^(w-1)) with a constant is copysign(|k|, x) as libdevice builds it
  // (with_sign_bit reads it so, a float): not integer data to add.
  if (a.is_concrete() != b.is_concrete() && (a.is_concrete() ? *q : *p).zeros + 1 >= width) return std::nullopt;
  // x in [0, 2^k) and y a multiple of 2^k (of either sign: its low k bits are 0 in two's
  // complement too): x | y = x ^ y = x + y.
  auto below = [&](const Part& x, const Part& y) { return x.lo >= 0 && x.hi < mpq_class(mpz_class(1) << y.zeros); };
  if (!below(*p, *q) && !below(*q, *p)) return std::nullopt;
  return checked_int(store_.add(p->e, q->e), t);
}

}  // namespace racer::exec
