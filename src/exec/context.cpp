// Reading and writing operands for the instruction semantics.
#include <cstring>

#include "exec/machine.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

uint64_t mask_bits(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

}  // namespace

std::vector<uint64_t> register_masks(const ptx::Function& fn) {
  std::vector<uint64_t> masks;
  masks.reserve(fn.regs.size());
  for (const ptx::Register& r : fn.regs) masks.push_back(mask_bits(ptx::type_bits(r.type)));  // (a predicate's: 1 bit)
  return masks;
}

namespace {

// A decimal float literal is a double; an f32 instruction reads it rounded to f32.
uint64_t float_literal_as(const ptx::Operand& op, ptx::Type t) {
  uint64_t raw = static_cast<uint64_t>(op.value);
  unsigned want = ptx::type_bits(t);
  if (op.float_bits == 32 || want == 64 || !ptx::is_float(t)) return raw;
  double d;
  std::memcpy(&d, &raw, sizeof d);
  if (t == ptx::Type::F32) {
    float f = static_cast<float>(d);
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  }
  throw Refusal("a 64-bit float literal used as ." + std::string(ptx::type_name(t)));
}

}  // namespace

Value ExecContext::read_operand(const ptx::Operand& op, ptx::Type t) {
  using K = ptx::Operand::Kind;
  switch (op.kind) {
    case K::Reg: {
      Value v = th.regs[op.index];
      if (th.pending_regs) [[unlikely]] v = m.async_.pending_register_access(*this, op.index, v, false);
      if (!th.unread_loads.empty()) [[unlikely]] m.register_read(*this, op.index);
      if (v.is_poison())
        throw Refusal("reads " + fn.regs[op.index].name + ", a value with no model: the old value returned by an atomic (it depends "
                      "on the order of atomics), or local scratch memory a recognized routine's stepped-over stores wrote");
      if (v.is_deferred()) [[unlikely]] {
        v = dom.settle(v);
        th.regs[op.index] = v;
      }
      if (v.is_concrete()) v.bits &= reg_mask_[op.index];
      if (op.negated) {
        if (v.is_concrete()) return Value::of_bits(v.bits ^ 1);
        return dom.pred(PredOp::Not, v, {});
      }
      return v;
    }
    case K::Imm: {
      unsigned bits = t == ptx::Type::None ? 64 : ptx::type_bits(t);
      if (ptx::is_float(t)) {
        // An integer literal in a float instruction is the float with those bits (PTX reads
        // 0 as 0.0 since the patterns agree).
        return Value::of_bits(static_cast<uint64_t>(op.value) & mask_bits(bits));
      }
      return Value::of_bits(static_cast<uint64_t>(op.value) & mask_bits(bits == 1 ? 1 : bits));
    }
    case K::FloatImm: return Value::of_bits(float_literal_as(op, t));
    case K::Special: {
      auto sr = static_cast<ptx::SpecialReg>(op.index);
      uint32_t c = op.component ? op.component - 1u : 0u;
      const LaunchSpec& l = m.current_launch();
      auto pick = [&](uint32_t x, uint32_t y, uint32_t z) { return Value::of_bits(c == 0 ? x : c == 1 ? y : z); };
      switch (sr) {
        case ptx::SpecialReg::Tid: return Value::of_bits(th.tid[c]);
        case ptx::SpecialReg::Ntid: return pick(l.block.x, l.block.y, l.block.z);
        case ptx::SpecialReg::Ctaid: return Value::of_bits(cta.ctaid[c]);
        case ptx::SpecialReg::Nctaid: return pick(l.grid.x, l.grid.y, l.grid.z);
        case ptx::SpecialReg::Laneid: return Value::of_bits(th.lane);
        case ptx::SpecialReg::Warpid: return Value::of_bits(th.warp);
        case ptx::SpecialReg::Nwarpid: return Value::of_bits((cta.threads.size() + 31) / 32);
        case ptx::SpecialReg::LanemaskEq: return Value::of_bits(uint64_t{1} << th.lane);
        case ptx::SpecialReg::LanemaskLt: return Value::of_bits((uint64_t{1} << th.lane) - 1);
        case ptx::SpecialReg::LanemaskLe: return Value::of_bits((uint64_t{2} << th.lane) - 1);
        case ptx::SpecialReg::LanemaskGt: return Value::of_bits(~((uint64_t{2} << th.lane) - 1) & 0xFFFFFFFFu);
        case ptx::SpecialReg::LanemaskGe: return Value::of_bits(~((uint64_t{1} << th.lane) - 1) & 0xFFFFFFFFu);
        case ptx::SpecialReg::DynamicSmemSize: return Value::of_bits(l.dynamic_shared_bytes);
        case ptx::SpecialReg::TotalSmemSize: return Value::of_bits(cta.shared->size);
        case ptx::SpecialReg::ClusterCtaid:
        case ptx::SpecialReg::ClusterNctaid:
        case ptx::SpecialReg::ClusterCtarank:
        case ptx::SpecialReg::ClusterNctarank:
        case ptx::SpecialReg::Clusterid:
        case ptx::SpecialReg::Nclusterid:
        case ptx::SpecialReg::IsExplicitCluster: return m.clusters_.special(*this, sr, c);
        default:
          throw Refusal("reads " + std::string(ptx::special_reg_name(sr)) +
                        ", whose value depends on the hardware and the schedule");
      }
    }
    case K::Symbol: {
      // The address of a variable.
      switch (op.symbol_kind) {
        case ptx::SymbolKind::ModuleVar: {
          const ptx::Variable& v = mod.vars[op.index];
          if (v.space == ptx::Space::Shared) return Value::of_bits(Machine::kSharedBase + m.storage_.module_shared_offset(op.index));
          return Value::of_bits(m.storage_.module_var_address(op.index));
        }
        case ptx::SymbolKind::LocalVar: {
          const ptx::Variable& v = fn.vars[op.index];
          if (v.space == ptx::Space::Shared) return Value::of_bits(Machine::kSharedBase + m.storage_.function_var_offset(op.index));
          if (v.space == ptx::Space::Local) return Value::of_bits(Machine::kLocalBase + m.storage_.function_var_offset(op.index));
          throw Refusal("takes the address of ." + std::string(ptx::space_name(v.space)) + " variable " + v.name);
        }
        case ptx::SymbolKind::Param:
          // A kernel parameter's address in the param space (a tensor map passed by value).
          if (op.index < m.param_slots().size() && &fn == &m.current_launch().module->functions[m.current_launch().function])
            return Value::of_bits(m.param_slots()[op.index].offset);
          throw Refusal("takes the address of a parameter of a function other than the kernel");
        default: throw Refusal("takes the address of a function");
      }
    }
    case K::Vector: throw Refusal("a vector operand where a scalar is expected");
    default: throw Refusal("unsupported operand form");
  }
}

