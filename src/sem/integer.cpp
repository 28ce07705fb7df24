// Integer arithmetic, computed natively on bits at the instruction's width (two's
// complement). The opcodes shared with floats dispatch on the type here.
#include <bit>

#include "exec/word_halves.hpp"
#include "sem/common.hpp"
#include "sem/fragment.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

using exec::FBin;
using exec::FUn;

bool wide(const Instr& ins) { return ins.has(Mod::Mode) && ins.mod(Mod::Mode) == ptx::mode::WIDE; }
bool hi(const Instr& ins) { return ins.has(Mod::Mode) && ins.mod(Mod::Mode) == ptx::mode::HI; }

// The full product of two integers of type t (up to 128 bits), as the type reads them.
uint128 full_product(const IntT& it, uint64_t a, uint64_t b) {
  if (it.sgn) return static_cast<uint128>(static_cast<int128>(it.sx(a)) * static_cast<int128>(it.sx(b)));
  return static_cast<uint128>(a & it.mask()) * (b & it.mask());
}

uint64_t mul_result(const Instr& ins, const IntT& it, uint64_t a, uint64_t b) {
  uint128 p = full_product(it, a, b);
  if (wide(ins)) return static_cast<uint64_t>(p);
  if (hi(ins)) return static_cast<uint64_t>(p >> it.bits) & it.mask();
  return static_cast<uint64_t>(p) & it.mask();
}

// Integer ops whose operands are symbolic integer data take the exact (bounds-checked) path.
bool symbolic_int(ExecContext& c, const Instr& i, exec::IntOp op) {
  Type t = i.type();
  Value a = bits_view(c, c.get(i.operands[1], t), t), b = bits_view(c, c.get(i.operands[2], t), t);
  if (a.is_concrete() && b.is_concrete()) return false;
  if (i.has(Mod::Cc) || i.has(Mod::Sat)) throw exec::Refusal("carry or saturating arithmetic on symbolic integer data");
  if (op == exec::IntOp::Mul && (hi(i) || wide(i))) {
    if (hi(i)) throw exec::Refusal("mul.hi of symbolic integer data");
    Type wt = ptx::type_bits(t) == 16 ? (IntT(t).sgn ? Type::S32 : Type::U32) : (IntT(t).sgn ? Type::S64 : Type::U64);
    c.set(i.operands[0], c.dom.int_op(op, wt, c.dom.as_integer(a, t), c.dom.as_integer(b, t)));
    return true;
  }
  c.set(i.operands[0], c.dom.int_op(op, t, a, b));
  return true;
}

void int_binary(ExecContext& ctx, const Instr& ins, uint64_t (*f)(const IntT&, uint64_t, uint64_t)) {
  Type t = ins.type();
  IntT it(t);
  uint64_t a = int_operand(ctx, ins.operands[1], t), b = int_operand(ctx, ins.operands[2], t);
  ctx.set(ins.operands[0], Value::of_bits(f(it, a, b) & it.mask()));
}

uint64_t sat_add(const IntT& it, int64_t r) {
  int64_t lo = -(int64_t{1} << (it.bits - 1)), hi_v = (int64_t{1} << (it.bits - 1)) - 1;
  return static_cast<uint64_t>(r < lo ? lo : r > hi_v ? hi_v : r);
}

void add(ExecContext& c, const Instr& i) {
  if (ptx::is_float(i.type())) return float_binary(c, i, FBin::Add);
  if (symbolic_int(c, i, exec::IntOp::Add)) return;
  if (i.has(Mod::Cc)) return add_cc(c, i);
  if (i.has(Mod::Sat)) {
    return int_binary(c, i, [](const IntT& it, uint64_t a, uint64_t b) { return sat_add(it, it.sx(a) + it.sx(b)); });
  }
  int_binary(c, i, [](const IntT&, uint64_t a, uint64_t b) { return a + b; });
}

void sub(ExecContext& c, const Instr& i) {
  if (ptx::is_float(i.type())) return float_binary(c, i, FBin::Sub);
  if (symbolic_int(c, i, exec::IntOp::Sub)) return;
  if (i.has(Mod::Cc)) return sub_cc(c, i);
  if (i.has(Mod::Sat)) {
    return int_binary(c, i, [](const IntT& it, uint64_t a, uint64_t b) { return sat_add(it, it.sx(a) - it.sx(b)); });
  }
  int_binary(c, i, [](const IntT&, uint64_t a, uint64_t b) { return a - b; });
}

void mul(ExecContext& c, const Instr& i) {
  if (ptx::is_float(i.type())) return float_binary(c, i, FBin::Mul);
  if (symbolic_int(c, i, exec::IntOp::Mul)) return;
  Type t = i.type();
  IntT it(t);
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  c.set(i.operands[0], Value::of_bits(mul_result(i, it, a, b)));
}

