#include "exec/choice_paths.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "exec/exact_float.hpp"
#include "exec/refusal.hpp"
#include "expr/substitute.hpp"

namespace racer::exec {

std::optional<expr::ExprId> outermost_choice(const expr::Store& s, expr::ExprId x) {
  std::vector<expr::ExprId> level{x}, next;
  std::set<uint32_t> seen;
  while (!level.empty()) {
    next.clear();
    for (expr::ExprId e : level) {
      if (!seen.insert(e.index).second) continue;
      if (s.kind(e) == expr::Kind::Select && s.kind(s.operand(e, 0)) != expr::Kind::Bool) return s.operand(e, 0);
      for (uint32_t i = 0; i < s.arity(e); ++i) next.push_back(s.operand(e, i));
    }
    level.swap(next);
  }
  return std::nullopt;
}

namespace {

// Whether x reads a choice between constants (a search's start or end, a table entry given by value).
bool reads_constant_choice(const expr::Store& s, expr::ExprId x) {
  std::vector<expr::ExprId> todo{x};
  std::set<uint32_t> seen;
  while (!todo.empty()) {
    const expr::ExprId e = todo.back();
    todo.pop_back();
    if (!seen.insert(e.index).second) continue;
    if (s.kind(e) == expr::Kind::Select && s.is_rational(s.operand(e, 1)) && s.is_rational(s.operand(e, 2))) return true;
    for (uint32_t i = 0; i < s.arity(e); ++i) todo.push_back(s.operand(e, i));
  }
  return false;
}

}  // namespace

std::optional<expr::ExprId> innermost_choice(const expr::Store& s, expr::ExprId x) {
  std::optional<expr::ExprId> c = outermost_choice(s, x);
  for (int depth = 0; c && depth < 64 && reads_constant_choice(s, *c); ++depth) {
    const std::optional<expr::ExprId> inner = outermost_choice(s, *c);
    if (!inner) break;
    c = inner;
  }
  return c;
}

namespace {

bool reads_bits(ptx::Op op) {
  switch (op) {
    case ptx::Op::And: case ptx::Op::Or: case ptx::Op::Xor: case ptx::Op::Not: case ptx::Op::Cnot:
    case ptx::Op::Shl: case ptx::Op::Shr: case ptx::Op::Shf: case ptx::Op::Bfe: case ptx::Op::Bfi:
    case ptx::Op::Lop3: case ptx::Op::Prmt: case ptx::Op::Popc: case ptx::Op::Clz: case ptx::Op::Brev:
    case ptx::Op::Bfind: case ptx::Op::Div: case ptx::Op::Rem:
      return true;
    default:
      return false;
  }
}

struct PathRunner {
  ExecContext& ctx;
  const ptx::Instr& ins;
  Handler handler;
  expr::Store& s;
  std::vector<uint32_t> sources;  // the registers holding choices
  std::vector<std::pair<uint32_t, Value>> saved;  // every register the instruction touches
  uint32_t dest = 0;
  ptx::Type dest_type = ptx::Type::None;
  size_t paths = 0;

  void restore() {
    for (const auto& [r, v] : saved) ctx.th.regs[r] = v;
  }

  // The result on the paths below the decisions taken so far (`values`: the sources' values with
  // them substituted); nullopt where a path cannot run.
  std::optional<expr::ExprId> run(const std::vector<expr::ExprId>& values) {
    std::optional<expr::ExprId> c;
    for (expr::ExprId v : values)
      if ((c = outermost_choice(s, v))) break;
    if (!c) return leaf(values);
    std::optional<expr::ExprId> arm[2];
    for (bool truth : {true, false}) {
      std::vector<expr::ExprId> decided;
      for (expr::ExprId v : values) decided.push_back(expr::substitute(s, v, {{*c, truth ? s.true_value() : s.false_value()}}));
      if (!(arm[truth] = run(decided))) return std::nullopt;
    }
    return s.select(*c, *arm[1], *arm[0]);
  }

  std::optional<expr::ExprId> leaf(const std::vector<expr::ExprId>& values) {
    if (++paths > kMaxChoicePathsPerInstruction) return std::nullopt;
    restore();
    for (size_t k = 0; k < sources.size(); ++k) {
      if (s.kind(values[k]) != expr::Kind::Const || !s.is_rational(values[k]) || s.rational(values[k]).get_den() != 1)
        return std::nullopt;
      ctx.th.regs[sources[k]] = Value::of_bits(low_bits(s.rational(values[k]).get_num(), 64));
    }
    try {
      handler(ctx, ins);
    } catch (const Refusal&) {
      return std::nullopt;
    }
    const Value r = ctx.th.regs[dest];
    if (!r.is_concrete()) return std::nullopt;
    // Read in the destination's type, a bit type with its top bit set as negative (the smaller
    // magnitude; every reader wraps to its own type).
    const unsigned width = std::min(ptx::type_bits(dest_type), 64u);
    return s.constant(mpq_class(exact_integer(r.bits, width, ptx::type_class(dest_type) != ptx::TypeClass::Unsigned)));
  }
};

}  // namespace

bool run_per_choice(ExecContext& ctx, const ptx::Instr& ins, Handler handler, expr::Store& s) {
  if (!handler || !reads_bits(ins.op) || ins.operands.empty()) return false;
  Thread& th = ctx.th;
  if (th.pending_regs || th.loading || !th.unread_loads.empty()) return false;
  const ptx::Operand& d = ins.operands[0];
  if (d.kind != ptx::Operand::Kind::Reg) return false;
  PathRunner p{ctx, ins, handler, s};
  p.dest = d.index;
  p.dest_type = ctx.fn.regs[d.index].type;
  if (ptx::is_float(p.dest_type) || p.dest_type == ptx::Type::Pred || ptx::type_bits(p.dest_type) == 0) return false;
  std::vector<expr::ExprId> values;
  p.saved.emplace_back(d.index, th.regs[d.index]);
  for (size_t k = 1; k < ins.operands.size(); ++k) {
    const ptx::Operand& o = ins.operands[k];
    if (o.kind == ptx::Operand::Kind::Vector || o.kind == ptx::Operand::Kind::Address) return false;
    if (o.kind != ptx::Operand::Kind::Reg) continue;
    const Value v = th.regs[o.index];
    if (v.is_concrete()) continue;
    if (!v.is_symbolic() || v.sym >= Value::kFirstMarker || !v.integer || o.negated) return false;
    if (std::find(p.sources.begin(), p.sources.end(), o.index) != p.sources.end()) continue;
    p.sources.push_back(o.index);
    p.saved.emplace_back(o.index, v);
    values.push_back(v.expr());
  }
  if (p.sources.empty()) return false;
  std::optional<expr::ExprId> result = p.run(values);
  p.restore();
  if (!result) return false;
  ctx.set(d, s.kind(*result) == expr::Kind::Const ? Value::of_bits(low_bits(s.rational(*result).get_num(), 64))
                                                  : Value::of_int_expr(*result));
  return true;
}

}  // namespace racer::exec
