// mov (including packing and unpacking register halves), cvt and cvta.
#include <algorithm>

#include "exec/packed.hpp"
#include "exec/word_halves.hpp"
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

void mov(ExecContext& c, const Instr& i) {
  Type t = i.type();
  const ptx::Operand& d = i.operands[0];
  const ptx::Operand& s = i.operands[1];
  unsigned bits = ptx::type_bits(t);
  if (d.kind == ptx::Operand::Kind::Vector && bits == 32 && d.elems.size() == 2 && s.kind == ptx::Operand::Kind::Reg &&
      c.async().is_pending_accumulator(c, s.index)) {
    // The halves of a wgmma accumulator before the wait (exec/async_registers.cpp): its value,
    // which the wgmma already wrote, the halves pending with it.
    const auto lanes = exec::split_halves(c.lanes(), c.th.regs[s.index]);
    c.set(d.elems[0], lanes[0]);
    c.set(d.elems[1], lanes[1]);
    c.async().pend_halves(c, i, s.index, d.elems[0].index, d.elems[1].index);
    return;
  }
  if (d.kind == ptx::Operand::Kind::Vector && bits == 32 && d.elems.size() == 2) {
    if (Value v = c.get(s, t); !v.is_concrete()) {
      auto lanes = exec::split_halves(c.lanes(), v);
      c.set(d.elems[0], lanes[0]);
      c.set(d.elems[1], lanes[1]);
      return;
    }
  }
  if (s.kind == ptx::Operand::Kind::Vector && bits == 32 && s.elems.size() == 2) {
    Value lo = c.get(s.elems[0], Type::B16), hi = c.get(s.elems[1], Type::B16);
    if (!lo.is_concrete() || !hi.is_concrete()) {
      c.set(d, exec::join_halves(c.lanes(), lo, hi));
      return;
    }
  }
  if (d.kind == ptx::Operand::Kind::Vector && bits == 64 && d.elems.size() == 2) {
    if (Value v = c.get(s, t); !bits_view(c, v, t).is_concrete()) {
      auto words = exec::words_split(v);
      c.set(d.elems[0], words[0]);
      c.set(d.elems[1], words[1]);
      return;
    }
  }
  if (s.kind == ptx::Operand::Kind::Vector && bits == 64 && s.elems.size() == 2) {
    Value lo = c.get(s.elems[0], Type::B32), hi = c.get(s.elems[1], Type::B32);
    if (!lo.is_concrete() || !hi.is_concrete()) {
      auto v = exec::words_joined(lo, hi);
      if (!v) throw exec::Refusal("joins into 64 bits 32-bit words that are not the two words of one value");
      c.set(d, *v);
      return;
    }
  }
  if (d.kind == ptx::Operand::Kind::Vector) {
    uint64_t v = c.get_bits(s, t);
    unsigned part = bits / static_cast<unsigned>(d.elems.size());
    for (size_t k = 0; k < d.elems.size(); ++k)
      c.set(d.elems[k], Value::of_bits((v >> (part * k)) & ((uint64_t{1} << part) - 1)));
    return;
  }
  if (s.kind == ptx::Operand::Kind::Vector) {
    unsigned part = bits / static_cast<unsigned>(s.elems.size());
    Type pt = part == 8 ? Type::B8 : part == 16 ? Type::B16 : Type::B32;
    uint64_t v = 0;
    for (size_t k = 0; k < s.elems.size(); ++k) v |= (c.get_bits(s.elems[k], pt) & ((uint64_t{1} << part) - 1)) << (part * k);
    c.set(d, Value::of_bits(v));
    return;
  }
  c.set(d, c.get(s, t));
}

