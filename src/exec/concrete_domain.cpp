#include "exec/concrete_domain.hpp"

#include <algorithm>

#include "exec/host_f32.hpp"
#include "exec/ieee.hpp"
#include "exec/refusal.hpp"
#include "ptx/modifiers.hpp"

namespace racer::exec {
namespace {

ieee::Format format(ptx::Type t) {
  switch (t) {
    case ptx::Type::F16: return ieee::Format::F16;
    case ptx::Type::BF16: return ieee::Format::BF16;
    case ptx::Type::TF32: return ieee::Format::TF32;
    case ptx::Type::F32: return ieee::Format::F32;
    case ptx::Type::F64: return ieee::Format::F64;
    case ptx::Type::E4M3: return ieee::Format::E4M3;
    case ptx::Type::E5M2: return ieee::Format::E5M2;
    default: throw Refusal("float operation on ." + std::string(ptx::type_name(t)) + " is not modelled");
  }
}

ieee::Rounding rounding(uint8_t r) {
  switch (r) {
    case ptx::rnd::RZ: case ptx::rnd::RZI: return ieee::Rounding::RZ;
    case ptx::rnd::RM: case ptx::rnd::RMI: return ieee::Rounding::RM;
    case ptx::rnd::RP: case ptx::rnd::RPI: return ieee::Rounding::RP;
    case ptx::rnd::RNA: return ieee::Rounding::RNA;
    default: return ieee::Rounding::RN;
  }
}

ieee::Mode mode(const FloatMods& m) {
  ieee::Mode o;
  o.rnd = rounding(m.rounding);
  o.ftz = m.ftz;
  o.sat = m.sat;
  o.satfinite = m.satfinite;
  return o;
}

bool approx(const FloatMods& m) { return m.rounding == ptx::rnd::APPROX; }

// An f32 operation the host computes as the emulator does (exec/host_f32.hpp).
bool on_host(ptx::Type t, const FloatMods& m) {
  return t == ptx::Type::F32 && rounding(m.rounding) == ieee::Rounding::RN && !m.ftz && !m.sat;
}

ieee::IntType int_type(ptx::Type t) {
  switch (t) {
    case ptx::Type::S8: return ieee::IntType::S8;
    case ptx::Type::S16: return ieee::IntType::S16;
    case ptx::Type::S32: return ieee::IntType::S32;
    case ptx::Type::S64: return ieee::IntType::S64;
    case ptx::Type::U8: case ptx::Type::B8: return ieee::IntType::U8;
    case ptx::Type::U16: case ptx::Type::B16: return ieee::IntType::U16;
    case ptx::Type::U32: case ptx::Type::B32: return ieee::IntType::U32;
    default: return ieee::IntType::U64;
  }
}

ieee::Cmp cmp_of(uint8_t c) {
  using namespace ptx::cmp;
  switch (c) {
    case EQ: return ieee::Cmp::Eq;
    case NE: return ieee::Cmp::Ne;
    case LT: return ieee::Cmp::Lt;
    case LE: return ieee::Cmp::Le;
    case GT: return ieee::Cmp::Gt;
    case GE: return ieee::Cmp::Ge;
    case EQU: return ieee::Cmp::Equ;
    case NEU: return ieee::Cmp::Neu;
    case LTU: return ieee::Cmp::Ltu;
    case LEU: return ieee::Cmp::Leu;
    case GTU: return ieee::Cmp::Gtu;
    case GEU: return ieee::Cmp::Geu;
    case NUM: return ieee::Cmp::Num;
    case NAN_: return ieee::Cmp::Nan;
    default: throw Refusal("integer comparison mode on floats");
  }
}

[[noreturn]] void no_symbols() { throw Refusal("internal: symbolic integer data reached the concrete domain"); }

}  // namespace

Value ConcreteDomain::watched(ptx::Type t, Value result, std::initializer_list<Value> operands) {
  if (!on_nonfinite || !ptx::is_float(t)) return result;
  ieee::Format f = format(t);
  auto finite = [&](const Value& v) { return !ieee::is_nan(f, v.bits) && !ieee::is_inf(f, v.bits); };
  if (!finite(result) && std::all_of(operands.begin(), operands.end(), finite)) on_nonfinite(t, result.bits);
  return result;
}

void ConcreteDomain::watch_underflow(ptx::Type t, Value result, std::initializer_list<Value> operands) {
  if (!on_underflow || !ptx::is_float(t)) return;
  ieee::Format f = format(t);
  auto nonzero_finite = [&](const Value& v) { return !ieee::is_nan(f, v.bits) && !ieee::is_inf(f, v.bits) && !ieee::is_zero(f, v.bits); };
  if (ieee::is_zero(f, result.bits) && std::all_of(operands.begin(), operands.end(), nonzero_finite)) on_underflow(t, result.bits);
}

Value ConcreteDomain::fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) {
  Value r = fbin_bits(op, t, a, b, m);
  if (op == FBin::Mul || op == FBin::Div) watch_underflow(t, r, {a, b});
  return watched(t, r, {a, b});
}

