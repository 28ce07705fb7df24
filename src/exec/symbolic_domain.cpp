#include "exec/symbolic_domain.hpp"

#include "exec/bit_count_cases.hpp"
#include "exec/exact_float.hpp"
#include "exec/ieee.hpp"
#include "expr/walk.hpp"
#include "exec/refusal.hpp"
#include "ptx/modifiers.hpp"

namespace racer::exec {

using expr::ExprId;

SymbolicDomain::SymbolicDomain(expr::Store& store) : store_(store) {}

ExprId SymbolicDomain::ln2() {
  if (!ln2_.valid()) ln2_ = store_.log(store_.constant(2));
  return ln2_;
}

ExprId SymbolicDomain::real(Value v, ptx::Type t) {
  if (v.is_deferred()) return sums_.settle(v);
  if (v.is_poison()) throw Refusal("reads the old value returned by an atomic, whose value depends on the order of atomics");
  if (v.is_symbolic()) {
    ExprId e = v.expr();
    if (store_.is_condition(e)) throw Refusal("uses a symbolic predicate as a number");
    if (v.integer && ptx::is_float(t)) {
      if (auto p = power_of_two_float(e, t)) return *p;
      throw Refusal("uses integer data as ." + std::string(ptx::type_name(t)) + " without a conversion (a bit-level reinterpretation)");
    }
    return e;
  }
  if (!ptx::is_float(t)) {
    // An integer operand of a float instruction (cvt handles conversions): read as signed.
    return store_.constant(mpq_class(exact_integer(v.bits, ptx::type_bits(t), true)));
  }
  return exact_constant(store_, t, v.bits);
}

ExprId SymbolicDomain::condition(Value p) {
  if (p.is_poison()) throw Refusal("reads the old value returned by an atomic, whose value depends on the order of atomics");
  if (p.is_concrete()) return (p.bits & 1) ? store_.true_value() : store_.false_value();
  ExprId e = p.expr();
  if (!store_.is_condition(e)) throw Refusal("uses a symbolic number as a predicate");
  return e;
}

Value SymbolicDomain::finish(ExprId e, const FloatMods& m) {
  if (m.sat) e = store_.min(store_.max(e, store_.zero()), store_.one());
  return Value::of_expr(e);
}

Value SymbolicDomain::exact_as_bits(Value exact, ptx::Type t, Value ieee) {
  if (!store_.is_rational(exact.expr())) return exact;
  ExactFloat f = decode_float(t, ieee.bits);
  if (f.kind != ExactFloat::Kind::Finite || f.value != store_.rational(exact.expr())) return exact;
  return ieee;
}

// The f32 constants nearest log2(e) and ln(2), as exact rationals.
const mpq_class& SymbolicDomain::log2e_float() {
  static const mpq_class c = decode_float(ptx::Type::F32, 0x3FB8AA3B).value;
  return c;
}
const mpq_class& SymbolicDomain::ln2_float() {
  static const mpq_class c = decode_float(ptx::Type::F32, 0x3F317218).value;
  return c;
}

// A rational with a short numerator and denominator (at most 16 and 8 bits): a scale a
// programmer writes (0.125, 3/2), not a float that approximates an irrational.
static bool small_rational(const mpq_class& q) {
  return mpz_sizeinbase(q.get_num_mpz_t(), 2) <= 16 && mpz_sizeinbase(q.get_den_mpz_t(), 2) <= 8;
}

// x / c when every coefficient of x is a small multiple of c (x was scaled by c), else nullopt.
std::optional<ExprId> SymbolicDomain::divide_if_multiple(ExprId x, const mpq_class& c) {
  auto nice = [&](const mpq_class& k) { return k == 0 || small_rational(k / c); };
  expr::Kind k = store_.kind(x);
  if (k == expr::Kind::Add) {
    if (!nice(store_.coef(x))) return std::nullopt;
    for (uint32_t i = 0; i < store_.arity(x); ++i)
      if (!nice(store_.weight(x, i))) return std::nullopt;
  } else if (k == expr::Kind::Mul) {
    if (!nice(store_.coef(x))) return std::nullopt;
  } else if (!(store_.is_rational(x) && nice(store_.rational(x)))) {
    return std::nullopt;
  }
  return store_.div(x, store_.constant(c));
}

// ex2.approx(k * u) where k is a scale s times 0f3FB8AA3B: exactly (x * s * log2e computed in
// that order) or rounded to f32 (s * log2e folded into one constant, by the compiler or by
// hand). Either way s * u, so that the routine reads as exp(s u) however the scale was folded
// (one reading per routine); s is an f32 value. nullopt where k is neither.
std::optional<ExprId> SymbolicDomain::unfold_scaled_log2e(ExprId x) {
  expr::Kind k = store_.kind(x);
  mpq_class scale;
  if (k == expr::Kind::Mul) scale = abs(store_.coef(x));
  else if (k == expr::Kind::Add && store_.arity(x) > 0) scale = abs(store_.weight(x, 0));
  else return std::nullopt;
  if (scale == 0) return std::nullopt;
  std::optional<ExprId> unit = divide_if_multiple(x, scale);
  if (!unit) return std::nullopt;
  mpq_class exact = scale / log2e_float();
  if (encode_exact(ptx::Type::F32, exact)) return store_.mul(store_.constant(exact), *unit);
  std::optional<uint64_t> folded = encode_exact(ptx::Type::F32, scale);
  std::optional<uint64_t> nearest = encode_rounded(ptx::Type::F32, exact);
  // A small rational scale is a plain exp2 (ex2.approx(2 x)), not a folded log2(e).
  if (small_rational(scale) || !folded || !nearest) return std::nullopt;
  for (int64_t step : {0, -1, 1}) {
    uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(*nearest) + step);
    mpq_class sv = decode_float(ptx::Type::F32, bits).value;
    if (encode_rounded(ptx::Type::F32, sv * log2e_float()) == folded) return store_.mul(store_.constant(sv), *unit);
  }
  return std::nullopt;
}

