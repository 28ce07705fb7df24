// Floating-point arithmetic: every operation denotes its real-number counterpart in the
// symbolic domain; the concrete domain computes what the GPU computes.
#include "exec/float_bits_atomics.hpp"
#include "exec/ieee.hpp"
#include "exec/packed.hpp"
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {

using exec::FBin;
using exec::FUn;

// A packed .f16x2 or .bf16x2 operation is two independent ones, lane by lane, each rounded to
// the lane's format as the scalar .f16 or .bf16 instruction would be: `lane(type, k)` computes
// lane k (0: bits 15:0) from the operands' lanes.
template <class Lane>
void lanewise(ExecContext& ctx, const Instr& ins, Lane lane) {
  const Type t = ins.type();
  const Type half = t == Type::F16x2 ? Type::F16 : Type::BF16;
  std::array<std::array<Value, 2>, 3> ops;
  for (size_t k = 1; k < ins.operands.size() && k <= ops.size(); ++k) ops[k - 1] = exec::unpack_halves(ctx.get(ins.operands[k], t));
  ctx.set(ins.operands[0], exec::pack_halves(lane(half, ops, 0), lane(half, ops, 1)));
}

void float_binary(ExecContext& ctx, const Instr& ins, FBin op) {
  Type t = ins.type();
  if (is_packed_half(t)) {
    if (op == FBin::Div || op == FBin::Copysign) refuse_packed(ins);  // (no such packed instruction)
    return lanewise(ctx, ins, [&](Type h, const auto& v, int k) { return ctx.dom.fbin(op, h, v[0][k], v[1][k], float_mods(ins)); });
  }
  Value a = ctx.get(ins.operands[1], t), b = ctx.get(ins.operands[2], t);
  ctx.set(ins.operands[0], ctx.dom.fbin(op, t, a, b, float_mods(ins)));
}

void float_unary(ExecContext& ctx, const Instr& ins, FUn op) {
  Type t = ins.type();
  if (is_packed_half(t)) {
    if (op != FUn::Neg && op != FUn::Abs) refuse_packed(ins);
    return lanewise(ctx, ins, [&](Type h, const auto& v, int k) { return ctx.dom.fun(op, h, v[0][k], float_mods(ins)); });
  }
  ctx.set(ins.operands[0], ctx.dom.fun(op, t, ctx.get(ins.operands[1], t), float_mods(ins)));
}

void float_fma(ExecContext& ctx, const Instr& ins) {
  Type t = ins.type();
  if (is_packed_half(t))
    return lanewise(ctx, ins, [&](Type h, const auto& v, int k) { return ctx.dom.fma(h, v[0][k], v[1][k], v[2][k], float_mods(ins)); });
  Value a = ctx.get(ins.operands[1], t), b = ctx.get(ins.operands[2], t);
  if (ctx.may_defer()) {  // a running sum's step, interned where the sum is read (exec/deferred_sums.hpp)
    Value c = ctx.accumulator(ins.operands[3], t);
    ctx.set(ins.operands[0], ctx.dom.fma_deferred(t, a, b, c, float_mods(ins)));
    return;
  }
  Value c = ctx.get(ins.operands[3], t);
  ctx.set(ins.operands[0], ctx.dom.fma(t, a, b, c, float_mods(ins)));
}

// testp: concrete bits are classified as the hardware does. A symbolic value is a real, finite
// wherever it is defined (as comparisons with infinity read it; overflow is the float hazard
// search's concern), so .finite and .number hold and .infinite and .notanumber do not; which
// of those holds for an infinity constant the comparison with +inf tells. .normal and
// .subnormal depend on the encoding's exponent: refused for symbolic data.
void testp(ExecContext& c, const Instr& i) {
  const Type t = i.type();
  if (t != Type::F32 && t != Type::F64) throw exec::Refusal("testp of ." + std::string(ptx::type_name(t)) + " is not modelled");
  // (TestKind's values are listed in TestOp's order: finite infinite number notanumber normal subnormal.)
  const std::string_view kind = ptx::mod_values(Mod::TestKind)[i.mod(Mod::TestKind)];
  const Value a = c.get(i.operands[1], t);
  if (auto bits = c.dom.bits(a, t)) {
    const bool r = ieee::testp(exec::format_of_width(t), static_cast<ieee::TestOp>(i.mod(Mod::TestKind)), *bits);
    c.set(i.operands[0], Value::of_bits(r ? 1 : 0));
    return;
  }
  if (kind == "normal" || kind == "subnormal")
    throw exec::Refusal("testp." + std::string(kind) + " asks about the exponent of symbolic data's encoding, which has no meaning on reals");
  const Value magnitude = c.dom.fun(exec::FUn::Abs, t, a, {});
  const Value finite = c.dom.fcmp(ptx::cmp::LT, t, magnitude, Value::of_bits(ieee::infinity(exec::format_of_width(t), false)), false);
  if (!finite.is_concrete()) throw exec::Refusal("testp." + std::string(kind) + " of a value that may be infinite or undefined");
  const bool fin = (finite.bits & 1) != 0;
  const bool r = kind == "finite" ? fin : kind == "infinite" ? !fin : kind == "number";
  c.set(i.operands[0], Value::of_bits(r ? 1 : 0));
}

void register_float(exec::Semantics& s) {
  auto& st = s.step;
  st[size_t(ptx::Op::Fma)] = [](ExecContext& c, const Instr& i) { float_fma(c, i); };
  st[size_t(ptx::Op::Rcp)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Rcp); };
  st[size_t(ptx::Op::Sqrt)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Sqrt); };
  st[size_t(ptx::Op::Rsqrt)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Rsqrt); };
  st[size_t(ptx::Op::Ex2)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Ex2); };
  st[size_t(ptx::Op::Lg2)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Lg2); };
  st[size_t(ptx::Op::Sin)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Sin); };
  st[size_t(ptx::Op::Cos)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Cos); };
  st[size_t(ptx::Op::Tanh)] = [](ExecContext& c, const Instr& i) { float_unary(c, i, FUn::Tanh); };
  st[size_t(ptx::Op::Copysign)] = [](ExecContext& c, const Instr& i) { float_binary(c, i, FBin::Copysign); };
  st[size_t(ptx::Op::Testp)] = testp;
}

}  // namespace racer::sem
