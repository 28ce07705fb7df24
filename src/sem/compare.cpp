// Comparisons and selects. Integer comparisons are computed on bits; float comparisons go
// through the domain and may yield a symbolic predicate, which selp turns into a select.
#include <array>
#include <optional>
#include <utility>

#include "exec/float_bits_atomics.hpp"
#include "exec/packed.hpp"
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

bool int_compare(uint8_t cmp, const IntT& it, uint64_t a, uint64_t b) {
  using namespace ptx::cmp;
  int64_t sa = it.sx(a), sb = it.sx(b);
  uint64_t ua = a & it.mask(), ub = b & it.mask();
  switch (cmp) {
    case EQ: return ua == ub;
    case NE: return ua != ub;
    case LT: return it.sgn ? sa < sb : ua < ub;
    case LE: return it.sgn ? sa <= sb : ua <= ub;
    case GT: return it.sgn ? sa > sb : ua > ub;
    case GE: return it.sgn ? sa >= sb : ua >= ub;
    case LO: return ua < ub;
    case LS: return ua <= ub;
    case HI: return ua > ub;
    case HS: return ua >= ub;
    default: throw exec::Refusal("float comparison mode on integers");
  }
}

// A float's bits compared with a constant as an integer, where that says something of the
// float's value over the reals (a zero's sign taken as +, as sign_bit() does; a constant
// zero's refused):
// - as a signed integer with 0 or -1: the sign bit (Triton's and CUDA's float atomic maximum
//   pick atom.max.s32 or atom.min.u32 by it): x < 0 or x >= 0;
// - equal to the bits of a float k that is not a zero or a NaN: x == k (one pattern, one value);
// - ordered against the bits of a float k >= 0 (+inf included) where x >= 0 is known: the bits
//   order as the floats there, signed or unsigned (powf's |x| < inf test: x < k).
// Anything else compares the bits themselves: none.
std::optional<Value> float_bits_compare(ExecContext& c, uint8_t cmp, Type t, Value a, Value b) {
  using namespace ptx::cmp;
  const unsigned width = ptx::type_bits(t);
  if (width < 32) return std::nullopt;
  if (b.is_symbolic() && a.is_concrete()) {  // k op x: x mirrored op k
    std::swap(a, b);
    for (auto [p, q] : {std::pair{LT, GT}, std::pair{LE, GE}, std::pair{LO, HI}, std::pair{LS, HS}})
      if (cmp == p || cmp == q) {
        cmp = cmp == p ? q : p;
        break;
      }
  }
  if (!a.is_symbolic() || a.integer || a.holds_lanes() || !b.is_concrete()) return std::nullopt;
  const Type ft = exec::float_of_width(t);
  const ieee::Format fmt = exec::format_of_width(t);
  const uint64_t k = b.bits & IntT(t).mask(), inf = ieee::infinity(fmt, false);
  const Value zero = Value::of_bits(0);
  auto truth = [&](uint8_t op, Value against) { return c.dom.fcmp(op, ft, a, against, false); };
  auto refuse_computed_zero = [&] {
    if (Value z = truth(EQ, zero); z.is_concrete() && (z.bits & 1))
      throw exec::Refusal("the sign bit of a zero computed from symbolic data (+0 or -0)");
  };
  if (cmp == EQ || cmp == NE) {
    if (ieee::is_zero(fmt, k) || ieee::is_nan(fmt, k)) return std::nullopt;  // two patterns, or none
    return truth(cmp, Value::of_bits(k));
  }
  const bool as_signed = ptx::type_class(t) == ptx::TypeClass::Signed && cmp >= LT && cmp <= GE;
  if (as_signed && (k == 0 || k == IntT(t).mask())) {
    const bool below = k == 0 ? cmp == LT : cmp == LE, at_or_above = k == 0 ? cmp == GE : cmp == GT;
    if (!below && !at_or_above) return std::nullopt;
    refuse_computed_zero();
    return truth(below ? LT : GE, zero);
  }
  if (k > inf || cmp < LT || cmp > HS) return std::nullopt;
  if (Value nonneg = truth(GE, zero); !nonneg.is_concrete() || !(nonneg.bits & 1)) return std::nullopt;
  refuse_computed_zero();
  const uint8_t order = cmp == LT || cmp == LO ? LT : cmp == LE || cmp == LS ? LE : cmp == GT || cmp == HI ? GT : GE;
  return truth(order, Value::of_bits(k));
}

Value compare(ExecContext& c, const Instr& i, Type t) {
  Value a = c.get(i.operands[1], t), b = c.get(i.operands[2], t);
  uint8_t cmp = i.mod(Mod::Cmp);
  if (ptx::is_float(t)) {
    if (is_packed_half(t)) refuse_packed(i);
    return c.dom.fcmp(cmp, t, a, b, i.has(Mod::Ftz));
  }
  a = bits_view(c, a, t);
  b = bits_view(c, b, t);
  if (auto r = float_bits_compare(c, cmp, t, a, b)) return *r;
  if (!a.is_concrete() || !b.is_concrete()) return c.dom.int_cmp(cmp, t, a, b);
  return Value::of_bits(int_compare(cmp, IntT(t), a.bits, b.bits) ? 1 : 0);
}

// The boolean operation of a setp with one (.and, .or, .xor).
exec::PredOp bool_op(const Instr& i) {
  const auto k = i.mod(Mod::BoolOp);
  return k == 0 ? exec::PredOp::And : k == 1 ? exec::PredOp::Or : exec::PredOp::Xor;
}

