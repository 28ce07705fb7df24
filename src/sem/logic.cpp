// Bitwise logic, shifts and byte permutes on bits; predicate logic through the domain.
// On a symbolic float only the sign-bit operations have a real meaning: abs, neg, -abs with
// a constant mask; the sign alone (and with the sign mask) as integer data, which or'ed or
// xor'ed into a float sets or flips its sign (copysign); and the identities (or/xor 0, and
// all-ones). A symbolic float that is a known constant is read as its bits (bits_view).
// Registers of byte lanes move by whole bytes (masks of 0x00/0xFF bytes, shifts by whole
// bytes, or, prmt).
#include <bit>

#include "exec/packed.hpp"
#include "exec/word_halves.hpp"
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

uint64_t sign_bit(unsigned bits) { return uint64_t{1} << (bits - 1); }

// and/xor/or of a symbolic float with a constant that touches only the sign bit, or of a
// float with a sign bit alone (integer data from `and s, signmask`).
bool sign_bit_op(ExecContext& c, const Instr& i, Value a, Value b) {
  Type t = i.type();
  unsigned bits = ptx::type_bits(t);
  if (bits != 16 && bits != 32 && bits != 64) return false;
  Type ft = bits == 16 ? Type::F16 : bits == 32 ? Type::F32 : Type::F64;
  if (i.op != ptx::Op::And && a.is_symbolic() && b.is_symbolic() && a.integer != b.integer) {
    Value sign = a.integer ? a : b, v = a.integer ? b : a;
    c.set(i.operands[0], c.dom.with_sign_bit(ft, sign, v, i.op == ptx::Op::Xor));
    return true;
  }
  Value sym = a.is_symbolic() ? a : b;
  Value k = a.is_symbolic() ? b : a;
  if (!k.is_concrete() || !sym.is_symbolic()) return false;
  uint64_t m = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t kb = k.bits & m;
  if ((i.op == ptx::Op::And && kb == m) || (i.op != ptx::Op::And && kb == 0)) {
    c.set(i.operands[0], sym);  // the identities leave every bit as it was
    return true;
  }
  if (sym.integer) {
    // A sign bit alone or'ed or xor'ed into a float constant (copysign(1, s)).
    if (i.op == ptx::Op::And || bits == 16) return false;
    c.set(i.operands[0], c.dom.with_sign_bit(ft, sym, k, i.op == ptx::Op::Xor));
    return true;
  }
  exec::FloatMods none;
  if (i.op == ptx::Op::And && kb == sign_bit(bits) && bits != 16) {
    c.set(i.operands[0], c.dom.sign_bit(ft, sym));
    return true;
  }
  if (i.op == ptx::Op::And && kb == (m & ~sign_bit(bits))) {
    c.set(i.operands[0], c.dom.fun(exec::FUn::Abs, ft, sym, none));
    return true;
  }
  if (i.op == ptx::Op::Xor && kb == sign_bit(bits)) {
    c.set(i.operands[0], c.dom.fun(exec::FUn::Neg, ft, sym, none));
    return true;
  }
  if (i.op == ptx::Op::Or && kb == sign_bit(bits)) {
    c.set(i.operands[0], c.dom.fun(exec::FUn::Neg, ft, c.dom.fun(exec::FUn::Abs, ft, sym, none), none));
    return true;
  }
  return false;
}

// and of symbolic integer data with a constant mask of contiguous bits p..q-1 (the domain's
// bit field); other masks stay refused.
bool int_mask(ExecContext& c, const Instr& i, Value a, Value b) {
  if (i.op != ptx::Op::And) return false;
  Value sym = a.is_symbolic() ? a : b, k = a.is_symbolic() ? b : a;
  if (!sym.is_symbolic() || !sym.integer || !k.is_concrete()) return false;
  Type t = i.type();
  IntT it(t);
  uint64_t kb = k.bits & it.mask();
  if (kb == 0 || kb == it.mask()) return false;
  const unsigned p = static_cast<unsigned>(std::countr_zero(kb)), q = p + static_cast<unsigned>(std::popcount(kb));
  if (q > it.bits || (q < 64 && kb != (((uint64_t{1} << q) - 1) & ~((uint64_t{1} << p) - 1))) ||
      (q == 64 && kb != ~((uint64_t{1} << p) - 1)))
    return false;
  c.set(i.operands[0], c.dom.int_bit_field(t, sym, p, q));
  return true;
}

