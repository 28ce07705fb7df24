// Integer and bit-level views of float data whose value is a known constant.
#include "sem/common.hpp"

namespace racer::sem {

Value symbolic_bits_view(ExecContext& ctx, Value v, Type t) {
  unsigned w = ptx::type_bits(t);
  if (w != 32 && w != 64) return v;  // a 16-bit register may hold f16 or bf16: no one encoding
  Type ft = w == 32 ? Type::F32 : Type::F64;
  auto b = ctx.dom.bits(v, ft);
  if (!b) return v;
  unsigned man = w == 32 ? 23 : 52;
  uint64_t exponent = (*b >> man) & (w == 32 ? 0xFF : 0x7FF);
  if (exponent == 0 || exponent == (w == 32 ? 0xFFu : 0x7FFu)) return v;
  return Value::of_bits(*b);
}

}  // namespace racer::sem
