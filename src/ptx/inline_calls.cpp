#include "ptx/inline_calls.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "ptx/modifiers.hpp"

namespace racer::ptx {
namespace {

using Pos = std::pair<uint32_t, uint32_t>;

// What runs of a function: its body with every call inlined, and where each instruction was.
struct Body {
  std::vector<Register> regs;
  std::vector<Variable> vars;
  std::vector<Instr> instrs;
  std::vector<Label> labels;
  std::vector<DebugLoc> locs;
  std::vector<Pos> pos;
};

bool is_space(const Instr& I, std::string_view space) {
  return I.has(Mod::Space) && mod_values(Mod::Space)[I.mod(Mod::Space)] == space;
}

// The .param variable an ld.param/st.param addresses directly, at offset 0: its symbol.
const Operand* param_symbol(const Instr& I) {
  if ((I.op != Op::Ld && I.op != Op::St) || !is_space(I, "param") || I.operands.size() != 2) return nullptr;
  const Operand& a = I.operands[I.op == Op::Ld ? 1 : 0];
  if (a.kind != Operand::Kind::Address || a.elems.size() != 1 || a.value != 0) return nullptr;
  const Operand& base = a.elems[0];
  if (base.kind != Operand::Kind::Symbol) return nullptr;
  return &base;
}

// A .param variable that is one scalar of 16, 32 or 64 bits.
bool scalar_param(const Variable& v) {
  unsigned w = type_bits(v.type);
  return !v.has_dims && v.vec == 0 && (w == 16 || w == 32 || w == 64);
}

// Whether an operand names a .param variable of the function's body (a call sequence's).
bool names_local_param(const Operand& o, const std::vector<Variable>& vars) {
  if (o.kind == Operand::Kind::Symbol && o.symbol_kind == SymbolKind::LocalVar && o.index < vars.size() &&
      vars[o.index].space == Space::Param)
    return true;
  for (const Operand& e : o.elems)
    if (names_local_param(e, vars)) return true;
  return false;
}

Type bits_type(unsigned width) { return width == 16 ? Type::B16 : width == 32 ? Type::B32 : Type::B64; }

Operand reg_operand(uint32_t r) {
  Operand o;
  o.kind = Operand::Kind::Reg;
  o.index = r;
  return o;
}

// mov.bN d, s: a whole-register copy, the meaning of a scalar .param access.
Instr mov(const Instr& like, Operand d, Operand s) {
  Instr m;
  m.op = Op::Mov;
  m.types[0] = bits_type(type_bits(like.type()));
  m.num_types = 1;
  m.has_guard = like.has_guard;
  m.guard_negated = like.guard_negated;
  m.guard = like.guard;
  m.operands = {std::move(d), std::move(s)};
  m.debug_loc = like.debug_loc;
  return m;
}

class Inliner {
 public:
  Inliner(const Module& m, const SourceMap& map) : m_(m), map_(map) {}

  // f with its calls inlined; nullopt where a call cannot be inlined exactly.
  std::optional<Body> expanded(uint32_t fi) {
    if (auto it = done_.find(fi); it != done_.end()) return it->second;
    if (!active_.insert(fi).second) return std::nullopt;  // recursion
    std::optional<Body> b = expand(fi);
    active_.erase(fi);
    return done_[fi] = b;
  }

 private:
  // The register standing for a call sequence's .param variable (created on first use).
  std::optional<uint32_t> slot(Body& b, std::map<uint32_t, uint32_t>& slots, uint32_t var) {
    if (var >= b.vars.size() || b.vars[var].space != Space::Param || !scalar_param(b.vars[var])) return std::nullopt;
    auto [it, fresh] = slots.try_emplace(var, static_cast<uint32_t>(b.regs.size()));
    if (fresh) b.regs.push_back({b.vars[var].name + "$param", b.vars[var].type});
    return it->second;
  }