// setp on packed halves: each lane compared in its own format, the low lanes' result in p and
// the high lanes' in q (not p's negation, as for the scalar types), each combined with c.
void setp_packed(ExecContext& c, const Instr& i) {
  const Type t = i.type(), half = t == Type::F16x2 ? Type::F16 : Type::BF16;
  const ptx::Operand& d = i.operands[0];
  if (d.kind != ptx::Operand::Kind::Pair) throw exec::Refusal("setp on packed halves without the p|q pair of results");
  const std::array<Value, 2> a = exec::unpack_halves(c.get(i.operands[1], t)), b = exec::unpack_halves(c.get(i.operands[2], t));
  for (int k = 0; k < 2; ++k) {
    Value r = c.dom.fcmp(i.mod(Mod::Cmp), half, a[k], b[k], i.has(Mod::Ftz));
    if (i.has(Mod::BoolOp)) r = c.dom.pred(bool_op(i), r, c.get(i.operands[3], Type::Pred));
    c.set(d.elems[k], r);
  }
}

void setp(ExecContext& c, const Instr& i) {
  if (is_packed_half(i.type())) return setp_packed(c, i);
  Value r = compare(c, i, i.type());
  Value r_not = c.dom.pred(exec::PredOp::Not, r, {});
  if (i.has(Mod::BoolOp)) {
    Value p = c.get(i.operands[3], Type::Pred);
    Value combined = c.dom.pred(bool_op(i), r, p);
    r_not = c.dom.pred(bool_op(i), r_not, p);
    r = combined;
  }
  const ptx::Operand& d = i.operands[0];
  if (d.kind == ptx::Operand::Kind::Pair) {
    c.set(d.elems[0], r);
    c.set(d.elems[1], r_not);
  } else {
    c.set(d, r);
  }
}

// On a symbolic predicate both branches must become numbers of one kind. A bit type takes
// its meaning from the symbolic branch (float data or integer data); two constants of a
// bit or integer type are integers.
void as_numbers(ExecContext& c, Type t, Value& a, Value& b) {
  bool as_float = ptx::is_float(t);
  if (!as_float && ptx::type_class(t) == ptx::TypeClass::Bits) {
    const Value& sym = a.is_symbolic() ? a : b;
    as_float = sym.is_symbolic() && !sym.integer;
  }
  if (as_float) {
    Type ft = ptx::is_float(t) ? t : ptx::type_bits(t) == 16 ? Type::F16 : ptx::type_bits(t) == 64 ? Type::F64 : Type::F32;
    a = c.dom.as_number(a, ft);
    b = c.dom.as_number(b, ft);
  } else {
    // A bit-typed constant with its top bit set reads as negative (selp.b32 r, -24, -25):
    // either reading has these bits, and every consumer checks that the value fits its type.
    auto reading = [&](const Value& v) {
      if (ptx::type_class(t) != ptx::TypeClass::Bits || !v.is_concrete()) return t;
      IntT it(t);
      if (it.bits < 16 || !(v.bits >> (it.bits - 1) & 1)) return t;
      return it.bits == 64 ? Type::S64 : it.bits == 16 ? Type::S16 : Type::S32;
    };
    a = c.dom.as_integer(a, reading(a));
    b = c.dom.as_integer(b, reading(b));
  }
}

void selp(ExecContext& c, const Instr& i) {
  Type t = i.type();
  Value a = c.get(i.operands[1], t), b = c.get(i.operands[2], t);
  Value p = c.get(i.operands[3], Type::Pred);
  if (!p.is_concrete() && !(a == b)) as_numbers(c, t, a, b);
  c.set(i.operands[0], c.dom.select(p, a, b));
}

void slct(ExecContext& c, const Instr& i) {
  Type t = i.type(0), ct = i.type(1);
  Value a = c.get(i.operands[1], t), b = c.get(i.operands[2], t);
  Value k = c.get(i.operands[3], ct);
  Value p;
  if (ptx::is_float(ct)) p = c.dom.fcmp(ptx::cmp::GE, ct, k, Value::of_bits(0), i.has(Mod::Ftz));
  else if (k.is_concrete()) p = Value::of_bits(IntT(ct).sx(k.bits) >= 0 ? 1 : 0);
  else throw exec::Refusal("slct on an integer that depends on symbolic inputs");
  if (!p.is_concrete() && !(a == b)) as_numbers(c, t, a, b);
  c.set(i.operands[0], c.dom.select(p, a, b));
}

void set(ExecContext& c, const Instr& i) {
  Value r = compare(c, i, i.type(1));
  if (i.has(Mod::BoolOp)) r = c.dom.pred(bool_op(i), r, c.get(i.operands[3], Type::Pred));
  if (!r.is_concrete()) throw exec::Refusal("set with a result that depends on symbolic inputs");
  Type dt = i.type(0);
  uint64_t one = ptx::is_float(dt) ? (dt == Type::F32 ? 0x3F800000u : 0x3FF0000000000000ull) : IntT(dt).mask();
  c.set(i.operands[0], Value::of_bits(r.bits & 1 ? one : 0));
}

}  // namespace

void register_compare(exec::Semantics& s) {
  auto& st = s.step;
  st[size_t(ptx::Op::Setp)] = setp;
  st[size_t(ptx::Op::Selp)] = selp;
  st[size_t(ptx::Op::Slct)] = slct;
  st[size_t(ptx::Op::Set)] = set;
}

}  // namespace racer::sem