void mad(ExecContext& c, const Instr& i) {
  if (ptx::is_float(i.type())) return float_fma(c, i);
  if (i.has(Mod::Cc)) return mad_cc(c, i);
  Type t = i.type();
  IntT it(t);
  {
    Value va = bits_view(c, c.get(i.operands[1], t), t), vb = bits_view(c, c.get(i.operands[2], t), t);
    Type at = wide(i) ? (ptx::type_bits(t) == 16 ? (it.sgn ? Type::S32 : Type::U32) : (it.sgn ? Type::S64 : Type::U64)) : t;
    Value vc = bits_view(c, c.get(i.operands[3], at), at);
    if (!va.is_concrete() || !vb.is_concrete() || !vc.is_concrete()) {
      if (hi(i)) throw exec::Refusal("mad.hi of symbolic integer data");
      Value prod = c.dom.int_op(exec::IntOp::Mul, at, c.dom.as_integer(va, t), c.dom.as_integer(vb, t));
      c.set(i.operands[0], c.dom.int_op(exec::IntOp::Add, at, prod, vc));
      return;
    }
  }
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  uint64_t p = mul_result(i, it, a, b);
  if (wide(i)) {
    uint64_t add = int_operand(c, i.operands[3], Type::B64);
    c.set(i.operands[0], Value::of_bits(p + add));
  } else {
    c.set(i.operands[0], Value::of_bits((p + int_operand(c, i.operands[3], t)) & it.mask()));
  }
}

void mul24(ExecContext& c, const Instr& i) {
  if (i.has(Mod::Sat)) throw exec::Refusal("mad24.sat is not modelled");
  Type t = i.type();
  IntT it(t);
  IntT i24(it.sgn ? Type::S32 : Type::U32);
  auto lo24 = [&](uint64_t x) { return it.sgn ? static_cast<uint64_t>(static_cast<int64_t>(x << 40) >> 40) : x & 0xFFFFFF; };
  uint64_t a = lo24(int_operand(c, i.operands[1], t)), b = lo24(int_operand(c, i.operands[2], t));
  uint128 p = it.sgn ? static_cast<uint128>(static_cast<int128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b))
                               : static_cast<uint128>(a) * b;
  uint64_t r = hi(i) ? static_cast<uint64_t>(p >> 16) : static_cast<uint64_t>(p);
  if (i.op == ptx::Op::Mad24) r += int_operand(c, i.operands[3], t);
  c.set(i.operands[0], Value::of_bits(r & it.mask()));
  (void)i24;
}

void div(ExecContext& c, const Instr& i) {
  if (ptx::is_float(i.type())) return float_binary(c, i, FBin::Div);
  Type t = i.type();
  IntT it(t);
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  if ((b & it.mask()) == 0) throw exec::Refusal("integer division by zero has no defined result");
  uint64_t r = it.sgn ? (it.sx(b) == -1 ? static_cast<uint64_t>(-static_cast<uint64_t>(it.sx(a)))
                                        : static_cast<uint64_t>(it.sx(a) / it.sx(b)))
                      : (a & it.mask()) / (b & it.mask());
  c.set(i.operands[0], Value::of_bits(r & it.mask()));
}

void rem(ExecContext& c, const Instr& i) {
  Type t = i.type();
  IntT it(t);
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  if ((b & it.mask()) == 0) throw exec::Refusal("integer remainder by zero has no defined result");
  uint64_t r = it.sgn ? (it.sx(b) == -1 ? 0 : static_cast<uint64_t>(it.sx(a) % it.sx(b))) : (a & it.mask()) % (b & it.mask());
  c.set(i.operands[0], Value::of_bits(r & it.mask()));
}

void abs_(ExecContext& c, const Instr& i) {
  if (ptx::is_float(i.type())) return float_unary(c, i, FUn::Abs);
  Type t = i.type();
  IntT it(t);
  int64_t a = it.sx(int_operand(c, i.operands[1], t));
  c.set(i.operands[0], Value::of_bits(static_cast<uint64_t>(a < 0 ? -a : a) & it.mask()));
}

void neg(ExecContext& c, const Instr& i) {
  if (ptx::is_float(i.type())) return float_unary(c, i, FUn::Neg);
  Type t = i.type();
  if (Value a = bits_view(c, c.get(i.operands[1], t), t); a.is_symbolic()) {
    c.set(i.operands[0], c.dom.int_op(exec::IntOp::Sub, t, Value::of_bits(0), a));
    return;
  }
  IntT it(t);
  c.set(i.operands[0], Value::of_bits((0 - int_operand(c, i.operands[1], t)) & it.mask()));
}

