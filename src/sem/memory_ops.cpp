// Loads, stores, atomics and fences.
#include <span>
#include <tuple>
#include <utility>

#include "exec/float_bits_atomics.hpp"
#include "exec/indexed_address.hpp"
#include "exec/packed.hpp"
#include "exec/params.hpp"
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {

using exec::Space;


namespace {

unsigned access_size(Type t) {
  unsigned bits = ptx::type_bits(t);
  if (bits < 8 || bits > 64) throw exec::Refusal("accesses of ." + std::string(ptx::type_name(t)) + " are not modelled");
  return bits / 8;
}

Value load_param(ExecContext& c, const Instr& i, unsigned size, uint64_t extra) {
  const ptx::Operand& a = i.operands[1];
  const ptx::Operand& base = a.elems.at(0);
  if (base.kind != ptx::Operand::Kind::Symbol || base.symbol_kind != ptx::SymbolKind::Param ||
      base.index >= c.fn.params.size())
    throw exec::Refusal("ld.param from anything but a kernel parameter is not modelled");
  const auto& layout = c.memory().param_slots();
  return c.memory().load_param(c, i, layout[base.index].offset + static_cast<uint64_t>(a.value) + extra, size);
}

// How a load of integer type t (8 to 64 bits: access_size) into `dest` reads symbolic integer
// data (as the register will hold it): into a wider register it extends by its type (.s
// sign-extends; .u and .b zero-extend: an i8 cell read with ld.u8 is x mod 256, never negative);
// into a register of its own width any value with those bits will do (a bit type keeps a value
// that fits either signedness and wraps one that does not, such as a 64-bit value stored with
// st.u32).
Type load_view(const ExecContext& c, const ptx::Operand& dest, Type t) {
  const unsigned bits = ptx::type_bits(t);
  const bool wider = dest.kind == ptx::Operand::Kind::Reg && ptx::type_bits(c.fn.regs[dest.index].type) > bits;
  if (wider && ptx::type_class(t) == ptx::TypeClass::Signed) return t;
  switch (bits) {
    case 8: return wider ? Type::U8 : Type::B8;
    case 16: return wider ? Type::U16 : Type::B16;
    case 32: return wider ? Type::U32 : Type::B32;
    default: return wider ? Type::U64 : Type::B64;
  }
}

// A symbolic fp8 value (float data one byte wide) loaded into a wider register is lane 0 of a
// byte pair (exec/packed.hpp), so that the bit-level moves Triton and cuda_fp8.h make of it
// (masks, shifts by 8, or) and cvt.f16x2.e4m3x2 see its place; above it, zeros for .b8 and .u8,
// for .s8 its sign repeated (bits that must not be read).
Value as_byte_lane(ExecContext& c, const ptx::Operand& dest, Type t, Value v) {
  if (ptx::type_bits(t) != 8 || !v.is_symbolic() || v.integer || dest.kind != ptx::Operand::Kind::Reg ||
      ptx::type_bits(c.fn.regs[dest.index].type) <= 8)
    return v;
  const Value lanes = exec::low_byte(c.lanes(), v, ptx::type_class(t) != ptx::TypeClass::Signed);
  return ptx::type_bits(c.fn.regs[dest.index].type) == 16 ? exec::bytes_truncated(c.lanes(), lanes, 2) : lanes;
}

std::span<const ptx::Operand> elements(const ptx::Operand& op) {
  if (op.kind == ptx::Operand::Kind::Vector) return op.elems;
  return {&op, 1};
}

// An address whose base register holds integer data computed from symbolic inputs (an index
// read from memory): the machine enumerates the addresses it can name (exec/indexed_address.hpp).
// Null for any other address (address() reads its bits, or refuses float data).
std::shared_ptr<const exec::IndexedAddress> indexed(ExecContext& c, const Instr& i, const ptx::Operand& addr) {
  const ptx::Operand& base = addr.elems.at(0);
  if (base.kind != ptx::Operand::Kind::Reg || !c.th.regs[base.index].is_symbolic() || !c.th.regs[base.index].integer) return nullptr;
  Type rt = c.fn.regs[base.index].type;
  Value v = c.get(base, rt);
  if (!v.is_symbolic() || !v.integer) return nullptr;
  return c.memory().indexed_address(c, i, v, ptx::type_bits(rt), static_cast<uint64_t>(addr.value));
}

void ld(ExecContext& c, const Instr& i) {
  Type t = i.type();
  unsigned size = access_size(t);
  Space sp = space_of(i);
  auto dests = elements(i.operands[0]);
  IntT it(t);
  if (sp != Space::Param)
    if (auto a = indexed(c, i, i.operands[1])) {
      for (size_t k = 0; k < dests.size(); ++k) {
        Value v = c.memory().load_indexed(c, i, sp, a, k * size, size, t);
        if (v.is_concrete() && it.sgn) v.bits = it.ext(v.bits);
        c.set(dests[k], as_byte_lane(c, dests[k], t, v));
      }
      return;
    }
  for (size_t k = 0; k < dests.size(); ++k) {
    Value v = sp == Space::Param ? load_param(c, i, size, k * size)
                                 : c.memory().load(c, i, sp, c.address(i.operands[1]) + k * size, size, t);
    if (v.is_concrete() && it.sgn) v.bits = it.ext(v.bits);  // ld.s8 into a wider register sign-extends
    if (v.is_symbolic() && v.integer && ptx::is_integer(t)) v = c.dom.as_stored_integer(v, load_view(c, dests[k], t));
    c.set(dests[k], as_byte_lane(c, dests[k], t, v));
  }
}

void st(ExecContext& c, const Instr& i) {
  Type t = i.type();
  unsigned size = access_size(t);
  Space sp = space_of(i);
  if (sp == Space::Param || sp == Space::Const) throw exec::Refusal("stores to the parameter or constant space");
  auto srcs = elements(i.operands[1]);
  // st.b8 of a register holding byte lanes stores lane 0, as the hardware keeps the low byte.
  auto value = [&](size_t k) {
    Value v = c.get(srcs[k], t);
    return size == 1 && v.holds_bytes() ? exec::byte_lane(c.lanes(), v, 0) : v;
  };
  if (auto a = indexed(c, i, i.operands[0])) {
    for (size_t k = 0; k < srcs.size(); ++k) c.memory().store_indexed(c, i, sp, a, k * size, size, value(k), t);
    return;
  }
  uint64_t addr = c.address(i.operands[0]);
  for (size_t k = 0; k < srcs.size(); ++k) c.memory().store(c, i, sp, addr + k * size, size, value(k), t);
}

// Float data through an integer atomic (exec/float_bits_atomics.hpp): the float operation and
// type a symbolic float's atomic is where its sign is the one the integer type's order needs,
// known everywhere or where the atomic runs (its guard is that very sign test, as Triton's is;
// float_bits_compare in sem/compare.cpp makes such guards); none for any other atomic.
std::optional<std::pair<uint8_t, Type>> float_extreme_by_bits(ExecContext& c, uint8_t op, Type t, Value v) {
  const std::optional<uint8_t> f = exec::float_extreme_op(op, t);
  if (!f || !v.is_symbolic() || v.integer || v.holds_lanes()) return std::nullopt;
  const bool as_signed = exec::is_signed_view(t);
  const Type ft = exec::float_of_width(t);
  Value sign = c.dom.fcmp(as_signed ? ptx::cmp::GE : ptx::cmp::LT, ft, v, Value::of_bits(0), false);
  const bool known = sign.is_concrete() ? (sign.bits & 1) != 0 : c.guard.is_symbolic() && c.guard.sym == sign.sym;
  if (!known)
    throw exec::Refusal(std::string("atom.") + (op == ptx::atomop::MAX ? "max" : "min") + (as_signed ? ".s" : ".u") +
                        " of a float's bits whose sign is not known to be " + (as_signed ? "clear" : "set") +
                        " (the order of the bits is then not the floats' order)");
  return std::pair{*f, ft};
}

// The operand of a guarded atomic whose guard is symbolic: select(guard, v, the operation's
// identity), so that running it unguarded has its effect where the guard holds and none where
// it fails (add 0, max -inf or the type's least, min +inf or its greatest). Bitwise
// operations and an old value the program reads are refused.
Value where_guarded(ExecContext& c, uint8_t op, Type t, Value v) {
  using namespace ptx::atomop;
  if (op != ADD && op != MIN && op != MAX) throw exec::Refusal("a bitwise atomic under a guard on symbolic data");
  const unsigned w = ptx::type_bits(t);
  uint64_t identity = 0;
  if (ptx::is_float(t)) {
    if (w != 32 && w != 64) throw exec::Refusal("a guarded atomic on ." + std::string(ptx::type_name(t)) + " data under a guard on symbolic data");
    if (op != ADD) identity = ieee::infinity(exec::format_of_width(t), op == MAX);
    return c.dom.select(c.guard, c.dom.as_number(v, t), c.dom.as_number(Value::of_bits(identity), t));
  }
  const bool sgn = ptx::type_class(t) == ptx::TypeClass::Signed;
  const uint64_t all = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1, top = uint64_t{1} << (w - 1);
  if (op == MAX) identity = sgn ? top : 0;
  if (op == MIN) identity = sgn ? top - 1 : all;
  return c.dom.select(c.guard, c.dom.as_integer(v, t), c.dom.as_integer(Value::of_bits(identity), t));
}

// atom.cas d, [a], b, c and atom.exch d, [a], b: the old value is read, so they run where they
// are, on a cell one thread alone swaps (exec/ports.hpp swap_atomic): a lock taken and released.
void swap(ExecContext& c, const Instr& i, bool cas) {
  Type t = i.type();
  if (i.operands.size() != (cas ? 4u : 3u)) throw exec::Refusal("an atomic swap with the wrong number of operands");
  if (!c.guard.is_concrete()) throw exec::Refusal("a compare-and-swap or exchange under a guard on symbolic data");
  if (indexed(c, i, i.operands[1])) throw exec::Refusal("a compare-and-swap or exchange at a data-dependent address");
  std::optional<Value> expected;
  if (cas) expected = c.get(i.operands[2], t);
  Value desired = c.get(i.operands[cas ? 3 : 2], t);
  c.set(i.operands[0], c.memory().swap_atomic(c, i, space_of(i), c.address(i.operands[1]), access_size(t), t, expected, desired));
}

void atom(ExecContext& c, const Instr& i) {
  Type t = i.type();
  if (i.has(Mod::Vec)) throw exec::Refusal("vector atomics are not modelled");
  bool red = i.op == ptx::Op::Red;
  const ptx::Operand& addr = i.operands[red ? 0 : 1];
  uint8_t op = i.mod(Mod::AtomOp);
  if (!red && (op == ptx::atomop::CAS || op == ptx::atomop::EXCH)) {
    swap(c, i, op == ptx::atomop::CAS);
    return;
  }
  Value v = c.get(i.operands[red ? 1 : 2], t);
  if (auto view = float_extreme_by_bits(c, op, t, v)) std::tie(op, t) = *view;
  if (!c.guard.is_concrete()) v = where_guarded(c, op, t, v);
  if (auto a = indexed(c, i, addr)) c.memory().atomic_indexed(c, i, space_of(i), a, access_size(t), op, t, v);
  else c.memory().atomic(c, i, space_of(i), c.address(addr), access_size(t), op, t, v);
  // The old value depends on the order in which threads reach the cell: it must not be used.
  if (!red) c.set(i.operands[0], Value::poison());
}

void no_effect(ExecContext&, const Instr&) {}

// createpolicy: an opaque cache-eviction policy that loads and stores take as a hint
// (.L2::cache_hint, Triton's eviction_policy=). Hints change no value, so every policy is
// the same constant here; a program that computes with it as data gets that constant.
void createpolicy(ExecContext& c, const Instr& i) { c.set(i.operands[0], Value::of_bits(0)); }

}  // namespace

void register_memory(exec::Semantics& s) {
  auto& st_ = s.step;
  st_[size_t(ptx::Op::Ld)] = ld;
  st_[size_t(ptx::Op::Ldu)] = ld;
  st_[size_t(ptx::Op::St)] = st;
  st_[size_t(ptx::Op::Atom)] = atom;
  st_[size_t(ptx::Op::Red)] = atom;
  // Fences order memory for other observers; Racer's ordering comes from barriers alone,
  // so a fence changes nothing here (races it would not fix are still reported).
  st_[size_t(ptx::Op::Fence)] = no_effect;
  st_[size_t(ptx::Op::Membar)] = no_effect;
  st_[size_t(ptx::Op::Prefetch)] = no_effect;
  st_[size_t(ptx::Op::Prefetchu)] = no_effect;
  st_[size_t(ptx::Op::Createpolicy)] = createpolicy;
}

}  // namespace racer::sem