// Whether x is a real number at every point where the inputs are finite reals (Racer's
// assumption about inputs): built from them and rational constants by operations defined
// everywhere (sums, products with non-negative integer exponents, exp, tanh, erf, sin, cos,
// abs, min, max, selects), so that a NaN test on it is false; and division, log, sqrt where
// the bounds of what they take (expr/sign_bounds.hpp) keep them defined. Anything else, and
// the infinities, may make a NaN.
bool SymbolicDomain::defined_everywhere(ExprId x) {
  auto lower_above = [&](ExprId e, bool strictly) {
    const expr::Bounds b = signs_.of(e);
    return b.lo && (strictly ? *b.lo > 0 : *b.lo >= 0);
  };
  auto away_from_zero = [&](ExprId e) {
    const expr::Bounds b = signs_.of(e);
    return (b.lo && *b.lo > 0) || (b.hi && *b.hi < 0);
  };
  return !expr::any_node(store_, x, [&](ExprId e) {
    switch (store_.kind(e)) {
      case expr::Kind::Const: return !store_.is_rational(e);
      case expr::Kind::Mul:
        for (uint32_t i = 0; i < store_.arity(e); ++i) {
          const mpq_class& w = store_.weight(e, i);
          const ExprId base = store_.operand(e, i);
          if (w.get_den() == 1 ? w < 0 && !away_from_zero(base) : !lower_above(base, w < 0)) return true;
        }
        return false;
      case expr::Kind::Func: {
        expr::FuncKind f = store_.func_kind(e);
        if (f == expr::FuncKind::Log) return !lower_above(store_.operand(e, 0), true);
        if (f == expr::FuncKind::Sqrt) return !lower_above(store_.operand(e, 0), false);
        return false;
      }
      default: return false;
    }
  });
}

// An infinity has one encoding: a value that is exactly +-inf over the reals (a concrete -inf
// carried through exact operations) is those bits, so IEEE decides what it makes (exp2(-inf) is
// +0, whose sign the reals would have lost).
Value SymbolicDomain::infinity_as_bits(Value v, ptx::Type t) const {
  if (!v.is_symbolic() || v.is_deferred() || v.integer || v.holds_lanes()) return v;
  const ExprId e = v.expr();
  if (e != store_.neg_inf() && e != store_.pos_inf()) return v;
  if (auto bits = encode_infinity(t, e == store_.neg_inf())) return Value::of_bits(*bits);
  return v;
}