// and/or/xor that move whole bytes of a register holding byte lanes (exec/packed.hpp): a mask
// of 0x00 and 0xFF bytes, or lanes joined where one side of each lane is zero.
bool byte_lane_op(ExecContext& c, const Instr& i, Value a, Value b) {
  if (!a.holds_bytes() && !b.holds_bytes()) return false;
  const unsigned width = ptx::type_bits(i.type()) / 8;
  if (width != 2 && width != 4) throw exec::Refusal("a bit-level operation wider than 32 bits on a register holding byte lanes");
  std::optional<Value> r;
  if (i.op == ptx::Op::And && (a.is_concrete() || b.is_concrete()))
    r = exec::bytes_masked(c.lanes(), a.is_concrete() ? b : a, (a.is_concrete() ? a : b).bits, width);
  else if (i.op != ptx::Op::And)
    r = exec::bytes_merged(c.lanes(), a, b, i.op == ptx::Op::Xor);
  if (!r) throw exec::Refusal("a bit-level operation inside a symbolic byte lane");
  c.set(i.operands[0], *r);
  return true;
}

uint64_t logic_bits(ptx::Op op, uint64_t p, uint64_t q) { return op == ptx::Op::And ? p & q : op == ptx::Op::Or ? p | q : p ^ q; }

// or/xor of integer data as type t: a 0/1 flag with a constant, or operands whose set bits
// cannot overlap; nullopt where neither is shown.
std::optional<Value> integer_or(ExecContext& c, ptx::Op op, Type t, Value a, Value b) {
  if (op == ptx::Op::And) return std::nullopt;
  if (a.is_concrete() || b.is_concrete())
    if (auto r = c.dom.int_flag_logic(op == ptx::Op::Xor, t, a.is_concrete() ? b : a, (a.is_concrete() ? a : b).bits & IntT(t).mask()))
      return r;
  return c.dom.int_disjoint_bits(t, a, b);
}

// and/or/xor of registers holding two 16-bit lanes (Triton keeps i16 values in pairs), lane by
// lane: a symbolic lane only where integer_or says what the operation makes of it.
bool half_lane_op(ExecContext& c, const Instr& i, Value a, Value b) {
  if (!a.is_packed() && !b.is_packed()) return false;
  if (ptx::type_bits(i.type()) != 32) throw exec::Refusal("a bit-level operation on a register of 16-bit lanes that is not 32 bits wide");
  const std::array<Value, 2> x = exec::unpack_halves(a), y = exec::unpack_halves(b);
  std::array<Value, 2> out;
  for (size_t k = 0; k < 2; ++k) {
    if (x[k].is_concrete() && y[k].is_concrete()) {
      out[k] = Value::of_bits(logic_bits(i.op, x[k].bits, y[k].bits) & 0xFFFF);
      continue;
    }
    std::optional<Value> r = integer_or(c, i.op, Type::B16, x[k], y[k]);
    if (!r) throw exec::Refusal("a bit-level operation inside a symbolic 16-bit lane");
    out[k] = *r;
  }
  c.set(i.operands[0], exec::pack_halves(out[0], out[1]));
  return true;
}

// or/xor of 64-bit registers holding words of a 64-bit value (exec/word_halves.hpp) where,
// word by word, one side is zero: the words joined.
bool word_op(ExecContext& c, const Instr& i, Value a, Value b) {
  if (!a.is_word() && !b.is_word()) return false;
  std::optional<Value> r;
  if (i.op != ptx::Op::And && ptx::type_bits(i.type()) == 64) r = exec::words_merged(a, b);
  if (!r) throw exec::Refusal("a bit-level operation inside a 32-bit word of a 64-bit value");
  c.set(i.operands[0], *r);
  return true;
}