void minmax(ExecContext& c, const Instr& i, bool is_min) {
  if (ptx::is_float(i.type())) return float_binary(c, i, is_min ? FBin::Min : FBin::Max);
  if (i.operands.size() > 3) throw exec::Refusal("three-input min/max is not modelled");
  if (symbolic_int(c, i, is_min ? exec::IntOp::Min : exec::IntOp::Max)) return;
  Type t = i.type();
  IntT it(t);
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  bool a_less = it.sgn ? it.sx(a) < it.sx(b) : (a & it.mask()) < (b & it.mask());
  c.set(i.operands[0], Value::of_bits((a_less == is_min ? a : b) & it.mask()));
}

void bfe(ExecContext& c, const Instr& i) {
  Type t = i.type();
  IntT it(t);
  if (Value v = bits_view(c, c.get(i.operands[1], t), t); v.is_symbolic() && v.integer) {
    // An unsigned field of integer data (a packed 4-bit code): (v >> pos) & (2^len - 1), built as
    // shr and and build it (one normal form for both spellings), exact. A signed field would
    // copy its top bit upward.
    const uint64_t pos = int_operand(c, i.operands[2], Type::U32) & 0xFF, len = int_operand(c, i.operands[3], Type::U32) & 0xFF;
    if (it.sgn && len > 0 && pos < it.bits) throw exec::Refusal("a signed bit-field extract of integer data that depends on symbolic inputs");
    if (len == 0 || pos >= it.bits) {
      c.set(i.operands[0], Value::of_bits(0));
      return;
    }
    const unsigned p = static_cast<unsigned>(pos), q = static_cast<unsigned>(std::min<uint64_t>(pos + len, it.bits));
    Value r = p == 0 ? c.dom.int_bit_field(t, v, 0, q) : c.dom.int_shift_right(t, v, p);
    if (p > 0 && q < it.bits) r = c.dom.int_bit_field(t, r, 0, q - p);
    c.set(i.operands[0], r);
    return;
  }
  uint64_t a = int_operand(c, i.operands[1], t);
  uint64_t pos = int_operand(c, i.operands[2], Type::U32) & 0xFF, len = int_operand(c, i.operands[3], Type::U32) & 0xFF;
  uint64_t r = 0;
  bool sbit = false;
  if (it.sgn) {
    uint64_t top = std::min<uint64_t>(pos + len - 1, it.bits - 1);
    sbit = len == 0 ? false : (a >> top) & 1;
  }
  for (uint64_t k = 0; k < it.bits; ++k) {
    bool bit = k < len && pos + k < it.bits ? (a >> (pos + k)) & 1 : sbit;
    if (bit) r |= uint64_t{1} << k;
  }
  c.set(i.operands[0], Value::of_bits(r & it.mask()));
}

// bfi.b64 of whole words where one holds a word of a 64-bit value (exec/word_halves.hpp): the
// low word of a into b's high word (position 32) or into its low word (position 0).
bool word_insert(ExecContext& c, const Instr& i) {
  Value a = c.get(i.operands[1], i.type()), b = c.get(i.operands[2], i.type());
  if (!a.is_word() && !b.is_word()) return false;
  const uint64_t pos = int_operand(c, i.operands[3], Type::U32) & 0xFF, len = int_operand(c, i.operands[4], Type::U32) & 0xFF;
  std::optional<Value> r;
  if (ptx::type_bits(i.type()) == 64 && len == 32 && (pos == 0 || pos == 32)) {
    const auto x = exec::words_split(a), y = exec::words_split(b);
    r = pos == 32 ? exec::words_joined(y[0], x[0]) : exec::words_joined(x[0], y[1]);
  }
  if (!r) throw exec::Refusal("a bit-field insert that splits a 32-bit word of a 64-bit value");
  c.set(i.operands[0], *r);
  return true;
}

void bfi(ExecContext& c, const Instr& i) {
  if (word_insert(c, i)) return;
  Type t = i.type();
  IntT it(t);
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  uint64_t pos = int_operand(c, i.operands[3], Type::U32) & 0xFF, len = int_operand(c, i.operands[4], Type::U32) & 0xFF;
  uint64_t r = b;
  for (uint64_t k = 0; k < len && pos + k < it.bits; ++k) {
    uint64_t bit = uint64_t{1} << (pos + k);
    r = ((a >> k) & 1) ? r | bit : r & ~bit;
  }
  c.set(i.operands[0], Value::of_bits(r & it.mask()));
}

