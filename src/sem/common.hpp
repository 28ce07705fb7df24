#pragma once
// Helpers shared by the instruction-semantics files.
#include <cstdint>

#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "ptx/ir.hpp"

namespace racer::sem {

using exec::ExecContext;
using exec::Value;
using ptx::Instr;
using ptx::Mod;
using ptx::Type;

// 128-bit intermediates for full products (GCC and Clang extension).
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

// An integer type's width and signedness.
struct IntT {
  unsigned bits;
  bool sgn;
  explicit IntT(Type t) : bits(ptx::type_bits(t)), sgn(ptx::type_class(t) == ptx::TypeClass::Signed) {}
  uint64_t mask() const { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
  int64_t sx(uint64_t x) const { return bits >= 64 ? static_cast<int64_t>(x) : static_cast<int64_t>(x << (64 - bits)) >> (64 - bits); }
  // Sign- or zero-extended to 64 bits, as the type reads it.
  uint64_t ext(uint64_t x) const { return sgn ? static_cast<uint64_t>(sx(x)) : x & mask(); }
};

inline exec::FloatMods float_mods(const Instr& ins) {
  // .relu (min, max, fma, cvt) changes the result and is not modelled: refused rather than read
  // as the plain instruction; so is .abs without .xorsign (which PTX does not have).
  if (ins.has(Mod::Relu)) throw exec::Refusal(".relu is not modelled");
  if (ins.has(Mod::Abs) != ins.has(Mod::XorSign)) throw exec::Refusal(".abs and .xorsign only together are modelled");
  exec::FloatMods m;
  m.xorsign_abs = ins.has(Mod::XorSign);
  if (ins.has(Mod::Rnd)) m.rounding = ins.mod(Mod::Rnd);
  m.ftz = ins.has(Mod::Ftz);
  m.sat = ins.has(Mod::Sat) && ins.mod(Mod::Sat) == 0;
  m.satfinite = ins.has(Mod::Sat) && ins.mod(Mod::Sat) == 1;
  m.nan = ins.has(Mod::NaN);
  return m;
}

// A value read by an integer or bit-level instruction of type t. Float data that is a known
// constant although computed symbolically (a masked lane's 0 * c, exp(0)) is its exact f32 or
// f64 encoding when that is a normal number; a zero (whose sign the reals do not keep), a
// subnormal and anything else come back unchanged.
Value symbolic_bits_view(ExecContext& ctx, Value v, Type t);
inline Value bits_view(ExecContext& ctx, Value v, Type t) {
  if (!v.is_symbolic() || v.holds_lanes() || v.integer) return v;  // (most operands: concrete bits)
  return symbolic_bits_view(ctx, v, t);
}

// A 32-bit register's value as byte lanes (exec/packed.hpp): lanes and concrete bits as they
// are, one symbolic integer as its low byte with zeros above where it lies in [0, 255] (an
// s8/u8 value loaded into a 32-bit register) and bits that must not be read otherwise.
Value as_byte_lanes(ExecContext& c, Value v);

// Concrete bits of an integer operand (through bits_view); symbolic data is refused.
inline uint64_t int_operand(ExecContext& ctx, const ptx::Operand& op, Type t) {
  Value v = bits_view(ctx, ctx.get(op, t), t);
  if (!v.is_concrete()) throw exec::Refusal("integer arithmetic on data that depends on symbolic inputs");
  return v.bits;
}

inline bool is_packed_half(Type t) { return t == Type::F16x2 || t == Type::BF16x2; }
inline bool is_packed_byte(Type t) { return t == Type::E4M3x2 || t == Type::E5M2x2; }
// The type of one lane of a packed pair (f16x2 -> f16, e4m3x2 -> e4m3, ...).
inline Type lane_type(Type t) {
  return t == Type::F16x2 ? Type::F16 : t == Type::BF16x2 ? Type::BF16 : t == Type::E4M3x2 ? Type::E4M3 : Type::E5M2;
}

void refuse_packed(const Instr& ins);

using exec::space_of;  // the state space a memory instruction names (exec/machine.hpp)

// Float forms of the opcodes shared with integers (add, sub, mul, mad, div, min, max, abs, neg).
void float_binary(ExecContext& ctx, const Instr& ins, exec::FBin op);
void float_unary(ExecContext& ctx, const Instr& ins, exec::FUn op);
void float_fma(ExecContext& ctx, const Instr& ins);

}  // namespace racer::sem