// An integer cvt of a register holding a 32-bit word of a 64-bit value, or taking the low word
// of a symbolic f64 (exec/word_halves.hpp): narrowed to 32 bits, the low word; widened from an
// unsigned type, zeros above. A sign extension or a saturation reads the word's bits: refused.
Value word_converted(const Instr& i, Type dt, Type st, Value a) {
  const unsigned to = ptx::type_bits(dt), from = ptx::type_bits(st);
  if (i.has(Mod::Sat) || (to > from && ptx::type_class(st) == ptx::TypeClass::Signed) || to < 32 || from < 32)
    throw exec::Refusal("a conversion that reads the bits of a 32-bit word of a 64-bit value");
  return to < from ? exec::word_truncated(a) : a;
}

void cvt(ExecContext& c, const Instr& i) {
  Type dt = i.type(0), st = i.type(1);
  if ((is_packed_half(dt) || is_packed_byte(dt)) && st == Type::F32 && i.operands.size() == 3) {
    // cvt.rn.f16x2.f32 d, a, b (and bf16x2, e4m3x2, e5m2x2): a into the upper lane, b into the lower.
    Value hi = c.dom.cvt(lane_type(dt), st, c.get(i.operands[1], st), float_mods(i));
    Value lo = c.dom.cvt(lane_type(dt), st, c.get(i.operands[2], st), float_mods(i));
    const Value pair[2] = {lo, hi};
    c.set(i.operands[0], is_packed_half(dt) ? exec::pack_halves(lo, hi) : exec::pack_bytes(c.lanes(), pair));
    return;
  }
  if (is_packed_half(dt) && is_packed_byte(st) && i.operands.size() == 2) {
    // cvt.rn.f16x2.e4m3x2 d, a: each byte widened (exactly) into the half at its place.
    Value a = c.get(i.operands[1], Type::B16);
    Value lo = c.dom.cvt(lane_type(dt), lane_type(st), exec::byte_lane(c.lanes(), a, 0), float_mods(i));
    Value hi = c.dom.cvt(lane_type(dt), lane_type(st), exec::byte_lane(c.lanes(), a, 1), float_mods(i));
    c.set(i.operands[0], exec::pack_halves(lo, hi));
    return;
  }
  if (i.operands.size() > 2 || is_packed_half(dt) || is_packed_half(st) || is_packed_byte(dt) || is_packed_byte(st)) refuse_packed(i);
  Value a = c.get(i.operands[1], st);
  if (a.is_packed() && !i.has(Mod::Sat) && ptx::type_bits(dt) == 16 && ptx::type_bits(st) == 32 && !ptx::is_float(dt) && !ptx::is_float(st)) {
    // cvt.u16.u32 of two halves keeps the low one (cuda_fp8.h's fp8 -> half path).
    c.set(i.operands[0], exec::unpack_halves(a)[0]);
    return;
  }
  if (a.is_symbolic() && !a.integer && !i.has(Mod::Sat) && ptx::type_bits(st) == 16 && ptx::type_bits(dt) == 32 &&
      ptx::is_integer(dt) && ptx::is_integer(st) && ptx::type_class(st) != ptx::TypeClass::Signed) {
    // cvt.u32.u16 of a half's bits (Triton widens an f16 partial sum to shuffle it as 32 bits):
    // the half as the low lane, zeros above; cvt.u16.u32 above takes it back. A sign extension
    // would read the half's sign bit: refused below.
    c.set(i.operands[0], exec::pack_halves(a, Value::of_bits(0)));
    return;
  }
  if (a.holds_bytes() && !i.has(Mod::Sat) && ptx::is_integer(dt) && ptx::is_integer(st) &&
      (ptx::type_bits(dt) <= ptx::type_bits(st) || ptx::type_class(st) != ptx::TypeClass::Signed)) {
    // Byte lanes narrowed keep their low lanes, with the top kept lane's sign above them up to
    // the register's width for a signed type (unknown for a symbolic lane: not to be read);
    // widened from an unsigned type, zeros above.
    const unsigned kept = std::min(ptx::type_bits(dt), ptx::type_bits(st)) / 8;
    const ptx::Operand& d = i.operands[0];
    const unsigned signed_to =
        ptx::type_class(dt) == ptx::TypeClass::Signed && d.kind == ptx::Operand::Kind::Reg ? ptx::type_bits(c.fn.regs[d.index].type) / 8 : 0;
    c.set(d, exec::bytes_truncated(c.lanes(), a, kept, signed_to));
    return;
  }
  if (const bool integers = ptx::is_integer(dt) && ptx::is_integer(st);
      integers && (a.is_word() || (ptx::type_bits(st) == 64 && ptx::type_bits(dt) == 32 && !bits_view(c, a, st).is_concrete() && !a.integer && !a.holds_lanes()))) {
    c.set(i.operands[0], word_converted(i, dt, st, a));
    return;
  }
  if (ptx::is_float(dt) || ptx::is_float(st)) {
    c.set(i.operands[0], c.dom.cvt(dt, st, a, float_mods(i)));
    return;
  }
  if (!a.is_concrete()) {
    if (i.has(Mod::Sat)) throw exec::Refusal("saturating conversion of symbolic integer data");
    c.set(i.operands[0], c.dom.cvt(dt, st, a, float_mods(i)));
    return;
  }
  IntT src(st), dst(dt);
  uint64_t v = src.ext(a.bits);
  if (i.has(Mod::Sat)) {
    // Clamp the source value to the destination's range.
    int128 x = src.sgn ? static_cast<int128>(static_cast<int64_t>(v)) : static_cast<int128>(v);
    int128 lo = dst.sgn ? -(static_cast<int128>(1) << (dst.bits - 1)) : 0;
    int128 hi = dst.sgn ? (static_cast<int128>(1) << (dst.bits - 1)) - 1 : (static_cast<int128>(1) << dst.bits) - 1;
    v = static_cast<uint64_t>(x < lo ? lo : x > hi ? hi : x);
  }
  // A signed result in a register wider than its type is sign-extended (PTX's rule for a
  // destination wider than the instruction type; set() keeps the register's width).
  c.set(i.operands[0], Value::of_bits(dst.ext(v)));
}

