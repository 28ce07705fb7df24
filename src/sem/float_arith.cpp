// Floating-point arithmetic: every operation denotes its real-number counterpart in the
// symbolic domain; the concrete domain computes what the GPU computes.
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {

using exec::FBin;
using exec::FUn;

void float_binary(ExecContext& ctx, const Instr& ins, FBin op) {
  Type t = ins.type();
  if (is_packed_half(t)) refuse_packed(ins);
  Value a = ctx.get(ins.operands[1], t), b = ctx.get(ins.operands[2], t);
  ctx.set(ins.operands[0], ctx.dom.fbin(op, t, a, b, float_mods(ins)));
}

void float_unary(ExecContext& ctx, const Instr& ins, FUn op) {
  Type t = ins.type();
  if (is_packed_half(t)) refuse_packed(ins);
  ctx.set(ins.operands[0], ctx.dom.fun(op, t, ctx.get(ins.operands[1], t), float_mods(ins)));
}

void float_fma(ExecContext& ctx, const Instr& ins) {
  Type t = ins.type();
  if (is_packed_half(t)) refuse_packed(ins);
  Value a = ctx.get(ins.operands[1], t), b = ctx.get(ins.operands[2], t);
  if (ctx.may_defer()) {  // a running sum's step, interned where the sum is read (exec/deferred_sums.hpp)
    Value c = ctx.accumulator(ins.operands[3], t);
    ctx.set(ins.operands[0], ctx.dom.fma_deferred(t, a, b, c, float_mods(ins)));
    return;
  }
  Value c = ctx.get(ins.operands[3], t);
  ctx.set(ins.operands[0], ctx.dom.fma(t, a, b, c, float_mods(ins)));
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
  st[size_t(ptx::Op::Testp)] = [](ExecContext&, const Instr&) {
    throw exec::Refusal("testp asks about NaN/infinity/subnormal encodings, which have no meaning on reals");
  };
}

}  // namespace racer::sem