Value SymbolicDomain::fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) {
  if (fault_for_testing) op = fault_for_testing(op);
  a = infinity_as_bits(a, t), b = infinity_as_bits(b, t);
  if (a.is_concrete() && b.is_concrete() && !fault_for_testing)
    return exact_as_bits(symbolic_fbin(op, t, a, b, m), t, ieee_.fbin(op, t, a, b, m));
  // min(-inf, x) is -inf and max(+inf, x) is +inf for every x, NaN included (without .NaN the
  // other operand of a NaN is the result): the bits of that infinity, whatever x is.
  if ((op == FBin::Min || op == FBin::Max) && !m.nan && !m.xorsign_abs && !fault_for_testing)
    if (std::optional<uint64_t> inf = encode_infinity(t, op == FBin::Min)) {
      const uint64_t mask = ptx::type_bits(t) >= 64 ? ~uint64_t{0} : (uint64_t{1} << ptx::type_bits(t)) - 1;
      for (Value v : {a, b})
        if (v.is_concrete() && (v.bits & mask) == *inf) return v;
    }
  return symbolic_fbin(op, t, a, b, m);
}

// min.xorsign.abs(x, y): min(|x|, |y|), negative where exactly one of x, y is. A zero operand
// makes the magnitude 0, so its sign bit, which the reals do not keep, never shows. Against a
// positive constant c it is the clamp of x to [-c, c] (Triton's tl.clamp with bounds -c, c).
ExprId SymbolicDomain::min_xorsign_abs(ExprId x, ExprId y) {
  for (auto [v, c] : {std::pair{x, y}, std::pair{y, x}})
    if (store_.is_rational(c) && store_.rational(c) > 0) return store_.min(c, store_.max(store_.neg(c), v));
  const ExprId magnitude = store_.min(store_.abs(x), store_.abs(y));
  const ExprId x_neg = store_.cmp(expr::CmpOp::Lt, x, store_.zero()), y_neg = store_.cmp(expr::CmpOp::Lt, y, store_.zero());
  const ExprId one_negative = store_.select(x_neg, store_.select(y_neg, store_.false_value(), store_.true_value()), y_neg);
  return store_.select(one_negative, store_.neg(magnitude), magnitude);
}

ExprId SymbolicDomain::noting_merges(ExprId x, ExprId y, ExprId r) {
  // (A constant's terms are its coefficient: a constant result is left alone, since it would
  // loosen the bound of every use of that constant.)
  auto constant = [&](ExprId e) { return store_.kind(e) == expr::Kind::Const; };
  auto terms = [&](ExprId e) -> uint32_t { return store_.kind(e) == expr::Kind::Add ? store_.arity(e) : 1; };
  if (!constant(x) && !constant(y) && !constant(r) && terms(r) < terms(x) + terms(y)) store_.note_unfolded(r, x, y);
  return r;
}

Value SymbolicDomain::symbolic_fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) {
  ExprId x = real(a, t), y = real(b, t);
  if (op == FBin::Mul) {
    // log as compiled by Triton and __logf: lg2.approx(x) * 0f3F317218. The float nearest
    // ln(2) multiplying log(x)/ln(2) stands for ln(2) itself.
    for (auto [k, other] : {std::pair{x, y}, std::pair{y, x}}) {
      if (!store_.is_rational(k) || store_.rational(k) != ln2_float() || store_.kind(other) != expr::Kind::Mul) continue;
      for (uint32_t i = 0; i < store_.arity(other); ++i)
        if (store_.operand(other, i) == ln2() && store_.weight(other, i) == -1) {
          ++recognized_["log(x) as lg2.approx(x) * 0f3F317218"];
          return finish(store_.mul(other, ln2()), m);
        }
    }
  }
  ExprId r;
  switch (op) {
    case FBin::Add: r = noting_merges(x, y, store_.add(x, y)); break;
    case FBin::Sub: r = noting_merges(x, y, store_.sub(x, y)); break;
    case FBin::Mul: r = store_.mul(x, y); break;
    case FBin::Div: r = store_.div(x, y); break;
    case FBin::Min: r = m.xorsign_abs ? min_xorsign_abs(x, y) : store_.min(x, y); break;
    case FBin::Max:
      // max(|a|, |b|) of a zero and a nonzero takes the zero's sign bit, which the reals lack.
      if (m.xorsign_abs) throw Refusal("max.xorsign.abs is not modelled (the sign of a zero operand decides it)");
      r = store_.max(x, y);
      break;
    case FBin::Copysign: {
      // copysign(a, b) in PTX takes the sign of the first operand: d = |b| with a's sign.
      ExprId mag = store_.abs(y);
      r = store_.select(store_.cmp(expr::CmpOp::Lt, x, store_.zero()), store_.neg(mag), mag);
      break;
    }
  }
  return finish(r, m);
}

