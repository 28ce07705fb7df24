// Extended-precision integer arithmetic: add.cc/sub.cc/mad.cc set the thread's carry flag,
// addc/subc/madc consume it (wide products in range reductions, 64-bit sums in 32-bit
// halves). Computed on concrete bits only.
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

bool hi_mode(const Instr& ins) { return ins.has(Mod::Mode) && ins.mod(Mod::Mode) == ptx::mode::HI; }

// d = a + b + carry_in (or a - b - borrow_in); the carry or borrow out when .cc is given.
void add_with_carry(ExecContext& c, const Instr& i, bool subtract, bool carry_in) {
  Type t = i.type();
  IntT it(t);
  if (it.bits != 32 && it.bits != 64) throw exec::Refusal("carry arithmetic on ." + std::string(ptx::type_name(t)));
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  uint128 in = carry_in && c.th.carry ? 1 : 0;
  uint128 wa = a & it.mask(), wb = b & it.mask();
  uint128 full = subtract ? wa - wb - in : wa + wb + in;
  uint64_t d = static_cast<uint64_t>(full) & it.mask();
  bool out = subtract ? wa < wb + in : (full >> it.bits) != 0;
  c.set(i.operands[0], Value::of_bits(d));
  if (i.has(Mod::Cc)) c.th.carry = out;
}

// d = lo or hi half of a * b, plus c (and the carry in for madc); the carry out with .cc.
void mad_with_carry(ExecContext& c, const Instr& i, bool carry_in) {
  Type t = i.type();
  IntT it(t);
  if (it.bits != 32 && it.bits != 64) throw exec::Refusal("carry arithmetic on ." + std::string(ptx::type_name(t)));
  uint64_t a = int_operand(c, i.operands[1], t), b = int_operand(c, i.operands[2], t);
  uint64_t addend = int_operand(c, i.operands[3], t) & it.mask();
  uint128 p = it.sgn ? static_cast<uint128>(static_cast<int128>(it.sx(a)) * it.sx(b))
                     : static_cast<uint128>(a & it.mask()) * (b & it.mask());
  uint128 half = (hi_mode(i) ? p >> it.bits : p) & it.mask();
  uint128 full = half + addend + (carry_in && c.th.carry ? 1 : 0);
  c.set(i.operands[0], Value::of_bits(static_cast<uint64_t>(full) & it.mask()));
  if (i.has(Mod::Cc)) c.th.carry = (full >> it.bits) != 0;
}

}  // namespace

void register_carry(exec::Semantics& s) {
  auto& st = s.step;
  st[size_t(ptx::Op::AddC)] = [](ExecContext& c, const Instr& i) { add_with_carry(c, i, false, true); };
  st[size_t(ptx::Op::SubC)] = [](ExecContext& c, const Instr& i) { add_with_carry(c, i, true, true); };
  st[size_t(ptx::Op::MadC)] = [](ExecContext& c, const Instr& i) { mad_with_carry(c, i, true); };
}

// The .cc forms of add, sub and mad, for integer.cpp.
void add_cc(ExecContext& c, const Instr& i) { add_with_carry(c, i, false, false); }
void sub_cc(ExecContext& c, const Instr& i) { add_with_carry(c, i, true, false); }
void mad_cc(ExecContext& c, const Instr& i) { mad_with_carry(c, i, false); }

}  // namespace racer::sem