void cvta(ExecContext& c, const Instr& i) {
  ptx::Space sp = ptx::Space::Global;
  if (i.has(Mod::Space)) {
    auto name = ptx::mod_values(Mod::Space)[i.mod(Mod::Space)];
    // A generic address in the shared window may name any CTA of the cluster (exec/cluster.hpp).
    if (name == "shared" || name == "shared::cta" || name == "shared::cluster") sp = ptx::Space::Shared;
    else if (name == "local") sp = ptx::Space::Local;
    else if (name == "param") sp = ptx::Space::Param;
    else if (name != "global") throw exec::Refusal("cvta for ." + std::string(name) + " is not modelled");
  }
  if (sp == ptx::Space::Param && i.has(Mod::To)) throw exec::Refusal("cvta.to.param is not modelled");
  uint64_t window = sp == ptx::Space::Shared ? exec::Machine::kSharedWindow
                    : sp == ptx::Space::Local ? exec::Machine::kLocalWindow
                    : sp == ptx::Space::Param ? exec::Machine::kParamWindow
                                              : 0;
  // A global address is its generic address: a pointer chosen by a comparison on symbolic data
  // (nvcc's selp.b64 of two tensors' addresses) passes unchanged to the load that reads it.
  if (window == 0 && IntT(i.type()).bits == 64) {
    c.set(i.operands[0], c.get(i.operands[1], i.type()));
    return;
  }
  uint64_t a = c.get_bits(i.operands[1], i.type());
  uint64_t r = i.has(Mod::To) ? a - window : a + window;
  c.set(i.operands[0], Value::of_bits(r & IntT(i.type()).mask()));
}

}  // namespace

void register_move(exec::Semantics& s) {
  s.step[size_t(ptx::Op::Mov)] = mov;
  s.step[size_t(ptx::Op::Cvt)] = cvt;
  s.step[size_t(ptx::Op::Cvta)] = cvta;
}

}  // namespace racer::sem