Value ConcreteDomain::fbin_bits(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) {
  if (on_host(t, m) && (op == FBin::Add || op == FBin::Sub || op == FBin::Mul)) {
    std::optional<uint64_t> r = op == FBin::Add ? host_f32::add(a.bits, b.bits)
                                : op == FBin::Sub ? host_f32::sub(a.bits, b.bits) : host_f32::mul(a.bits, b.bits);
    if (r) return Value::of_bits(*r);
  }
  ieee::Format f = format(t);
  switch (op) {
    case FBin::Add: return Value::of_bits(ieee::add(f, a.bits, b.bits, mode(m)));
    case FBin::Sub: return Value::of_bits(ieee::sub(f, a.bits, b.bits, mode(m)));
    case FBin::Mul: return Value::of_bits(ieee::mul(f, a.bits, b.bits, mode(m)));
    case FBin::Div:
      if (t == ptx::Type::F32 && m.rounding == ptx::rnd::APPROX)
        return Value::of_bits(ieee::div_approx_f32(static_cast<uint32_t>(a.bits), static_cast<uint32_t>(b.bits), m.ftz));
      if (t == ptx::Type::F32 && m.rounding == ptx::rnd::FULL)
        return Value::of_bits(ieee::div_full_f32(static_cast<uint32_t>(a.bits), static_cast<uint32_t>(b.bits), m.ftz));
      return Value::of_bits(ieee::div(f, a.bits, b.bits, mode(m)));
    case FBin::Min: return Value::of_bits(ieee::min(f, a.bits, b.bits, {m.ftz, m.nan, m.xorsign_abs}));
    case FBin::Max: return Value::of_bits(ieee::max(f, a.bits, b.bits, {m.ftz, m.nan, m.xorsign_abs}));
    case FBin::Copysign: return Value::of_bits(ieee::copysign(f, a.bits, b.bits));
  }
  return a;
}

Value ConcreteDomain::fun(FUn op, ptx::Type t, Value a, const FloatMods& m) {
  Value r = fun_bits(op, t, a, m);
  if (op == FUn::Ex2) watch_underflow(t, r, {a});
  return watched(t, r, {a});
}

Value ConcreteDomain::fun_bits(FUn op, ptx::Type t, Value a, const FloatMods& m) {
  ieee::Format f = format(t);
  uint64_t r = 0;
  switch (op) {
    case FUn::Neg: r = ieee::neg(f, a.bits, m.ftz); break;
    case FUn::Abs: r = ieee::abs(f, a.bits, m.ftz); break;
    case FUn::Sqrt: r = approx(m) ? ieee::sqrt_approx(f, a.bits, m.ftz) : ieee::sqrt(f, a.bits, mode(m)); break;
    case FUn::Rsqrt: r = ieee::rsqrt_approx(f, a.bits, m.ftz); break;
    case FUn::Rcp: r = approx(m) ? ieee::rcp_approx(f, a.bits, m.ftz) : ieee::rcp(f, a.bits, mode(m)); break;
    case FUn::Ex2: r = ieee::ex2_approx(f, a.bits, m.ftz); break;
    case FUn::Lg2: r = ieee::lg2_approx(f, a.bits, m.ftz); break;
    case FUn::Sin: r = ieee::sin_approx(f, a.bits, m.ftz); break;
    case FUn::Cos: r = ieee::cos_approx(f, a.bits, m.ftz); break;
    case FUn::Tanh: r = ieee::tanh_approx(f, a.bits, m.ftz); break;
  }
  if (m.sat) r = ieee::apply_sat(f, r);
  return Value::of_bits(r);
}