void count_op(ExecContext& c, const Instr& i) {
  Type t = i.type();
  IntT it(t);
  if (Value v = bits_view(c, c.get(i.operands[1], t), t); i.op == ptx::Op::Popc && v.is_symbolic()) {
    c.set(i.operands[0], c.dom.int_popc(t, v));
    return;
  }
  uint64_t a = int_operand(c, i.operands[1], t) & it.mask();
  uint64_t r = 0;
  switch (i.op) {
    case ptx::Op::Popc: r = static_cast<uint64_t>(std::popcount(a)); break;
    case ptx::Op::Clz: r = static_cast<uint64_t>(std::countl_zero(a) - (64 - static_cast<int>(it.bits))); break;
    case ptx::Op::Brev: {
      for (unsigned k = 0; k < it.bits; ++k)
        if ((a >> k) & 1) r |= uint64_t{1} << (it.bits - 1 - k);
      c.set(i.operands[0], Value::of_bits(r));
      return;
    }
    case ptx::Op::Bfind: {
      uint64_t x = it.sgn && it.sx(a) < 0 ? ~a & it.mask() : a;
      if (x == 0) r = 0xFFFFFFFF;
      else {
        r = 63 - static_cast<uint64_t>(std::countl_zero(x));
        if (i.has(Mod::ShiftAmt)) r = it.bits - 1 - r;
      }
      break;
    }
    default: break;
  }
  c.set(i.operands[0], Value::of_bits(r & 0xFFFFFFFF));
}

void sad(ExecContext& c, const Instr& i) {
  Type t = i.type();
  IntT it(t);
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t), d = int_operand(c, i.operands[3], t);
  uint64_t diff = it.sgn ? static_cast<uint64_t>(it.sx(a) > it.sx(b) ? it.sx(a) - it.sx(b) : it.sx(b) - it.sx(a))
                         : ((a & it.mask()) > (b & it.mask()) ? a - b : b - a);
  c.set(i.operands[0], Value::of_bits((d + diff) & it.mask()));
}

// dp4a.atype.btype d, a, b, c: c plus the dot product of a's and b's four bytes (each .s32
// operand's read as s8, each .u32 one's as u8), wrapped to 32 bits.
void dp4a(ExecContext& c, const Instr& i) {
  const Type ta = i.type(0), tb = i.type(1);
  const Type dt = ta == Type::U32 && tb == Type::U32 ? Type::U32 : Type::S32;
  const auto elem = [](Type t) { return t == Type::S32 ? Type::S8 : Type::U8; };
  const auto a = byte_elements(c, c.get(i.operands[1], Type::B32), elem(ta));
  const auto b = byte_elements(c, c.get(i.operands[2], Type::B32), elem(tb));
  Value acc = c.get(i.operands[3], dt);
  bool all_concrete = acc.is_concrete();
  for (unsigned k = 0; k < 4; ++k) all_concrete &= a[k].is_concrete() && b[k].is_concrete();
  if (all_concrete) {
    const IntT ia(elem(ta)), ib(elem(tb));
    uint64_t sum = acc.bits;
    for (unsigned k = 0; k < 4; ++k) sum += static_cast<uint64_t>(ia.ext(a[k].bits) * ib.ext(b[k].bits));
    c.set(i.operands[0], Value::of_bits(sum & 0xFFFFFFFF));
    return;
  }
  acc = c.dom.as_integer(acc, dt);
  for (unsigned k = 0; k < 4; ++k) {
    Value prod = c.dom.int_op(exec::IntOp::Mul, Type::S32, c.dom.as_integer(a[k], elem(ta)), c.dom.as_integer(b[k], elem(tb)));
    acc = c.dom.int_op(exec::IntOp::Add, dt, acc, prod);
  }
  c.set(i.operands[0], acc);
}

}  // namespace

void register_integer(exec::Semantics& s) {
  auto& st = s.step;
  st[size_t(ptx::Op::Add)] = add;
  st[size_t(ptx::Op::Sub)] = sub;
  st[size_t(ptx::Op::Mul)] = mul;
  st[size_t(ptx::Op::Mad)] = mad;
  st[size_t(ptx::Op::Mul24)] = mul24;
  st[size_t(ptx::Op::Mad24)] = mul24;
  st[size_t(ptx::Op::Div)] = div;
  st[size_t(ptx::Op::Rem)] = rem;
  st[size_t(ptx::Op::Abs)] = abs_;
  st[size_t(ptx::Op::Neg)] = neg;
  st[size_t(ptx::Op::Min)] = [](ExecContext& c, const Instr& i) { minmax(c, i, true); };
  st[size_t(ptx::Op::Max)] = [](ExecContext& c, const Instr& i) { minmax(c, i, false); };
  st[size_t(ptx::Op::Bfe)] = bfe;
  st[size_t(ptx::Op::Bfi)] = bfi;
  st[size_t(ptx::Op::Popc)] = count_op;
  st[size_t(ptx::Op::Clz)] = count_op;
  st[size_t(ptx::Op::Brev)] = count_op;
  st[size_t(ptx::Op::Bfind)] = count_op;
  st[size_t(ptx::Op::Sad)] = sad;
  st[size_t(ptx::Op::Dp4a)] = dp4a;
}

}  // namespace racer::sem
