// Branches on symbolic data. A guard like `x > 0` cannot be decided while x is a symbol,
// but running each path in turn and selecting between their results at the point where
// they meet gives the exact piecewise function (`x > 0 ? exp(x) : 0`), with no path guessed.
// Registers still live there become selects on the branch condition; so does memory: a
// path's stores are held by the path (its loads see them) and written at the meeting point,
// where a cell stored on one path only keeps its old contents on the other. Defects found on
// a path are reported with the condition under which the path runs. Synchronization,
// atomics and anything else whose effect would depend on the path are refused.
#include <algorithm>

#include "exec/machine.hpp"
#include "expr/print.hpp"
#include "exec/refusal.hpp"
#include "ptx/effects.hpp"
#include "ptx/post_dominators.hpp"

namespace racer::exec {
namespace {

constexpr size_t kMaxNesting = 16;

// What a path may run: register computations, and plain loads and stores, whose effects the
// path holds until the paths meet.
bool allowed_on_path(const ptx::Instr& ins) {
  if (ptx::register_only_op(ins.op) || ptx::is_param_load(ins)) return true;
  if (ins.op != ptx::Op::Ld && ins.op != ptx::Op::Ldu && ins.op != ptx::Op::St) return false;
  Space sp = space_of(ins);
  return sp == Space::Global || sp == Space::Shared || sp == Space::Local || sp == Space::Generic || sp == Space::Const;
}

bool overlaps(const PathStore& s, const Region* r, uint64_t off, unsigned size) {
  return s.region == r && s.off < off + size && off < s.off + s.size;
}

// The latest store the outermost `frames` paths of th hold over r's bytes [off, off + size),
// innermost first; null where none does. It may cover them with another width or offset.
const PathStore* held_store(const Thread& th, size_t frames, const Region* r, uint64_t off, unsigned size) {
  for (size_t k = frames; k-- > 0;)
    for (auto it = th.paths[k].stores.rbegin(); it != th.paths[k].stores.rend(); ++it)
      if (overlaps(*it, r, off, size)) return &*it;
  return nullptr;
}

std::vector<uint32_t> plan_commits(const std::vector<AbsorbPlan>& plans) {
  std::vector<uint32_t> c;
  for (const AbsorbPlan& p : plans) c.push_back(p.commit);
  return c;
}

ptx::Type float_of_width(unsigned bits) {
  return bits == 64 ? ptx::Type::F64 : bits == 32 ? ptx::Type::F32 : ptx::Type::None;
}

// The type register r is merged as where the paths meet: its declared type, or for an untyped
// (.b) register the type the first instruction after the join that reads it reads it as
// (Triton keeps erf's polynomial coefficients, picked by a branch, in .b32 registers that an
// f32 fma then reads). Only a type of the same width is taken; a later read as another type
// is still checked by the domain (a float read as .s32 is refused), so the choice cannot
// change a value, only whether it is modelled.
ptx::Type register_view(const ptx::Function& fn, uint32_t join, uint32_t r) {
  constexpr uint32_t kLookAhead = 64;
  const ptx::Type declared = fn.regs[r].type;
  ptx::TypeClass c = ptx::type_class(declared);
  if (c == ptx::TypeClass::Signed || c == ptx::TypeClass::Unsigned || c == ptx::TypeClass::Float) return declared;
  std::vector<uint32_t> reads, writes;
  for (uint32_t pc = join; pc < fn.instrs.size() && pc < join + kLookAhead; ++pc) {
    const ptx::Instr& ins = fn.instrs[pc];
    ptx::reads_of(ins, reads);
    if (std::find(reads.begin(), reads.end(), r) != reads.end()) {
      ptx::Type t = ins.type();
      bool typed = ins.op != ptx::Op::Cvt &&  // (a conversion reads its source as another type than it names first)
                   (ptx::is_float(t) || ptx::type_class(t) == ptx::TypeClass::Signed || ptx::type_class(t) == ptx::TypeClass::Unsigned);
      return typed && ptx::type_bits(t) == ptx::type_bits(declared) ? t : declared;
    }
    ptx::writes_of(ins, writes);
    if (ins.op == ptx::Op::Bra || std::find(writes.begin(), writes.end(), r) != writes.end()) break;
  }
  return declared;
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
  if (depends_on_racing_read(guard)) return "the branch depends on a value a racing load read";
  if (th.paths.size() >= kMaxNesting)
    return "data-dependent branches nested " + std::to_string(kMaxNesting) +
           " deep (a loop whose trip count depends on symbolic data is not modelled)";
  uint32_t at = th.pc - 1;
  uint32_t join = flow(ctx.fn).ipdom[at];
  if (join == ptx::kNoPostDominator) return "the paths from this data-dependent branch never meet again";
  enter_path(th, at, join, bra.guard_negated ? dom_.pred(PredOp::Not, guard, guard) : guard);
  th.pc = ctx.fn.labels[bra.operands[0].index].target;
  return {};
}

void Machine::enter_path(Thread& th, uint32_t at, uint32_t join, Value taken) {
  settle_deferred(th, dom_);  // the paths' registers are saved, compared and merged as values
  PathFrame f;
  f.branch = at;
  f.join = join;
  f.other = at + 1;
  f.taken = taken;
  f.saved_regs = th.regs;
  f.saved_def_pc = th.def_pc;
  f.saved_plans = th.plans;
  f.saved_carry = th.carry;
  th.paths.push_back(std::move(f));
}

std::string Machine::guarded_path(ExecContext& ctx, const ptx::Instr& ins, Value guard) {
  Thread& th = ctx.th;
  if (guard.is_poison()) return "the guard is the old value returned by an atomic";
  if (depends_on_racing_read(guard)) return "the guard depends on a value a racing load read";
  bool leaves = (ins.op == ptx::Op::Ret || ins.op == ptx::Op::Exit) && ins.operands.empty();
  const bool guarded_atomic = (ins.op == ptx::Op::Atom || ins.op == ptx::Op::Red) && th.paths.empty();
  if (!allowed_on_path(ins) && !leaves && !guarded_atomic)
    return "only register computations, loads, stores, atomics and exits are modelled under a guard on symbolic data";
  if (th.paths.size() >= kMaxNesting) return "guarded instructions nested in " + std::to_string(kMaxNesting) + " data-dependent branches";
  Handler h = sem_.step[static_cast<size_t>(ins.op)];
  if (!h) return "instruction '" + std::string(ptx::op_name(ins.op)) + "' is not modelled";
  uint32_t at = th.pc - 1;
  Value taken = ins.guard_negated ? dom_.pred(PredOp::Not, guard, guard) : guard;
  if (guarded_atomic) {
    // No path: the atomic runs unguarded, its operand the operation's identity where the guard
    // fails (sem's atom reads ctx.guard), so its effect is the same in either case.
    ctx.guard = taken;
    try {
      h(ctx, ins);
    } catch (...) {
      ctx.guard = Value::of_bits(1);
      throw;
    }
    ctx.guard = Value::of_bits(1);
    return {};
  }
  if (ins.op == ptx::Op::Ret || ins.op == ptx::Op::Exit) {
    // The guarded path leaves the kernel: the paths meet where it ends.
    enter_path(th, at, static_cast<uint32_t>(ctx.fn.instrs.size()), taken);
    th.pc = th.paths.back().join;
    return {};
  }
  enter_path(th, at, at + 1, taken);
  try {
    h(ctx, ins);  // the path where the guard holds; the other one is empty
  } catch (...) {
    th.regs = th.paths.back().saved_regs;
    th.def_pc = th.paths.back().saved_def_pc;
    th.paths.pop_back();
    throw;
  }
  return {};
}

bool Machine::leave_on_path(ExecContext& ctx, const ptx::Instr& ins) {
  Thread& th = ctx.th;
  if ((ins.op != ptx::Op::Ret && ins.op != ptx::Op::Exit) || ins.has_guard) return false;
  if (th.paths.back().join < ctx.fn.instrs.size()) return false;
  th.pc = th.paths.back().join;  // the paths meet where the kernel ends
  return true;
}

void Machine::check_on_path(ExecContext& ctx, const ptx::Instr& ins) {
  if (!allowed_on_path(ins))
    refuse(ctx, ins, "on a path of a branch on symbolic data (PTX instruction " + std::to_string(ctx.th.paths.back().branch) +
                         "), only register computations, loads and stores are modelled: this instruction's effect would depend on the path");
}

std::string Machine::path_condition(const Thread& th) const {
  constexpr size_t kMaxText = 240;
  std::string s;
  for (const PathFrame& f : th.paths) {
    std::string c = f.taken.is_symbolic() ? expr::to_string(session_.store(), f.taken.expr()) : ((f.taken.bits & 1) ? "true" : "false");
    if (c.size() > kMaxText) c = c.substr(0, kMaxText) + "...";
    s += (s.empty() ? "" : " and ") + (f.second ? "not (" + c + ")" : c);
  }
  return s;
}

std::optional<Value> Machine::path_load(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size) {
  const PathStore* held = held_store(ctx.th, ctx.th.paths.size(), &r, off, size);
  if (!held) return std::nullopt;
  if (held->off != off || held->size != size)
    refuse(ctx, ins, "on a path of a data-dependent branch, reads " + std::to_string(size) +
                         " bytes that the path stored with another width or offset");
  return held->value;
}

void Machine::path_store(ExecContext& ctx, const ptx::Instr& ins, PathFrame& f, PathStore s) {
  for (PathStore& old : f.stores) {
    if (!overlaps(old, s.region, s.off, s.size)) continue;
    if (old.off != s.off || old.size != s.size)
      refuse(ctx, ins, "on a path of a data-dependent branch, stores " + std::to_string(s.size) +
                           " bytes over what the path stored with another width or offset");
    old = s;
    return;
  }
  f.stores.push_back(s);
}

// What the bytes held before the branch: an enclosing path's store, or memory. An output
// cell never written holds the unknown initial contents both programs share (as a final
// cell read does).
Value Machine::before_paths(ExecContext& ctx, const ptx::Instr& ins, size_t depth, const PathStore& s) {
  if (const PathStore* held = held_store(ctx.th, depth, s.region, s.off, s.size)) {
    if (held->off != s.off || held->size != s.size) refuse(ctx, ins, "nested data-dependent branches store with different widths");
    return held->value;
  }
  Region& r = *s.region;
  if (r.state[s.off] != ByteState::Uninit) return read_bytes(r, s.off, s.size, &ctx.cta, SiteRef{&ctx, &ins}, !ptx::is_float(s.type));
  if (r.tensor < 0)
    refuse(ctx, ins, "one path of a data-dependent branch stores to " + storage_.describe(&r, r.base + s.off, s.size) +
                         ", which holds no value on the other path");
  const TensorSpec& t = storage_.tensors()[r.tensor];
  int64_t cell = s.size == t.elem_bytes() && s.off % s.size == 0 ? storage_.cell_of(r.tensor, s.off / s.size) : -1;
  if (cell < 0) refuse(ctx, ins, "one path of a data-dependent branch stores part of a cell of " + t.name + " that holds no value");
  return final_uninitialized(static_cast<size_t>(r.tensor), cell);
}

void Machine::merge_stores(ExecContext& ctx, PathFrame& f) {
  const ptx::Instr& bra = ctx.fn.instrs[f.branch];
  std::vector<PathStore> both = f.taken_stores;
  for (const PathStore& s : f.stores) {
    auto same = std::find_if(both.begin(), both.end(), [&](const PathStore& t) { return overlaps(t, s.region, s.off, s.size); });
    if (same == both.end()) both.push_back(s);
    else if (same->off != s.off || same->size != s.size)
      refuse(ctx, bra, "the paths of this data-dependent branch store to overlapping bytes with different widths");
  }
  const size_t depth = ctx.th.paths.size() - 1;
  for (PathStore s : both) {
    auto find = [&](const std::vector<PathStore>& v) -> std::optional<Value> {
      for (auto it = v.rbegin(); it != v.rend(); ++it)
        if (it->region == s.region && it->off == s.off) return it->value;
      return std::nullopt;
    };
    std::optional<Value> on_taken = find(f.taken_stores), on_other = find(f.stores);
    Value before = on_taken && on_other ? Value{} : before_paths(ctx, bra, depth, s);
    try {
      s.value = merge(f.taken, on_taken ? *on_taken : before, on_other ? *on_other : before, s.type);
    } catch (const Refusal& e) {
      refuse(ctx, bra, "merging " + storage_.describe(s.region, s.region->base + s.off, s.size) + " where the paths meet: " + e.what());
    }
    if (depth > 0) {
      path_store(ctx, bra, ctx.th.paths[depth - 1], s);
    } else {
      write_bytes(*s.region, s.off, s.size, s.value);
      note_writer(*s.region, s.off, s.instr);
    }
  }
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
    f.taken_stores = std::move(f.stores);
    f.stores.clear();
    f.taken_carry = th.carry;
    th.regs = f.saved_regs;
    th.def_pc = f.saved_def_pc;
    th.plans = f.saved_plans;
    th.carry = f.saved_carry;
    th.pc = f.other;
    f.second = true;
    return;
  }
  if (th.carry != f.taken_carry) refuse(ctx, ctx.fn.instrs[f.branch], "the paths of this data-dependent branch leave different carry flags");
  merge_stores(ctx, f);
  const Flow& fl = flow(ctx.fn);
  for (uint32_t r = 0; r < th.regs.size(); ++r) {
    if (f.taken_regs[r] == th.regs[r] || !fl.live.live_at(f.join, r)) continue;
    try {
      th.regs[r] = merge(f.taken, f.taken_regs[r], th.regs[r], register_view(ctx.fn, f.join, r));
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
  // Integer data. Symbolic integer data is any integer congruent to the register's bits (every
  // reader wraps it to its own type where its bounds leave that open: exec/symbolic_wrap.cpp),
  // so an untyped (.b) register's path values may each be read as either signedness: a bit
  // pattern with the sign bit set as the signed type (the -1 a path stores as "no token"),
  // anything else as the unsigned one.
  if (ptx::type_class(t) == ptx::TypeClass::Signed || ptx::type_class(t) == ptx::TypeClass::Unsigned)
    return dom_.select(taken, dom_.as_integer(a, t), dom_.as_integer(b, t));
  const unsigned bits = ptx::type_bits(t);
  if (bits != 16 && bits != 32 && bits != 64) throw Refusal("a register of an unsupported width");
  const ptx::Type u = bits == 16 ? ptx::Type::U16 : bits == 32 ? ptx::Type::U32 : ptx::Type::U64;
  const ptx::Type s = bits == 16 ? ptx::Type::S16 : bits == 32 ? ptx::Type::S32 : ptx::Type::S64;
  auto as_either = [&](Value v) {
    const bool sign_set = v.is_concrete() && (v.bits >> (bits - 1) & 1) != 0;
    return dom_.as_integer(v, sign_set ? s : u);
  };
  return dom_.select(taken, as_either(a), as_either(b));
}

}  // namespace racer::exec