void bitwise(ExecContext& c, const Instr& i) {
  Type t = i.type();
  Value a = c.get(i.operands[1], t), b = c.get(i.operands[2], t);
  if (t == Type::Pred) {
    exec::PredOp op = i.op == ptx::Op::And ? exec::PredOp::And : i.op == ptx::Op::Or ? exec::PredOp::Or : exec::PredOp::Xor;
    c.set(i.operands[0], c.dom.pred(op, a, b));
    return;
  }
  if (byte_lane_op(c, i, a, b) || half_lane_op(c, i, a, b) || word_op(c, i, a, b)) return;
  a = bits_view(c, a, t);
  b = bits_view(c, b, t);
  if (!a.is_concrete() || !b.is_concrete()) {
    if (auto r = integer_or(c, i.op, t, a, b)) {
      c.set(i.operands[0], *r);
      return;
    }
    if (sign_bit_op(c, i, a, b) || int_mask(c, i, a, b)) return;
    throw exec::Refusal("bit-level operation on data that depends on symbolic inputs");
  }
  c.set(i.operands[0], Value::of_bits(logic_bits(i.op, a.bits, b.bits) & IntT(t).mask()));
}

void not_(ExecContext& c, const Instr& i) {
  Type t = i.type();
  Value a = c.get(i.operands[1], t);
  if (t == Type::Pred) {
    c.set(i.operands[0], c.dom.pred(exec::PredOp::Not, a, {}));
    return;
  }
  a = bits_view(c, a, t);
  if (!a.is_concrete()) throw exec::Refusal("bit-level operation on data that depends on symbolic inputs");
  uint64_t r = i.op == ptx::Op::Not ? ~a.bits : (a.bits & IntT(t).mask()) == 0;
  c.set(i.operands[0], Value::of_bits(r & IntT(t).mask()));
}

void lop3(ExecContext& c, const Instr& i) {
  Type t = i.type();
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t), d = int_operand(c, i.operands[3], t);
  uint64_t lut = int_operand(c, i.operands[4], Type::U32) & 0xFF;
  uint64_t r = 0;
  for (unsigned k = 0; k < 64; ++k) {
    unsigned idx = (((a >> k) & 1) << 2) | (((b >> k) & 1) << 1) | ((d >> k) & 1);
    if ((lut >> idx) & 1) r |= uint64_t{1} << k;
  }
  c.set(i.operands[0], Value::of_bits(r & IntT(t).mask()));
}

void shift(ExecContext& c, const Instr& i) {
  Type t = i.type();
  IntT it(t);
  uint64_t n = int_operand(c, i.operands[2], Type::U32) & 0xFFFFFFFF;
  if (Value v = c.get(i.operands[1], t); v.holds_bytes()) {
    // A register of byte lanes shifted by whole bytes (Triton's shr.s16 by 8 before st.b8).
    if ((it.bits != 16 && it.bits != 32) || n % 8 != 0 || n >= it.bits)
      throw exec::Refusal("a shift by other than whole bytes of a register holding byte lanes");
    c.set(i.operands[0], exec::bytes_shifted(c.lanes(), v, it.bits / 8, static_cast<unsigned>(n / 8), i.op == ptx::Op::Shl, it.sgn));
    return;
  }
  if (Value v = bits_view(c, c.get(i.operands[1], t), t); v.is_word() || (it.bits == 64 && v.is_symbolic() && !v.integer && !v.holds_lanes())) {
    // A word of a 64-bit value moved by a whole word, or a symbolic f64's high word taken
    // (exec/word_halves.hpp); an arithmetic shift down would copy a sign bit nobody knows.
    std::optional<Value> r;
    if (it.bits == 64 && (i.op == ptx::Op::Shl || !it.sgn || (v.is_word() && !exec::words_split(v)[1].is_word())))
      r = exec::word_shifted(v, static_cast<unsigned>(n), i.op == ptx::Op::Shl);
    if (!r) throw exec::Refusal("a shift that splits a 32-bit word of a 64-bit value");
    c.set(i.operands[0], *r);
    return;
  }
  if (Value v = bits_view(c, c.get(i.operands[1], t), t); v.is_symbolic() && v.integer && n < it.bits) {
    if (n == 0) {
      c.set(i.operands[0], v);  // a shift by a register that holds 0 in this thread (a nibble's place)
      return;
    }
    // Symbolic integer data shifted left: a product by 2^n, exact while it fits the type
    // (the domain refuses otherwise), as an exponent field built for a power of two is;
    // shifted right: floor(e / 2^n), exact.
    c.set(i.operands[0], i.op == ptx::Op::Shl ? c.dom.int_op(exec::IntOp::Mul, t, v, Value::of_bits(uint64_t{1} << n))
                                              : c.dom.int_shift_right(t, v, static_cast<unsigned>(n)));
    return;
  }
  uint64_t a = int_operand(c, i.operands[1], t);
  uint64_t r;
  if (i.op == ptx::Op::Shl) r = n >= it.bits ? 0 : a << n;
  else if (it.sgn) r = static_cast<uint64_t>(it.sx(a) >> std::min<uint64_t>(n, it.bits - 1));
  else r = n >= it.bits ? 0 : (a & it.mask()) >> n;
  c.set(i.operands[0], Value::of_bits(r & it.mask()));
}