Value ExecContext::accumulator(const ptx::Operand& op, ptx::Type t) {
  if (op.kind != ptx::Operand::Kind::Reg || op.negated || !th.regs[op.index].is_deferred()) return get(op, t);
  return th.regs[op.index];  // (may_defer: no pending register, no load being replaced)
}

void settle_deferred(Thread& th, Domain& dom) {
  if (!th.holds_deferred) return;
  for (Value& r : th.regs)
    if (r.is_deferred()) r = dom.settle(r);
  th.holds_deferred = false;
}

uint64_t ExecContext::get_bits(const ptx::Operand& op, ptx::Type t) {
  Value v = get(op, t);
  if (v.is_concrete()) return v.bits;
  if (auto b = dom.bits(v, t)) return *b;
  throw Refusal("needs the bits of a value that depends on symbolic data");
}

void ExecContext::set(const ptx::Operand& op, Value v) {
  using K = ptx::Operand::Kind;
  if (op.kind == K::Sink) return;
  if (op.kind != K::Reg) throw Refusal("destination is not a register");
  if (th.pending_regs) [[unlikely]] m.async_.pending_register_access(*this, op.index, v, true);
  if (v.is_concrete()) v.bits &= reg_mask_[op.index];
  // Field by field: a whole-struct copy of v (13 bytes of data) is two overlapping 8-byte
  // moves, and the second one's load from v, just written field by field, cannot be forwarded
  // from those stores (a stall on every register write).
  Value& reg = th.regs[op.index];
  reg.bits = v.bits, reg.sym = v.sym, reg.integer = v.integer;
  if (v.is_deferred()) th.holds_deferred = true;
  th.def_pc[op.index] = th.pc - 1;
  if (th.loading || !th.unread_loads.empty()) [[unlikely]] m.register_written(*this, op.index);
}

uint64_t ExecContext::address(const ptx::Operand& addr) {
  const ptx::Operand& base = addr.elems.at(0);
  uint64_t b = 0;
  switch (base.kind) {
    case ptx::Operand::Kind::Reg: b = get_bits(base, fn.regs[base.index].type); break;
    case ptx::Operand::Kind::Imm: b = static_cast<uint64_t>(base.value); break;
    case ptx::Operand::Kind::Symbol:
      if (base.symbol_kind == ptx::SymbolKind::Param) throw Refusal("parameter address outside ld.param");
      b = get(base, ptx::Type::U64).bits;
      break;
    default: throw Refusal("unsupported address form");
  }
  return b + static_cast<uint64_t>(addr.value);
}

}  // namespace racer::exec