  std::optional<Body> expand(uint32_t fi) {
    const Function& f = m_.functions[fi];
    if (!f.has_body) return std::nullopt;
    Body out{f.regs, f.vars, {}, f.labels, f.debug_locs, {}};
    std::map<uint32_t, uint32_t> slots;
    std::vector<uint32_t> new_index(f.instrs.size() + 1, 0);
    for (uint32_t k = 0; k < f.instrs.size(); ++k) {
      new_index[k] = static_cast<uint32_t>(out.instrs.size());
      const Instr& I = f.instrs[k];
      Pos at = fi < map_.instr_pos.size() && k < map_.instr_pos[fi].size() ? map_.instr_pos[fi][k] : Pos{0, 0};
      if (I.op == Op::Call) {
        if (!inline_call(out, slots, I, at)) return std::nullopt;
        continue;
      }
      const Operand* p = param_symbol(I);
      if (p && p->symbol_kind == SymbolKind::LocalVar) {
        // An argument stored into, or a result loaded from, a call sequence's variable.
        auto r = slot(out, slots, p->index);
        if (!r || type_bits(I.type()) != type_bits(out.vars[p->index].type)) return std::nullopt;
        out.instrs.push_back(I.op == Op::St ? mov(I, reg_operand(*r), I.operands[1]) : mov(I, I.operands[0], reg_operand(*r)));
      } else {
        // Any other use of a call sequence's variable (at an offset, its address) is not a move.
        for (const Operand& o : I.operands)
          if (names_local_param(o, f.vars)) return std::nullopt;
        out.instrs.push_back(I);
      }
      out.pos.push_back(at);
    }
    new_index[f.instrs.size()] = static_cast<uint32_t>(out.instrs.size());
    for (size_t l = 0; l < f.labels.size(); ++l) out.labels[l].target = new_index[f.labels[l].target];
    return out;
  }

  // Appends the callee's expanded body in place of `call`: true when done exactly.
  bool inline_call(Body& out, std::map<uint32_t, uint32_t>& slots, const Instr& call, Pos at) {
    if (call.has_guard) return false;
    size_t fpos = call.operands.size();
    for (size_t i = 0; i < call.operands.size(); ++i)
      if (call.operands[i].kind == Operand::Kind::Symbol && call.operands[i].symbol_kind == SymbolKind::Function) fpos = i;
    if (fpos == call.operands.size() || fpos > 1 || call.operands.size() > fpos + 2) return false;
    const uint32_t ci = call.operands[fpos].index;
    const Function& callee = m_.functions[ci];
    // The call sequence's variables for the results (before the callee) and arguments (after).
    auto vars_of = [&](std::optional<size_t> i, std::vector<uint32_t>& regs) {
      if (!i) return true;
      const Operand& list = call.operands[*i];
      if (list.kind != Operand::Kind::ParenList) return false;
      for (const Operand& e : list.elems) {
        if (e.kind != Operand::Kind::Symbol || e.symbol_kind != SymbolKind::LocalVar) return false;
        auto r = slot(out, slots, e.index);
        if (!r) return false;
        regs.push_back(*r);
      }
      return true;
    };
    std::vector<uint32_t> rets, args;
    if (!vars_of(fpos == 1 ? std::optional<size_t>(0) : std::nullopt, rets) ||
        !vars_of(call.operands.size() > fpos + 1 ? std::optional<size_t>(fpos + 1) : std::nullopt, args))
      return false;
    if (args.size() != callee.params.size() || rets.size() != callee.returns.size()) return false;
    for (size_t i = 0; i < args.size(); ++i)
      if (!scalar_param(callee.params[i]) || type_bits(callee.params[i].type) != type_bits(out.regs[args[i]].type)) return false;
    for (size_t i = 0; i < rets.size(); ++i)
      if (!scalar_param(callee.returns[i]) || type_bits(callee.returns[i].type) != type_bits(out.regs[rets[i]].type)) return false;
    std::optional<Body> body = expanded(ci);
    if (!body) return false;

    const uint32_t reg_base = static_cast<uint32_t>(out.regs.size()), var_base = static_cast<uint32_t>(out.vars.size());
    const uint32_t label_base = static_cast<uint32_t>(out.labels.size()), loc_base = static_cast<uint32_t>(out.locs.size());
    const uint32_t start = static_cast<uint32_t>(out.instrs.size());
    const uint32_t site = call_sites_++;
    for (Register r : body->regs) {
      r.name += "$" + callee.name + "$" + std::to_string(site);
      out.regs.push_back(std::move(r));
    }
    out.vars.insert(out.vars.end(), body->vars.begin(), body->vars.end());
    for (Label l : body->labels) {
      l.target += start;
      out.labels.push_back(std::move(l));
    }
    out.locs.insert(out.locs.end(), body->locs.begin(), body->locs.end());
    const uint32_t end_label = static_cast<uint32_t>(out.labels.size());
    out.labels.push_back({"$L__return$" + callee.name + "$" + std::to_string(site), 0});

    bool exact = true;
    auto remap = [&](auto& self, Operand& o) -> void {
      if (o.kind == Operand::Kind::Reg) o.index += reg_base;
      if (o.kind == Operand::Kind::Symbol) {
        if (o.symbol_kind == SymbolKind::LocalVar) o.index += var_base;
        else if (o.symbol_kind == SymbolKind::Label) o.index += label_base;
        else if (o.symbol_kind == SymbolKind::Param) exact = false;  // a parameter used otherwise
      }
      for (Operand& e : o.elems) self(self, e);
    };
    for (size_t j = 0; j < body->instrs.size(); ++j) {
      Instr C = body->instrs[j];
      const Operand* p = param_symbol(C);
      const bool own_param = p && p->symbol_kind == SymbolKind::Param;
      const uint32_t pi = own_param ? p->index : 0;
      if (C.has_guard) C.guard += reg_base;
      if (C.debug_loc >= 0) C.debug_loc += static_cast<int32_t>(loc_base);
      if (own_param) {
        // The callee reads an argument or writes a result: a register copy.
        const bool load = C.op == Op::Ld;
        if (load != (pi < args.size())) return false;
        uint32_t r = load ? args[pi] : rets[pi - args.size()];
        if (type_bits(C.type()) != type_bits(out.regs[r].type)) return false;
        Operand data = C.operands[load ? 0 : 1];
        remap(remap, data);
        out.instrs.push_back(load ? mov(C, data, reg_operand(r)) : mov(C, reg_operand(r), data));
      } else if (C.op == Op::Ret) {
        Instr b;
        b.op = Op::Bra;
        b.has_guard = C.has_guard;
        b.guard_negated = C.guard_negated;
        b.guard = C.guard;
        b.debug_loc = C.debug_loc;
        Operand target;
        target.kind = Operand::Kind::Symbol;
        target.symbol_kind = SymbolKind::Label;
        target.index = end_label;
        b.operands = {target};
        out.instrs.push_back(std::move(b));
      } else {
        if (is_space(C, "param")) return false;  // a .param access through a register
        for (Operand& o : C.operands) remap(remap, o);
        out.instrs.push_back(std::move(C));
      }
      out.pos.push_back(j < body->pos.size() ? body->pos[j] : at);
    }
    out.labels[end_label].target = static_cast<uint32_t>(out.instrs.size());
    return exact;
  }