void shf(ExecContext& c, const Instr& i) {
  uint64_t a = int_operand(c, i.operands[1], Type::B32) & 0xFFFFFFFF, b = int_operand(c, i.operands[2], Type::B32) & 0xFFFFFFFF;
  uint64_t n = int_operand(c, i.operands[3], Type::U32) & 0xFFFFFFFF;
  bool clamp = i.has(Mod::ShfMode) && i.mod(Mod::ShfMode) == 0;
  n = clamp ? std::min<uint64_t>(n, 32) : n & 31;
  uint64_t both = (b << 32) | a;
  bool left = i.has(Mod::ShfDir) && i.mod(Mod::ShfDir) == 0;
  uint64_t r = left ? (both << n) >> 32 : both >> n;
  c.set(i.operands[0], Value::of_bits(r & 0xFFFFFFFF));
}

void prmt(ExecContext& c, const Instr& i) {
  if (i.has(Mod::PrmtMode)) throw exec::Refusal("prmt with a special mode is not modelled");
  if (Value va = c.get(i.operands[1], Type::B32), vb = c.get(i.operands[2], Type::B32); !va.is_concrete() || !vb.is_concrete()) {
    const uint64_t sel = int_operand(c, i.operands[3], Type::B32);
    c.set(i.operands[0], exec::bytes_permuted(c.lanes(), as_byte_lanes(c, va), as_byte_lanes(c, vb), static_cast<uint32_t>(sel & 0xFFFF)));
    return;
  }
  uint64_t a = int_operand(c, i.operands[1], Type::B32) & 0xFFFFFFFF, b = int_operand(c, i.operands[2], Type::B32) & 0xFFFFFFFF;
  uint64_t sel = int_operand(c, i.operands[3], Type::B32);
  uint64_t bytes = (b << 32) | a;
  uint64_t r = 0;
  for (unsigned k = 0; k < 4; ++k) {
    unsigned s = (sel >> (4 * k)) & 0xF;
    uint64_t byte = (bytes >> (8 * (s & 7))) & 0xFF;
    if (s & 8) byte = (byte & 0x80) ? 0xFF : 0;  // replicate the sign bit
    r |= byte << (8 * k);
  }
  c.set(i.operands[0], Value::of_bits(r));
}

}  // namespace

Value as_byte_lanes(ExecContext& c, Value v) {
  if (!v.is_symbolic() || !v.integer) return v;  // (byte lanes, concrete bits; a float is refused by byte_codes)
  Value high = c.dom.int_bit_field(Type::U32, v, 8, 32);
  return exec::low_byte(c.lanes(), v, high.is_concrete() && high.bits == 0);
}

void register_logic(exec::Semantics& s) {
  auto& st = s.step;
  st[size_t(ptx::Op::And)] = bitwise;
  st[size_t(ptx::Op::Or)] = bitwise;
  st[size_t(ptx::Op::Xor)] = bitwise;
  st[size_t(ptx::Op::Not)] = not_;
  st[size_t(ptx::Op::Cnot)] = not_;
  st[size_t(ptx::Op::Lop3)] = lop3;
  st[size_t(ptx::Op::Shl)] = shift;
  st[size_t(ptx::Op::Shr)] = shift;
  st[size_t(ptx::Op::Shf)] = shf;
  st[size_t(ptx::Op::Prmt)] = prmt;
}

}  // namespace racer::sem