Value SymbolicDomain::fun(FUn op, ptx::Type t, Value a, const FloatMods& m) {
  a = infinity_as_bits(a, t);
  if (a.is_concrete()) return exact_as_bits(symbolic_fun(op, t, a, m), t, ieee_.fun(op, t, a, m));
  return symbolic_fun(op, t, a, m);
}

Value SymbolicDomain::symbolic_fun(FUn op, ptx::Type t, Value a, const FloatMods& m) {
  ExprId x = real(a, t);
  ExprId r;
  switch (op) {
    case FUn::Neg: r = store_.neg(x); break;
    case FUn::Abs: r = store_.abs(x); break;
    case FUn::Sqrt: r = store_.sqrt(x); break;
    case FUn::Rsqrt: r = store_.recip(store_.sqrt(x)); break;
    case FUn::Rcp: r = store_.recip(x); break;
    case FUn::Ex2:
      if (store_.is_inf(x)) {
        r = x == store_.pos_inf() ? x : store_.zero();  // 2^-inf = 0 (a masked lane's -inf in a softmax)
      } else if (auto q = divide_if_multiple(x, log2e_float())) {
        // exp as compiled by Triton and __expf: ex2.approx(x * 0f3FB8AA3B). Inside this form
        // the float nearest log2(e) stands for log2(e) itself (DESIGN.md, routine recognition).
        r = store_.exp(*q);
        ++recognized_["exp(x) as ex2.approx(x * 0f3FB8AA3B)"];
      } else if (auto su = unfold_scaled_log2e(x)) {
        r = store_.exp(*su);
        ++recognized_["exp(s x) as ex2.approx(x * K), K the f32 product of s and 0f3FB8AA3B"];
      } else {
        r = store_.exp(store_.mul(x, ln2()));
      }
      break;
    case FUn::Lg2: {
      ExprId l = store_.log(x);
      r = store_.is_inf(l) ? l : store_.div(l, ln2());  // log2(0) = -inf, log2(inf) = inf
      break;
    }
    case FUn::Sin: r = store_.sin(x); break;
    case FUn::Cos: r = store_.cos(x); break;
    case FUn::Tanh: r = store_.tanh(x); break;
  }
  return finish(r, m);
}

Value SymbolicDomain::fma(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) {
  a = infinity_as_bits(a, t), b = infinity_as_bits(b, t), c = infinity_as_bits(c, t);
  const ExprId product = store_.mul(real(a, t), real(b, t)), addend = real(c, t);
  Value exact = finish(noting_merges(product, addend, store_.add(product, addend)), m);
  if (a.is_concrete() && b.is_concrete() && c.is_concrete()) return exact_as_bits(exact, t, ieee_.fma(t, a, b, c, m));
  return exact;
}

Value SymbolicDomain::fma_deferred(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) {
  if (m.sat || (a.is_concrete() && b.is_concrete() && c.is_concrete())) return fma(t, a, b, c, m);
  ExprId x = real(a, t), y = real(b, t);
  if (!store_.is_finite(x) || !store_.is_finite(y)) return fma(t, a, b, c, m);
  if (c.is_deferred()) return sums_.extend(c, x, y);
  ExprId z = real(c, t);
  if (!store_.is_finite(z)) return fma(t, a, b, c, m);
  return sums_.start(z, x, y);
}

// x's comparison with 0 where x's bounds (expr/sign_bounds.hpp) settle it everywhere x is
// defined, and x is defined everywhere: the sign of a maximum of absolute values (an amax),
// which picks the float atomic that Triton and CUDA's atomicMax of a float's bits take.
std::optional<bool> SymbolicDomain::compare_with_zero(uint8_t cmp, ExprId x) {
  if (store_.is_rational(x)) return std::nullopt;
  const expr::Bounds b = signs_.of(x);
  const bool nonneg = b.lo && *b.lo >= 0, pos = b.lo && *b.lo > 0, nonpos = b.hi && *b.hi <= 0, neg = b.hi && *b.hi < 0;
  // (true when `yes` holds everywhere, false when `no` does)
  auto settle = [&](bool yes, bool no) -> std::optional<bool> {
    if (!yes && !no) return std::nullopt;
    if (!defined_everywhere(x)) return std::nullopt;  // where x is NaN the comparison is neither
    return yes;
  };
  switch (cmp) {
    case ptx::cmp::LT: case ptx::cmp::LTU: return settle(neg, nonneg);
    case ptx::cmp::LE: case ptx::cmp::LEU: return settle(nonpos, pos);
    case ptx::cmp::GT: case ptx::cmp::GTU: return settle(pos, nonpos);
    case ptx::cmp::GE: case ptx::cmp::GEU: return settle(nonneg, neg);
    default: return std::nullopt;
  }
}

