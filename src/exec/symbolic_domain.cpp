#include "exec/symbolic_domain.hpp"

#include "exec/exact_float.hpp"
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
  if (v.is_poison()) throw Refusal("reads the old value returned by an atomic, whose value depends on the order of atomics");
  if (v.is_symbolic()) {
    ExprId e = v.expr();
    if (store_.is_condition(e)) throw Refusal("uses a symbolic predicate as a number");
    return e;
  }
  if (!ptx::is_float(t)) {
    // An integer operand of a float instruction (cvt handles conversions): read as signed.
    unsigned bits = ptx::type_bits(t);
    int64_t x = static_cast<int64_t>(v.bits << (64 - bits)) >> (64 - bits);
    return store_.constant(mpq_class(mpz_class(std::to_string(x))));
  }
  ExactFloat f = decode_float(t, v.bits);
  switch (f.kind) {
    case ExactFloat::Kind::Finite: return store_.constant(f.value);
    case ExactFloat::Kind::PosInf: return store_.pos_inf();
    case ExactFloat::Kind::NegInf: return store_.neg_inf();
    case ExactFloat::Kind::NaN: return store_.undefined();
  }
  return store_.undefined();
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

Value SymbolicDomain::fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) {
  ExprId x = real(a, t), y = real(b, t);
  ExprId r;
  switch (op) {
    case FBin::Add: r = store_.add(x, y); break;
    case FBin::Sub: r = store_.sub(x, y); break;
    case FBin::Mul: r = store_.mul(x, y); break;
    case FBin::Div: r = store_.div(x, y); break;
    case FBin::Min: r = store_.min(x, y); break;
    case FBin::Max: r = store_.max(x, y); break;
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
  ExprId x = real(a, t);
  ExprId r;
  switch (op) {
    case FUn::Neg: r = store_.neg(x); break;
    case FUn::Abs: r = store_.abs(x); break;
    case FUn::Sqrt: r = store_.sqrt(x); break;
    case FUn::Rsqrt: r = store_.recip(store_.sqrt(x)); break;
    case FUn::Rcp: r = store_.recip(x); break;
    case FUn::Ex2: r = store_.exp(store_.mul(x, ln2())); break;
    case FUn::Lg2: r = store_.div(store_.log(x), ln2()); break;
    case FUn::Sin: r = store_.sin(x); break;
    case FUn::Cos: r = store_.cos(x); break;
    case FUn::Tanh: r = store_.tanh(x); break;
  }
  return finish(r, m);
}

Value SymbolicDomain::fma(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) {
  return finish(store_.add(store_.mul(real(a, t), real(b, t)), real(c, t)), m);
}

Value SymbolicDomain::fcmp(uint8_t cmp, ptx::Type t, Value a, Value b, bool) {
  using expr::CmpOp;
  ExprId x = real(a, t), y = real(b, t);
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
      if (store_.kind(x) == expr::Kind::Const && store_.kind(y) == expr::Kind::Const) return Value::of_bits(1);
      throw Refusal("setp.num on symbolic data needs NaN semantics");
    case ptx::cmp::NAN_:
      if (store_.is_undefined(x) || store_.is_undefined(y)) return Value::of_bits(1);
      if (store_.kind(x) == expr::Kind::Const && store_.kind(y) == expr::Kind::Const) return Value::of_bits(0);
      throw Refusal("setp.nan on symbolic data needs NaN semantics");
    default: throw Refusal("integer comparison mode on a float comparison");
  }
  if (store_.kind(r) == expr::Kind::Bool) return Value::of_bits(store_.bool_value(r) ? 1 : 0);
  if (store_.is_undefined(r)) {
    // A NaN operand: ordered comparisons are false, unordered ones true.
    bool unordered = cmp >= ptx::cmp::EQU && cmp <= ptx::cmp::GEU;
    return Value::of_bits(unordered ? 1 : 0);
  }
  return Value::of_expr(r);
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
  return Value::of_expr(store_.select(condition(p), if_true.expr(), if_false.expr()));
}

Value SymbolicDomain::cvt(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m) {
  bool df = ptx::is_float(dst), sf = ptx::is_float(src);
  if (df && sf) return finish(real(a, src), m);  // rounding between formats is the identity on reals
  if (df) {
    if (!a.is_concrete()) throw Refusal("converts symbolic integer data to float");
    unsigned bits = ptx::type_bits(src);
    uint64_t raw = bits == 64 ? a.bits : a.bits & ((uint64_t{1} << bits) - 1);
    mpz_class z;
    if (ptx::type_class(src) == ptx::TypeClass::Signed) {
      int64_t x = static_cast<int64_t>(raw << (64 - bits)) >> (64 - bits);
      z = mpz_class(std::to_string(x));
    } else {
      z = mpz_class(std::to_string(raw));
    }
    return finish(store_.constant(mpq_class(z)), m);
  }
  if (sf) {
    // Float -> integer needs the concrete value; on a constant it is exact rounding.
    ExprId e = real(a, src);
    if (!store_.is_rational(e)) throw Refusal("converts symbolic float data to an integer");
    const mpq_class& q = store_.rational(e);
    mpz_class fl = q.get_num();
    mpz_fdiv_q(fl.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
    mpz_class ce = fl + (mpq_class(fl) == q ? 0 : 1);
    mpz_class tr = q >= 0 ? fl : ce;
    mpz_class r = tr;
    uint8_t rnd = m.rounding;
    if (rnd == ptx::rnd::RMI) r = fl;
    else if (rnd == ptx::rnd::RPI) r = ce;
    else if (rnd == ptx::rnd::RNI) {
      mpq_class frac = q - mpq_class(fl);
      if (frac > mpq_class(1, 2)) r = ce;
      else if (frac < mpq_class(1, 2)) r = fl;
      else r = (fl % 2 == 0) ? fl : ce;
    }
    unsigned bits = ptx::type_bits(dst);
    bool sgn = ptx::type_class(dst) == ptx::TypeClass::Signed;
    mpz_class lo = sgn ? -(mpz_class(1) << (bits - 1)) : mpz_class(0);
    mpz_class hi = sgn ? (mpz_class(1) << (bits - 1)) - 1 : (mpz_class(1) << bits) - 1;
    if (r < lo) r = lo;  // PTX saturates float-to-integer conversions
    if (r > hi) r = hi;
    mpz_class wrapped = r;
    if (r < 0) wrapped += mpz_class(1) << 64;
    uint64_t out = std::stoull(wrapped.get_str());
    return Value::of_bits(bits == 64 ? out : out & ((uint64_t{1} << bits) - 1));
  }
  return a;  // integer <-> integer is handled by the semantics on bits
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
