#include "ptx/effects.hpp"

namespace racer::ptx {

bool register_only_op(Op op) {
  switch (op) {
    case Op::Add: case Op::AddC: case Op::Sub: case Op::SubC: case Op::Mul: case Op::Mad:
    case Op::MadC: case Op::Mul24: case Op::Mad24: case Op::Sad: case Op::Div: case Op::Rem:
    case Op::Abs: case Op::Neg: case Op::Min: case Op::Max: case Op::Popc: case Op::Clz:
    case Op::Bfind: case Op::Fns: case Op::Brev: case Op::Bfe: case Op::Bfi: case Op::Dp4a:
    case Op::Dp2a: case Op::Fma: case Op::Rcp: case Op::Sqrt: case Op::Rsqrt: case Op::Sin:
    case Op::Cos: case Op::Lg2: case Op::Ex2: case Op::Tanh: case Op::Copysign: case Op::Testp:
    case Op::Set: case Op::Setp: case Op::Selp: case Op::Slct: case Op::And: case Op::Or:
    case Op::Xor: case Op::Not: case Op::Cnot: case Op::Lop3: case Op::Shf: case Op::Shl:
    case Op::Shr: case Op::Mov: case Op::Prmt: case Op::Cvt: case Op::Cvta: case Op::Bra:
      return true;
    default:
      return false;
  }
}

bool is_param_load(const Instr& ins) {
  if ((ins.op != Op::Ld && ins.op != Op::Ldu) || !ins.has(Mod::Space)) return false;
  std::string_view n = mod_values(Mod::Space)[ins.mod(Mod::Space)];
  return n == "param" || n == "param::entry";
}

}  // namespace racer::ptx