Value SymbolicDomain::fcmp(uint8_t cmp, ptx::Type t, Value a, Value b, bool) {
  using expr::CmpOp;
  ExprId x = real(a, t), y = real(b, t);
  if (store_.is_rational(y) && store_.rational(y) == 0)
    if (auto known = compare_with_zero(cmp, x)) return Value::of_bits(*known ? 1 : 0);
  // Real operands are never NaN, so the unordered forms agree with the ordered ones; an
  // Undefined operand (a NaN) makes the comparison Undefined, which the decider sees.
  ExprId r;
  switch (cmp) {
    case ptx::cmp::EQ: case ptx::cmp::EQU: r = store_.cmp(CmpOp::Eq, x, y); break;
    case ptx::cmp::NE: case ptx::cmp::NEU: r = store_.cmp(CmpOp::Ne, x, y); break;
    case ptx::cmp::LT: case ptx::cmp::LTU: r = store_.cmp(CmpOp::Lt, x, y); break;
    case ptx::cmp::LE: case ptx::cmp::LEU: r = store_.cmp(CmpOp::Le, x, y); break;
    case ptx::cmp::GT: case ptx::cmp::GTU: r = store_.cmp(CmpOp::Gt, x, y); break;
    case ptx::cmp::GE: case ptx::cmp::GEU: r = store_.cmp(CmpOp::Ge, x, y); break;
    case ptx::cmp::NUM:
      if (store_.is_undefined(x) || store_.is_undefined(y)) return Value::of_bits(0);
      if (defined_everywhere(x) && defined_everywhere(y)) return Value::of_bits(1);
      throw Refusal("setp.num on symbolic data that may be NaN (a division, log or sqrt of the inputs) needs NaN semantics");
    case ptx::cmp::NAN_:
      if (store_.is_undefined(x) || store_.is_undefined(y)) return Value::of_bits(1);
      if (defined_everywhere(x) && defined_everywhere(y)) return Value::of_bits(0);
      throw Refusal("setp.nan on symbolic data that may be NaN (a division, log or sqrt of the inputs) needs NaN semantics");
    default: throw Refusal("integer comparison mode on a float comparison");
  }
  if (store_.kind(r) == expr::Kind::Bool) return Value::of_bits(store_.bool_value(r) ? 1 : 0);
  if (store_.is_undefined(r)) {
    // A NaN operand: ordered comparisons are false, unordered ones true.
    bool unordered = cmp >= ptx::cmp::EQU && cmp <= ptx::cmp::GEU;
    return Value::of_bits(unordered ? 1 : 0);
  }
  if (std::optional<bool> known = ground_truth(r)) return Value::of_bits(*known ? 1 : 0);
  return Value::of_expr(r);
}

std::optional<bool> SymbolicDomain::ground_truth(ExprId cond) {
  if (store_.kind(cond) == expr::Kind::Bool) return store_.bool_value(cond);
  if (!ground_truth_ || store_.kind(cond) != expr::Kind::Cmp || !is_ground(cond)) return std::nullopt;
  return ground_truth_(cond);
}

bool SymbolicDomain::is_ground(ExprId root) const {
  return !expr::any_node(store_, root, [&](ExprId e) { return store_.kind(e) == expr::Kind::Symbol; });
}

Value SymbolicDomain::pred(PredOp op, Value a, Value b) {
  if (a.is_concrete() && (op == PredOp::Not || b.is_concrete())) {
    uint64_t x = a.bits & 1, y = b.bits & 1;
    switch (op) {
      case PredOp::And: return Value::of_bits(x & y);
      case PredOp::Or: return Value::of_bits(x | y);
      case PredOp::Xor: return Value::of_bits(x ^ y);
      case PredOp::Not: return Value::of_bits(x ^ 1);
    }
  }
  ExprId p = condition(a);
  ExprId t = store_.true_value(), f = store_.false_value();
  ExprId r;
  switch (op) {
    case PredOp::And: r = store_.select(p, condition(b), f); break;
    case PredOp::Or: r = store_.select(p, t, condition(b)); break;
    case PredOp::Xor: {
      ExprId q = condition(b);
      r = store_.select(p, store_.select(q, f, t), q);
      break;
    }
    case PredOp::Not: r = store_.select(p, f, t); break;
  }
  if (store_.kind(r) == expr::Kind::Bool) return Value::of_bits(store_.bool_value(r) ? 1 : 0);
  return Value::of_expr(r);
}