  const Module& m_;
  const SourceMap& map_;
  std::map<uint32_t, std::optional<Body>> done_;
  std::set<uint32_t> active_;
  uint32_t call_sites_ = 0;
};

bool has_call(const Function& f) {
  for (const Instr& I : f.instrs)
    if (I.op == Op::Call) return true;
  return false;
}

}  // namespace

size_t inline_calls(Module& m, SourceMap& map) {
  Inliner in(m, map);
  std::vector<std::pair<uint32_t, Body>> changed;
  for (uint32_t fi = 0; fi < m.functions.size(); ++fi)
    if (m.functions[fi].is_entry && has_call(m.functions[fi]))
      if (std::optional<Body> b = in.expanded(fi)) changed.emplace_back(fi, std::move(*b));
  for (auto& [fi, b] : changed) {
    Function& f = m.functions[fi];
    f.regs = std::move(b.regs);
    f.vars = std::move(b.vars);
    f.instrs = std::move(b.instrs);
    f.labels = std::move(b.labels);
    f.debug_locs = std::move(b.locs);
    // The text items describe the original body for printing; the executable part no longer
    // follows them, so only instructions are listed, in order.
    f.items.clear();
    for (uint32_t k = 0; k < f.instrs.size(); ++k) f.items.push_back({BodyItem::Kind::Instr, k});
    if (fi >= map.instr_pos.size()) map.instr_pos.resize(fi + 1);
    map.instr_pos[fi] = std::move(b.pos);
  }
  return changed.size();
}

}  // namespace racer::ptx