Value ConcreteDomain::fma(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) {
  std::optional<uint64_t> host = on_host(t, m) ? host_f32::fma(a.bits, b.bits, c.bits) : std::nullopt;
  Value r = Value::of_bits(host ? *host : ieee::fma(format(t), a.bits, b.bits, c.bits, mode(m)));
  if (ptx::is_float(t) && ieee::is_zero(format(t), c.bits)) watch_underflow(t, r, {a, b});
  return watched(t, r, {a, b, c});
}

Value ConcreteDomain::fcmp(uint8_t cmp, ptx::Type t, Value a, Value b, bool ftz) {
  return Value::of_bits(ieee::compare(format(t), cmp_of(cmp), a.bits, b.bits, ftz) ? 1 : 0);
}

Value ConcreteDomain::pred(PredOp op, Value a, Value b) {
  uint64_t x = a.bits & 1, y = b.bits & 1;
  switch (op) {
    case PredOp::And: return Value::of_bits(x & y);
    case PredOp::Or: return Value::of_bits(x | y);
    case PredOp::Xor: return Value::of_bits(x ^ y);
    case PredOp::Not: return Value::of_bits(x ^ 1);
  }
  return a;
}

Value ConcreteDomain::select(Value p, Value if_true, Value if_false) { return (p.bits & 1) ? if_true : if_false; }

Value ConcreteDomain::cvt(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m) {
  Value r = cvt_bits(dst, src, a, m);
  // A float narrowed past its format's largest finite value (f32 -> f16 at 65520 and above).
  if (on_nonfinite && ptx::is_float(dst) && ptx::is_float(src) && !ieee::is_nan(format(src), a.bits) &&
      !ieee::is_inf(format(src), a.bits) && (ieee::is_nan(format(dst), r.bits) || ieee::is_inf(format(dst), r.bits)))
    on_nonfinite(dst, r.bits);
  // Only a conversion to another format underflows: a same-format cvt that gives zero rounded
  // to an integer or clamped to [0, 1] (.sat), as asked.
  if (on_underflow && ptx::is_float(dst) && ptx::is_float(src) && dst != src && !m.sat && ieee::is_zero(format(dst), r.bits) &&
      !ieee::is_zero(format(src), a.bits) && !ieee::is_nan(format(src), a.bits) && !ieee::is_inf(format(src), a.bits))
    on_underflow(dst, r.bits);
  return r;
}

Value ConcreteDomain::cvt_bits(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m) {
  bool df = ptx::is_float(dst), sf = ptx::is_float(src);
  if (df && sf) {
    uint8_t r = m.rounding;
    if (dst == src && ptx::rnd::to_integer(r))
      return Value::of_bits(ieee::round_to_integral(format(dst), a.bits, rounding(r), m.ftz, m.sat));
    return Value::of_bits(ieee::convert(format(dst), format(src), a.bits, mode(m)));
  }
  if (sf) return Value::of_bits(ieee::to_int(int_type(dst), format(src), a.bits, rounding(m.rounding), m.ftz));
  if (df) return Value::of_bits(ieee::from_int(format(dst), int_type(src), a.bits, mode(m)));
  return a;
}

Value ConcreteDomain::int_op(IntOp, ptx::Type, Value, Value) { no_symbols(); }
Value ConcreteDomain::int_cmp(uint8_t, ptx::Type, Value, Value) { no_symbols(); }
Value ConcreteDomain::int_popc(ptx::Type, Value) { no_symbols(); }
Value ConcreteDomain::int_shift_right(ptx::Type, Value, unsigned) { no_symbols(); }
Value ConcreteDomain::int_bit_field(ptx::Type, Value, unsigned, unsigned) { no_symbols(); }
std::optional<Value> ConcreteDomain::int_flag_logic(bool, ptx::Type, Value, uint64_t) { no_symbols(); }
// The semantics compute bit operations on concrete operands themselves.
Value ConcreteDomain::sign_bit(ptx::Type, Value) { no_symbols(); }
Value ConcreteDomain::with_sign_bit(ptx::Type, Value, Value, bool) { no_symbols(); }

}  // namespace racer::exec