Value SymbolicDomain::select(Value p, Value if_true, Value if_false) {
  if (p.is_concrete()) return (p.bits & 1) ? if_true : if_false;
  if (if_true == if_false) return if_true;
  if (if_true.is_concrete() || if_false.is_concrete())
    throw Refusal("selects between bit patterns on a symbolic predicate (the select's type decides their meaning)");
  if (if_true.integer != if_false.integer) throw Refusal("selects between integer and float data");
  Value r = Value::of_expr(store_.select(condition(p), if_true.expr(), if_false.expr()));
  r.integer = if_true.integer;
  return r;
}

// e rounded to an integer as round_integral does, over the reals: floor(x) is x - w(2x)/2 with
// w the unsigned 1-bit wrap (2x mod 2, in [0, 2)), so every layer that reads wraps (exact
// evaluation, balls, Z3, the normal form) reads these; .rni's ties go to the even neighbour.
ExprId SymbolicDomain::integral_part(ExprId e, uint8_t rnd) {
  auto floor = [&](ExprId x) {
    return store_.sub(x, store_.mul(store_.constant(mpq_class(1, 2)), store_.wrap(store_.mul(store_.constant(2), x), 1, false)));
  };
  auto ceil = [&](ExprId x) { return store_.neg(floor(store_.neg(x))); };
  if (rnd == ptx::rnd::RMI) return floor(e);
  if (rnd == ptx::rnd::RPI) return ceil(e);
  if (rnd == ptx::rnd::RNI) {
    ExprId shifted = store_.add(e, store_.constant(mpq_class(1, 2)));
    ExprId f = floor(shifted);
    ExprId tie = store_.cmp(expr::CmpOp::Eq, shifted, f);
    ExprId odd = store_.cmp(expr::CmpOp::Ne, store_.wrap(f, 1, false), store_.zero());
    return store_.select(tie, store_.select(odd, store_.sub(f, store_.one()), f), f);
  }
  return store_.select(store_.cmp(expr::CmpOp::Lt, e, store_.zero()), ceil(e), floor(e));
}

