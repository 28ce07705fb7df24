// Branches on symbolic data. A guard like `x > 0` cannot be decided while x is a symbol,
// but where both paths only compute into registers, running each in turn and selecting
// between their results at the point where they meet gives the exact piecewise function
// (`x > 0 ? exp(x) : 0`), with no path guessed. Anything with an effect outside the
// thread's registers (memory, synchronization, exits) on such a path is refused.
#include <algorithm>

#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "ptx/effects.hpp"
#include "ptx/post_dominators.hpp"

namespace racer::exec {
namespace {

constexpr size_t kMaxNesting = 16;

// Instructions whose only effect is on the thread's registers. Parameter loads qualify:
// other loads could report a defect on a path that never runs.
bool register_only(const ptx::Instr& ins) { return ptx::register_only_op(ins.op) || ptx::is_param_load(ins); }

std::vector<uint32_t> plan_commits(const std::vector<AbsorbPlan>& plans) {
  std::vector<uint32_t> c;
  for (const AbsorbPlan& p : plans) c.push_back(p.commit);
  return c;
}

ptx::Type float_of_width(unsigned bits) {
  return bits == 64 ? ptx::Type::F64 : bits == 32 ? ptx::Type::F32 : ptx::Type::None;
}

}  // namespace

const Machine::Flow& Machine::flow(const ptx::Function& fn) {
  auto& slot = flows_[&fn];
  if (!slot) slot = std::make_unique<Flow>(Flow{ptx::immediate_post_dominators(fn), ptx::Liveness(fn)});
  return *slot;
}

std::string Machine::split(ExecContext& ctx, const ptx::Instr& bra, Value guard) {
  Thread& th = ctx.th;
  if (guard.is_poison()) return "the branch reads the old value returned by an atomic";
  if (th.paths.size() >= kMaxNesting)
    return "data-dependent branches nested " + std::to_string(kMaxNesting) +
           " deep (a loop whose trip count depends on symbolic data is not modelled)";
  uint32_t at = th.pc - 1;
  uint32_t join = flow(ctx.fn).ipdom[at];
  if (join == ptx::kNoPostDominator) return "the paths from this data-dependent branch never meet again";
  if (join >= ctx.fn.instrs.size())
    return "the paths from this data-dependent branch meet only where the kernel ends (an exit or a store on one of them is not modelled)";
  PathFrame f;
  f.branch = at;
  f.join = join;
  f.other = at + 1;
  f.taken = bra.guard_negated ? dom_.pred(PredOp::Not, guard, guard) : guard;
  f.saved_regs = th.regs;
  f.saved_def_pc = th.def_pc;
  f.saved_plans = th.plans;
  th.paths.push_back(std::move(f));
  th.pc = ctx.fn.labels[bra.operands[0].index].target;
  return {};
}

void Machine::check_on_path(ExecContext& ctx, const ptx::Instr& ins) {
  if (!register_only(ins))
    refuse(ctx, ins, "on a path of a branch on symbolic data (PTX instruction " + std::to_string(ctx.th.paths.back().branch) +
                         "), only register computations are modelled: this instruction's effect would depend on the path");
}

void Machine::reach_join(ExecContext& ctx) {
  Thread& th = ctx.th;
  PathFrame& f = th.paths.back();
  // A routine whose result is set just before the meeting point ends on this path.
  for (size_t i = 0; i < th.plans.size();) {
    if (th.plans[i].before && th.plans[i].commit == f.join) commit_plan(th, i, f.join);
    else ++i;
  }
  if (plan_commits(th.plans) != plan_commits(f.saved_plans))
    refuse(ctx, ctx.fn.instrs[f.branch], "a recognized math routine straddles the meeting point of this data-dependent branch");
  if (!f.second) {
    f.taken_regs = std::move(th.regs);
    th.regs = f.saved_regs;
    th.def_pc = f.saved_def_pc;
    th.plans = f.saved_plans;
    th.pc = f.other;
    f.second = true;
    return;
  }
  const Flow& fl = flow(ctx.fn);
  for (uint32_t r = 0; r < th.regs.size(); ++r) {
    if (f.taken_regs[r] == th.regs[r] || !fl.live.live_at(f.join, r)) continue;
    try {
      th.regs[r] = merge(f.taken, f.taken_regs[r], th.regs[r], ctx.fn.regs[r].type);
    } catch (const Refusal& e) {
      refuse(ctx, ctx.fn.instrs[f.branch], "merging " + ctx.fn.regs[r].name + " where the paths meet: " + e.what());
    }
    th.def_pc[r] = UINT32_MAX;  // defined by no single instruction
  }
  th.paths.pop_back();
}

Value Machine::merge(Value taken, Value a, Value b, ptx::Type t) {
  if (a.is_poison() || b.is_poison()) throw Refusal("one path leaves an atomic's old value in it");
  if (t == ptx::Type::Pred) {
    if (a.is_concrete() && b.is_concrete()) return (a.bits & 1) ? taken : dom_.pred(PredOp::Not, taken, taken);
    Value on = dom_.pred(PredOp::And, taken, a);
    Value off = dom_.pred(PredOp::And, dom_.pred(PredOp::Not, taken, taken), b);
    return dom_.pred(PredOp::Or, on, off);
  }
  bool real = (a.is_symbolic() && !a.integer) || (b.is_symbolic() && !b.integer) || ptx::is_float(t);
  if (real) {
    if ((a.is_symbolic() && a.integer) || (b.is_symbolic() && b.integer)) throw Refusal("integer data on one path, float data on the other");
    ptx::Type ft = ptx::is_float(t) ? t : float_of_width(ptx::type_bits(t));
    if (ft == ptx::Type::None) throw Refusal("a " + std::to_string(ptx::type_bits(t)) + "-bit register whose float format is not known");
    return dom_.select(taken, dom_.as_number(a, ft), dom_.as_number(b, ft));
  }
  // Integer data. An untyped (.b) register's bits mean the same signed or unsigned only
  // below the sign bit.
  ptx::Type it = t;
  if (ptx::type_class(t) != ptx::TypeClass::Signed && ptx::type_class(t) != ptx::TypeClass::Unsigned) {
    unsigned bits = ptx::type_bits(t);
    if (bits != 16 && bits != 32 && bits != 64) throw Refusal("a register of an unsupported width");
    for (const Value& v : {a, b})
      if (v.is_concrete() && (bits < 64 ? v.bits >> (bits - 1) : v.bits >> 63) != 0)
        throw Refusal("an untyped register whose bits could be a signed or an unsigned integer");
    it = bits == 16 ? ptx::Type::U16 : bits == 32 ? ptx::Type::U32 : ptx::Type::U64;
  }
  return dom_.select(taken, dom_.as_integer(a, it), dom_.as_integer(b, it));
}

}  // namespace racer::exec