// q rounded to an integer: .rmi down, .rpi up, .rni to nearest even, otherwise (.rzi, or a
// float-to-integer conversion without a mode) toward zero.
mpz_class SymbolicDomain::round_integral(const mpq_class& q, uint8_t rnd) {
  mpz_class fl;
  mpz_fdiv_q(fl.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  mpz_class ce = fl + (mpq_class(fl) == q ? 0 : 1);
  if (rnd == ptx::rnd::RMI) return fl;
  if (rnd == ptx::rnd::RPI) return ce;
  if (rnd == ptx::rnd::RNI) {
    mpq_class frac = q - mpq_class(fl);
    if (frac > mpq_class(1, 2)) return ce;
    if (frac < mpq_class(1, 2)) return fl;
    return fl % 2 == 0 ? fl : ce;
  }
  return q >= 0 ? fl : ce;
}

Value SymbolicDomain::cvt(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m) {
  bool df = ptx::is_float(dst), sf = ptx::is_float(src);
  if (df && sf) {
    uint8_t rnd = m.rounding;
    bool to_integer = ptx::rnd::to_integer(rnd);
    // Rounding between formats is the identity on reals; rounding to an integral value is not.
    // Into fp8 with .satfinite (which PTX requires there), values beyond the largest finite
    // one become it: a clamp, which matters at 448 (e4m3) where an f32 computation often is.
    if (!to_integer && m.satfinite && (dst == ptx::Type::E4M3 || dst == ptx::Type::E5M2)) {
      const ExprId top = exact_constant(store_, dst, ieee::max_finite(dst == ptx::Type::E4M3 ? ieee::Format::E4M3 : ieee::Format::E5M2, false));
      return finish(store_.min(store_.max(real(a, src), store_.neg(top)), top), m);
    }
    if (!to_integer) return finish(real(a, src), m);
    ExprId e = real(a, src);
    if (store_.is_rational(e)) return finish(store_.constant(round_integral(store_.rational(e), rnd)), m);
    return finish(integral_part(e, rnd), m);
  }
  if (df) {
    if (a.is_symbolic()) return finish(integer(a, src), m);  // exact on reals
    if (!a.is_concrete()) throw Refusal("converts symbolic integer data to float");
    return finish(exact_constant(store_, src, a.bits), m);
  }
  if (sf) {
    // Float -> integer: rounded to an integral value, then saturated to the type's range (PTX
    // saturates float-to-integer conversions). Symbolic: the same as an exact expression,
    // integer data from then on.
    ExprId e = real(a, src);
    unsigned bits = ptx::type_bits(dst);
    bool sgn = ptx::type_class(dst) == ptx::TypeClass::Signed;
    mpz_class lo = sgn ? -(mpz_class(1) << (bits - 1)) : mpz_class(0);
    mpz_class hi = sgn ? (mpz_class(1) << (bits - 1)) - 1 : (mpz_class(1) << bits) - 1;
    if (!store_.is_rational(e)) {
      ExprId r = integral_part(e, m.rounding);
      r = store_.max(store_.min(r, store_.constant(mpq_class(hi))), store_.constant(mpq_class(lo)));
      converted_integers_.insert(r.index);
      integer_inputs_.erase(r.index);  // (an earlier reading of the same node as not integral)
      return Value::of_int_expr(r);
    }
    mpz_class r = round_integral(store_.rational(e), m.rounding);
    if (r < lo) r = lo;
    if (r > hi) r = hi;
    mpz_class wrapped = r;
    if (r < 0) wrapped += mpz_class(1) << 64;
    uint64_t out = std::stoull(wrapped.get_str());
    return Value::of_bits(bits == 64 ? out : out & ((uint64_t{1} << bits) - 1));
  }
  if (a.is_symbolic()) return checked_int(integer(a, src), dst);  // the source's value, extended, then wrapped to dst
  return a;  // concrete integer <-> integer is handled by the semantics on bits
}

ExprId SymbolicDomain::integer(Value v, ptx::Type t) {
  if (v.is_poison()) throw Refusal("reads the old value returned by an atomic, whose value depends on the order of atomics");
  if (v.is_concrete()) return exact_constant(store_, t, v.bits);
  ExprId e = v.expr();
  if (store_.is_condition(e)) throw Refusal("uses a symbolic predicate as an integer");
  if (!v.integer) throw Refusal("uses float data as ." + std::string(ptx::type_name(t)) + " (a bit-level reinterpretation)");
  return wrapped(e, t);
}

Value SymbolicDomain::checked_int(ExprId e, ptx::Type t) { return Value::of_int_expr(wrapped(e, t)); }

Value SymbolicDomain::int_op(IntOp op, ptx::Type t, Value a, Value b) {
  ExprId x = integer(a, t), y = integer(b, t);
  ExprId r;
  switch (op) {
    case IntOp::Add: r = store_.add(x, y); break;
    case IntOp::Sub: r = store_.sub(x, y); break;
    case IntOp::Mul: r = store_.mul(x, y); break;
    case IntOp::Min: r = store_.min(x, y); break;
    case IntOp::Max: r = store_.max(x, y); break;
  }
  return checked_int(r, t);
}

Value SymbolicDomain::int_cmp(uint8_t cmp, ptx::Type t, Value a, Value b) {
  using expr::CmpOp;
  unsigned w = ptx::type_bits(t);
  ptx::Type as_unsigned = w == 64 ? ptx::Type::U64 : w == 16 ? ptx::Type::U16 : ptx::Type::U32;
  ptx::Type as_signed = w == 64 ? ptx::Type::S64 : w == 16 ? ptx::Type::S16 : ptx::Type::S32;
  ptx::Type rt = t;
  // lo/ls/hi/hs compare as unsigned whatever the type says.
  if (cmp >= ptx::cmp::LO && cmp <= ptx::cmp::HS) rt = as_unsigned;
  if (cmp == ptx::cmp::EQ || cmp == ptx::cmp::NE || ptx::type_class(t) == ptx::TypeClass::Bits) {
    // Equality of bit patterns holds under either reading; take the one the symbolic
    // operands fit (a negative range reads signed, anything else unsigned).
    bool negative = false;
    for (const Value* v : {&a, &b})
      if (v->is_symbolic() && v->integer)
        if (auto bd = bounds_.of(v->expr()); bd && bd->lo < 0) negative = true;
    if (cmp == ptx::cmp::EQ || cmp == ptx::cmp::NE) rt = negative ? as_signed : as_unsigned;
  }
  ExprId x = integer(a, rt), y = integer(b, rt);
  ExprId r;
  switch (cmp) {
    case ptx::cmp::EQ: r = store_.cmp(CmpOp::Eq, x, y); break;
    case ptx::cmp::NE: r = store_.cmp(CmpOp::Ne, x, y); break;
    case ptx::cmp::LT: case ptx::cmp::LO: r = store_.cmp(CmpOp::Lt, x, y); break;
    case ptx::cmp::LE: case ptx::cmp::LS: r = store_.cmp(CmpOp::Le, x, y); break;
    case ptx::cmp::GT: case ptx::cmp::HI: r = store_.cmp(CmpOp::Gt, x, y); break;
    case ptx::cmp::GE: case ptx::cmp::HS: r = store_.cmp(CmpOp::Ge, x, y); break;
    default: throw Refusal("float comparison mode on integers");
  }
  if (store_.kind(r) == expr::Kind::Bool) return Value::of_bits(store_.bool_value(r) ? 1 : 0);
  return Value::of_expr(r);
}

Value SymbolicDomain::as_integer(Value v, ptx::Type t) { return Value::of_int_expr(integer(v, t)); }

Value SymbolicDomain::int_popc(ptx::Type t, Value a) {
  ExprId e = integer(a, t);
  try {
    return popc_of_disjoint_masks(e);
  } catch (const Refusal&) {
    // Flags packed into a word whose terms share bits, or wrapped: counted per outcome.
    if (std::optional<ExprId> n = bit_count_by_cases(store_, e, ptx::type_bits(t))) return checked_int(*n, ptx::Type::U32);
    throw;
  }
}

Value SymbolicDomain::popc_of_disjoint_masks(ExprId e) {
  // A population count is exact on a sum of terms whose possible values occupy disjoint
  // bits (a ballot is the sum of select(p_lane, 2^lane, 0)): count each term's bits.
  std::vector<std::pair<ExprId, mpq_class>> terms;
  if (store_.kind(e) == expr::Kind::Add) {
    if (store_.coef(e) != 0) throw Refusal("popc of symbolic integer data with a constant part");
    for (uint32_t k = 0; k < store_.arity(e); ++k) terms.emplace_back(store_.operand(e, k), store_.weight(e, k));
  } else {
    terms.emplace_back(e, 1);
  }
  mpz_class used = 0;
  ExprId sum = store_.zero();
  for (auto& [x, w] : terms) {
    if (store_.kind(x) != expr::Kind::Select || !store_.is_rational(store_.operand(x, 1)) || !store_.is_rational(store_.operand(x, 2)))
      throw Refusal("popc of symbolic integer data that is not a sum of selected bit masks");
    mpq_class hi = store_.rational(store_.operand(x, 1)) * w, lo = store_.rational(store_.operand(x, 2)) * w;
    if (hi.get_den() != 1 || lo.get_den() != 1 || hi < 0 || lo < 0) throw Refusal("popc of symbolic data with fractional or negative parts");
    mpz_class bits = hi.get_num() | lo.get_num();
    if ((bits & used) != 0) throw Refusal("popc of symbolic terms whose bits overlap");
    used |= bits;
    long ph = static_cast<long>(mpz_popcount(hi.get_num_mpz_t())), pl = static_cast<long>(mpz_popcount(lo.get_num_mpz_t()));
    sum = store_.add(sum, store_.select(store_.operand(x, 0), store_.constant(ph), store_.constant(pl)));
  }
  return checked_int(sum, ptx::Type::U32);
}

bool SymbolicDomain::truth(Value p) {
  if (p.is_concrete()) return p.bits & 1;
  if (p.is_poison()) throw Refusal("branches on the old value returned by an atomic");
  throw Refusal("branches or guards on a predicate that depends on symbolic data: " +
                std::string("the path taken would be a guess"));
}

std::optional<uint64_t> SymbolicDomain::bits(Value v, ptx::Type t) {
  if (v.is_concrete()) return v.bits;
  if (v.is_poison() || !ptx::is_float(t)) return std::nullopt;
  ExprId e = v.expr();
  if (store_.is_rational(e)) return encode_exact(t, store_.rational(e));
  return std::nullopt;
}

}  // namespace racer::exec
