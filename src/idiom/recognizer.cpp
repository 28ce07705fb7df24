#include "idiom/recognizer.hpp"
#include "idiom/probe_memory.hpp"
#include "ptx/effects.hpp"
#include "ptx/post_dominators.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "exec/concrete_domain.hpp"
#include "exec/ieee.hpp"
#include "exec/refusal.hpp"
#include "exec/symbolic_domain.hpp"

namespace racer::idiom {
namespace {

using exec::Value;

constexpr size_t kMaxRoots = 6;
// A selection sits at the end of a branchless routine, further from its input.
constexpr size_t kMaxSelectionRoots = 12;
constexpr size_t kMaxProbeSteps = 800;

enum class State : uint8_t { Fixed, Sample, Opaque };

std::optional<ieee::Format> format_of(ptx::Type t) {
  switch (ptx::type_bits(t)) {
    case 16: return t == ptx::Type::BF16 ? ieee::Format::BF16 : ieee::Format::F16;
    case 32: return ieee::Format::F32;
    case 64: return ieee::Format::F64;
    default: return std::nullopt;
  }
}

struct Event {
  uint32_t pc;
  std::vector<uint32_t> writes;
  std::vector<uint64_t> values;
  bool absorbed;                  // reads the routine's input, directly or not
  std::vector<std::pair<uint32_t, uint64_t>> fixed_reads;
  uint32_t addend = UINT32_MAX;   // an unrelated register added to the routine's value here
  bool addend_negated = false;
  // Mixes a value the routine computed with other symbolic data (other than as the additive
  // outsider of its last step): the routine's data escapes before its result is in place, so
  // no plan may end after it.
  bool escapes = false;
};

// add/sub/fma with exactly one operand outside the routine, in an additive position: the
// register and whether it is subtracted; otherwise nullopt.
std::optional<std::pair<uint32_t, bool>> additive_outsider(const ptx::Instr& I, const std::vector<State>& state) {
  if (!ptx::is_float(I.type()) || I.type() == ptx::Type::F16x2 || I.type() == ptx::Type::BF16x2) return std::nullopt;
  auto reg_of = [&](size_t i) -> std::optional<uint32_t> {
    if (i >= I.operands.size() || I.operands[i].kind != ptx::Operand::Kind::Reg) return std::nullopt;
    return I.operands[i].index;
  };
  std::vector<size_t> additive;
  if (I.op == ptx::Op::Add || I.op == ptx::Op::Sub) additive = {1, 2};
  else if (I.op == ptx::Op::Fma || (I.op == ptx::Op::Mad)) additive = {3};
  else return std::nullopt;
  std::optional<std::pair<uint32_t, bool>> found;
  for (size_t i = 1; i < I.operands.size(); ++i) {
    auto r = reg_of(i);
    if (!r || state[*r] != State::Opaque) continue;
    if (found || std::find(additive.begin(), additive.end(), i) == additive.end()) return std::nullopt;
    found = std::pair{*r, I.op == ptx::Op::Sub && i == 2};
  }
  // A subtrahend routine value (outsider - routine) would flip the fit's sign; keep it simple.
  if (found && I.op == ptx::Op::Sub && !found->second) return std::nullopt;
  return found;
}

struct Run {
  long double t;
  std::vector<Event> events;
  // First visit of each instruction: the routine's registers then, and how many events came before.
  struct Visit {
    size_t events_before;
    std::vector<std::pair<uint32_t, uint64_t>> sample_regs;
  };
  std::vector<uint32_t> order;
  std::map<uint32_t, Visit> visits;
  // Local scratch the routine's own stores wrote (local-space address, size).
  std::set<std::pair<uint64_t, unsigned>> local_stores;
  // Branches on the routine's input, with where their paths meet again.
  std::map<uint32_t, uint32_t> branch_joins;
};

// Registers in an operand (an address's base, a vector's elements).
void registers_in(const ptx::Operand& op, std::vector<uint32_t>& out) {
  if (op.kind == ptx::Operand::Kind::Reg) out.push_back(op.index);
  for (const auto& e : op.elems) registers_in(e, out);
}

// Whether a register still live where the routine's result is in place holds a value that
// differs between probes: then it depends on the input (through data or through the path
// taken) without being the result, and stepping over the routine would lose it.
bool leaks(const Liveness& live, const std::vector<Run>& runs, const std::vector<size_t>& ends, uint32_t live_at,
           const std::set<uint32_t>& results) {
  std::map<uint32_t, uint64_t> first;
  for (size_t ri = 0; ri < runs.size(); ++ri) {
    std::map<uint32_t, uint64_t> last;
    for (size_t k = 0; k < ends[ri] && k < runs[ri].events.size(); ++k) {
      const Event& ev = runs[ri].events[k];
      if (ev.values.size() != ev.writes.size()) continue;  // computed from other symbolic data
      for (size_t w = 0; w < ev.writes.size(); ++w) last[ev.writes[w]] = ev.values[w];
    }
    for (auto [r, v] : last) {
      if (results.count(r) || !live.live_at(live_at, r)) continue;
      if (ri == 0) first[r] = v;
      else if (!first.count(r) || first[r] != v) return true;
    }
    if (ri > 0)
      for (auto [r, v] : first)
        if (!last.count(r)) return true;
  }
  return false;
}

// What the routine read from the thread's state as it was when the probes began: a plan
// serves another thread (or another visit) only where these are the same. Registers the
// routine computed itself are not inputs; what they were computed from is.
std::vector<std::pair<uint32_t, uint64_t>> fixed_inputs_of(const std::vector<Run>& runs, const std::vector<size_t>& ends) {
  std::map<uint32_t, uint64_t> in;
  for (size_t ri = 0; ri < runs.size(); ++ri)
    for (size_t k = 0; k < ends[ri] && k < runs[ri].events.size(); ++k)
      for (auto [r, bits] : runs[ri].events[k].fixed_reads) in.emplace(r, bits);
  return {in.begin(), in.end()};
}

std::vector<std::pair<uint64_t, unsigned>> local_stores_of(const std::vector<Run>& runs) {
  std::set<std::pair<uint64_t, unsigned>> all;
  for (const Run& r : runs) all.insert(r.local_stores.begin(), r.local_stores.end());
  return {all.begin(), all.end()};
}

// Routine instructions no probe value happened to reach (special-value paths) are stepped
// over too: whatever in [from, to) reads what the routine computed. False when such an
// instruction reaches memory or a collective: then the routine's data escapes before its result.
bool step_over_untaken(const ptx::Function& fn, uint32_t from, uint32_t to, std::set<uint32_t>& skip,
                       std::set<uint32_t>& tainted) {
  std::vector<uint32_t> reads, writes;
  for (uint32_t pc = from; pc < to; ++pc) {
    reads_of(fn.instrs[pc], reads);
    bool touches = false;
    for (uint32_t r : reads) touches |= tainted.count(r) > 0;
    if (!touches || skip.count(pc)) continue;
    if (!ptx::register_only_op(fn.instrs[pc].op)) return false;
    skip.insert(pc);
    writes_of(fn.instrs[pc], writes);
    tainted.insert(writes.begin(), writes.end());
  }
  return true;
}

// Where control goes at each branch the plan skips (see AbsorbPlan::jumps): a branch on the
// routine's input to where its paths meet, an unconditional one to its target, any other out
// of the plan's reach.
std::vector<std::pair<uint32_t, uint32_t>> jumps_of(const ptx::Function& fn, const std::vector<uint32_t>& skip,
                                                    const std::vector<Run>& runs) {
  std::vector<std::pair<uint32_t, uint32_t>> jumps;
  for (uint32_t pc : skip) {
    const ptx::Instr& I = fn.instrs[pc];
    if (I.op != ptx::Op::Bra) continue;
    uint32_t to = exec::AbsorbPlan::kLeaves;
    for (const Run& r : runs)
      if (auto it = r.branch_joins.find(pc); it != r.branch_joins.end()) to = it->second;
    if (to == exec::AbsorbPlan::kLeaves && !I.has_guard) to = fn.labels[I.operands[0].index].target;
    jumps.emplace_back(pc, to);
  }
  return jumps;
}

// Where a routine's paths merge (erff: the polynomial on one path, 1 - 2^(...) on the other,
// both into one register), the result is in a register on arrival rather than written by
// one instruction every probe value executes.
// The function register y holds at the first visit of m, across the runs, if one fits.
std::optional<Fit> fit_at_visit(const ptx::Function& fn, const std::vector<Run>& runs, uint32_t m, uint32_t y,
                                Tolerance tol) {
  auto yfmt = format_of(fn.regs[y].type);
  if (!yfmt || fn.regs[y].type == ptx::Type::Pred || ptx::type_bits(fn.regs[y].type) < 32) return std::nullopt;
  std::vector<Sample> samples;
  for (const Run& r : runs) {
    const auto& regs = r.visits.at(m).sample_regs;
    auto it = std::find_if(regs.begin(), regs.end(), [&](const auto& p) { return p.first == y; });
    if (it == regs.end()) return std::nullopt;
    double v = ieee::to_double(*yfmt, it->second);
    samples.push_back({r.t, static_cast<long double>(v), std::isnan(v)});
  }
  return fit_routine(samples, tol);
}

// `several`: whether a plan may leave more than one result (tried only when no plan with
// one result exists, so that a routine is read whole rather than by its first pieces).
std::optional<MathRoutineRecognizer::Plan> merge_commit(const ptx::Function& fn, const Liveness& live,
                                                        const std::vector<Run>& runs, uint32_t at, bool several,
                                                        Tolerance tol, bool debug_) {
  for (uint32_t m : runs[0].order) {
    if (m == at) continue;
    bool everywhere = true;
    for (const Run& r : runs) everywhere &= r.visits.count(m) > 0;
    if (!everywhere) continue;
    for (auto [y, bits0] : runs[0].visits.at(m).sample_regs) {
      (void)bits0;
      auto fit = fit_at_visit(fn, runs, m, y, tol);
      if (!fit) continue;
      MathRoutineRecognizer::Plan plan;
      plan.fit = *fit;
      plan.commit = m;
      plan.before = true;
      plan.reg = y;
      std::set<uint32_t> skip{at}, tainted, results{y};
      bool alive = false;
      // Other routine registers still live here must be results too (sinf and cosf sharing
      // one range reduction): each must hold a family function of the input.
      auto result = [&](uint32_t w) {
        if (results.count(w)) return true;
        if (!several) return false;
        auto f = fit_at_visit(fn, runs, m, w, tol);
        if (!f) return false;
        results.insert(w);
        plan.extra.emplace_back(w, *f);
        return true;
      };
      for (size_t ri = 0; ri < runs.size() && !alive; ++ri) {
        const Run& r = runs[ri];
        for (size_t k = 0; k < r.visits.at(m).events_before; ++k) {
          const Event& ev = r.events[k];
          if (ev.escapes) {
            alive = true;
            break;
          }
          if (!ev.absorbed) continue;
          if (ev.pc == m) { alive = true; break; }
          skip.insert(ev.pc);
          for (uint32_t w : ev.writes) {
            if (w == y) continue;
            tainted.insert(w);
            if (live.live_at(m, w) && !result(w)) alive = true;
          }
        }
      }
      if (alive) continue;
      std::vector<size_t> ends;
      for (const Run& r : runs) ends.push_back(r.visits.at(m).events_before);
      if (leaks(live, runs, ends, m, results)) continue;
      plan.fixed_inputs = fixed_inputs_of(runs, ends);
      tainted.insert(results.begin(), results.end());
      if (!step_over_untaken(fn, at, m, skip, tainted)) continue;
      plan.skip.assign(skip.begin(), skip.end());
      plan.jumps = jumps_of(fn, plan.skip, runs);
      plan.clobber_local = local_stores_of(runs);
      if (debug_) std::fprintf(stderr, "    merge commit %s before pc %u: %s\n", fn.regs[y].name.c_str(), m, fit->describe().c_str());
      return plan;
    }
  }
  return std::nullopt;
}

// The registers the seeds are computed from, breadth first along their defining
// instructions (the seeds first, nearest next), at most `limit`; the walk goes on only
// through symbolic values.
std::vector<uint32_t> defining_registers(const exec::Thread& th, const ptx::Function& fn, std::vector<uint32_t> seeds,
                                         size_t limit) {
  std::vector<uint32_t> queue = std::move(seeds), reads;
  std::set<uint32_t> seen(queue.begin(), queue.end());
  for (size_t qi = 0; qi < queue.size() && qi < limit; ++qi) {
    uint32_t r = queue[qi], def = th.def_pc[r];
    if (!th.regs[r].is_symbolic() || def >= fn.instrs.size()) continue;
    reads_of(fn.instrs[def], reads);
    for (uint32_t x : reads)
      if (seen.insert(x).second) queue.push_back(x);
  }
  if (queue.size() > limit) queue.resize(limit);
  return queue;
}

// The symbols of the symbolic values `reg` is computed from (itself included).
std::set<uint32_t> symbolic_ancestors(const exec::Thread& th, const ptx::Function& fn, uint32_t reg) {
  std::set<uint32_t> syms;
  for (uint32_t r : defining_registers(th, fn, {reg}, 256))
    if (th.regs[r].is_symbolic()) syms.insert(th.regs[r].sym);
  return syms;
}

}  // namespace

const std::vector<uint32_t>& MathRoutineRecognizer::post_dominators(const ptx::Function& f) {
  auto& slot = ipdom_[&f];
  if (slot.empty() && !f.instrs.empty()) slot = ptx::immediate_post_dominators(f);
  return slot;
}

const Liveness& MathRoutineRecognizer::liveness(const ptx::Function& f) {
  auto& slot = liveness_[&f];
  if (!slot) slot = std::make_unique<Liveness>(f);
  return *slot;
}

bool MathRoutineRecognizer::recognize(exec::ExecContext& ctx, const ptx::Instr& ins, const std::string&,
                                      Trigger trigger) {
  auto* sym = dynamic_cast<exec::SymbolicDomain*>(&ctx.dom);
  if (!sym) return false;
  expr::Store& st = sym->store();
  const ptx::Function& fn = ctx.fn;
  exec::Thread& th = ctx.th;
  uint32_t at = static_cast<uint32_t>(&ins - fn.instrs.data());

  // Candidate inputs: symbolic reals along the defining instructions, nearest first.
  std::vector<uint32_t> seeds, roots;
  reads_of(ins, seeds);
  for (uint32_t r : defining_registers(th, fn, std::move(seeds), 128)) {
    const Value& v = th.regs[r];
    if (v.is_symbolic() && !v.integer && !st.is_condition(v.expr())) roots.push_back(r);
  }
  std::stable_sort(roots.begin(), roots.end(), [&](uint32_t a, uint32_t b) { return th.def_pc[a] + 1 > th.def_pc[b] + 1; });
  // One register per value: the one defined first, where the value came from. A later copy
  // (a select that folded to one of its operands in this thread) may be a different thing in
  // another thread, and what was learned there about it (a failed probe) does not apply here.
  std::vector<uint32_t> distinct;
  for (uint32_t r : roots) {
    auto same = std::find_if(distinct.begin(), distinct.end(), [&](uint32_t d) { return th.regs[d].sym == th.regs[r].sym; });
    if (same == distinct.end()) distinct.push_back(r);
    else if (th.def_pc[r] + 1 < th.def_pc[*same] + 1) *same = r;
  }
  // A selection joins one routine's pieces only if the predicate and both values are computed
  // from its input: other candidates cannot be that input.
  if (trigger == Trigger::Selection) {
    std::vector<std::set<uint32_t>> feeds;
    for (size_t i = 1; i < ins.operands.size(); ++i)
      if (ins.operands[i].kind == ptx::Operand::Kind::Reg && th.regs[ins.operands[i].index].is_symbolic())
        feeds.push_back(symbolic_ancestors(th, fn, ins.operands[i].index));
    std::erase_if(distinct, [&](uint32_t r) {
      return std::any_of(feeds.begin(), feeds.end(), [&](const std::set<uint32_t>& f) { return !f.count(th.regs[r].sym); });
    });
  }
  const size_t max_roots = trigger == Trigger::Selection ? kMaxSelectionRoots : kMaxRoots;
  if (distinct.size() > max_roots) distinct.resize(max_roots);

  static const bool debug = std::getenv("RACER_DEBUG_IDIOM") != nullptr;
  if (debug) {
    std::fprintf(stderr, "recognize at %u: %zu roots:", at, distinct.size());
    for (uint32_t r : distinct) std::fprintf(stderr, " %s(def %u)", fn.regs[r].name.c_str(), th.def_pc[r]);
    std::fprintf(stderr, "\n");
  }
  // The input that worked here before goes first; inputs that failed here are not retried.
  auto pref = preferred_.find({&fn, at});
  if (pref != preferred_.end()) {
    auto it = std::find(distinct.begin(), distinct.end(), pref->second);
    if (it != distinct.end()) std::rotate(distinct.begin(), it, it + 1);
  }
  for (uint32_t root : distinct) {
    Key key{&fn, at, root, th.def_pc[root], trigger};
    if (failed_.count(key)) continue;
    if (auto it = cache_.find(key); it != cache_.end()) {
      bool same = true;
      for (auto [r, bits] : it->second.fixed_inputs) same &= th.regs[r].is_concrete() && th.regs[r].bits == bits;
      if (same) {
        install(ctx, it->second, root, at);
        return true;
      }
    }
    if (auto plan = probe(ctx, at, root, trigger)) {
      if (debug_) {
        std::fprintf(stderr, "  plan reads fixed:");
        for (auto [r, bits] : plan->fixed_inputs) std::fprintf(stderr, " %s=%llx", fn.regs[r].name.c_str(), static_cast<unsigned long long>(bits));
        std::fprintf(stderr, "\n");
      }
      cache_[key] = *plan;
      preferred_[{&fn, at}] = root;
      install(ctx, *plan, root, at);
      return true;
    }
    failed_.insert(key);
  }
  return false;
}

void MathRoutineRecognizer::install(exec::ExecContext& ctx, const Plan& p, uint32_t root, uint32_t at) {
  auto& sym = dynamic_cast<exec::SymbolicDomain&>(ctx.dom);
  exec::AbsorbPlan a;
  a.skip = p.skip;
  a.commit = p.commit;
  a.reg = p.reg;
  a.value = Value::of_expr(build(sym.store(), p.fit, ctx.th.regs[root].expr()));
  a.before = p.before;
  a.addend_reg = p.addend_reg;
  a.addend_negated = p.addend_negated;
  a.addend_type = p.addend_type;
  a.clobber_local = p.clobber_local;
  a.jumps = p.jumps;
  a.entry = at;
  for (const auto& [reg, fit] : p.extra) a.extra.emplace_back(reg, Value::of_expr(build(sym.store(), fit, ctx.th.regs[root].expr())));
  ctx.th.plans.push_back(std::move(a));
  std::string where = ctx.fn.name + ": " + p.fit.describe() + " recognized at PTX instruction " + std::to_string(at);
  exec::Site s = ctx.site(ctx.fn.instrs[p.commit]);
  if (s.ptx_line) where = ctx.fn.name + ": " + p.fit.describe() + " (PTX line " + std::to_string(s.ptx_line) + (s.source.empty() ? "" : ", " + s.source) + ")";
  if (std::find(recognized_.begin(), recognized_.end(), where) == recognized_.end()) recognized_.push_back(where);
}

std::optional<MathRoutineRecognizer::Plan> MathRoutineRecognizer::probe(exec::ExecContext& ctx, uint32_t at, uint32_t root,
                                                                       Trigger trigger) {
  // A selection is read as a routine only where the selected value itself is the function:
  // nothing after it is stepped over.
  const bool selection = trigger == Trigger::Selection;
  const Tolerance tol = selection ? Tolerance::Strict : Tolerance::Loose;
  const ptx::Function& fn = ctx.fn;
  exec::Thread& th = ctx.th;
  auto fmt = format_of(fn.regs[root].type);
  if (!fmt) return std::nullopt;
  const uint32_t root_sym = th.regs[root].sym;
  std::vector<uint32_t> reads, writes;

  // Registers computed from the input before `at` are recomputed from each probe value.
  std::vector<uint32_t> prelude;
  {
    std::vector<int8_t> memo(fn.regs.size(), -1);  // -1 unknown, 0 no, 1 yes
    std::vector<uint32_t> stack;
    std::function<bool(uint32_t, int)> downstream = [&](uint32_t r, int depth) -> bool {
      if (memo[r] >= 0) return memo[r];
      if (th.regs[r].sym == root_sym) return (memo[r] = 1) != 0;
      if (!th.regs[r].is_symbolic() || depth > 64) return (memo[r] = 0) != 0;
      uint32_t def = th.def_pc[r];
      if (def >= fn.instrs.size()) return (memo[r] = 0) != 0;
      memo[r] = 0;  // cycles through loops count as not downstream
      std::vector<uint32_t> rs;
      reads_of(fn.instrs[def], rs);
      bool any = false;
      for (uint32_t x : rs) any |= downstream(x, depth + 1);
      if (any) prelude.push_back(def);
      memo[r] = any ? 1 : 0;
      return any;
    };
    // Every register computed from the input (not only those the refusing instruction
    // reads: the routine may read others later).
    for (uint32_t r = 0; r < fn.regs.size(); ++r)
      if (th.regs[r].is_symbolic()) downstream(r, 0);
    std::sort(prelude.begin(), prelude.end());
    prelude.erase(std::unique(prelude.begin(), prelude.end()), prelude.end());
  }

  exec::ConcreteDomain concrete;
  const std::vector<uint32_t>& ipdom = post_dominators(fn);
  std::vector<Run> runs;
  for (long double t0 : probe_points()) {
    uint64_t bits = ieee::from_double(*fmt, static_cast<double>(t0));
    Run run{static_cast<long double>(ieee::to_double(*fmt, bits)), {}};
    exec::Thread scratch = th;
    scratch.plans.clear();
    std::vector<State> state(fn.regs.size(), State::Fixed);
    // Where the paths of branches on the input meet again, innermost last: until then,
    // whatever the probe writes depends on the input through the path taken.
    std::vector<uint32_t> joins;
    std::vector<uint8_t> written(fn.regs.size(), 0);  // by the probe so far
    for (size_t r = 0; r < fn.regs.size(); ++r) {
      if (th.regs[r].sym == root_sym) state[r] = State::Sample, scratch.regs[r] = Value::of_bits(bits);
      else if (!th.regs[r].is_concrete()) state[r] = State::Opaque;
    }
    exec::ExecContext sctx{ctx.m, ctx.cta, scratch, ctx.mod, fn, concrete};
    const exec::Semantics& sem = ctx.m.semantics();
    bool failed = false;
    // A load from a constant table or local scratch, or a store to local scratch; false
    // where the probe must stop (other memory, vectors, an address from other symbolic data).
    ProbeScratch scratch_memory;
    auto probe_access = [&](const ptx::Instr& I, Event& ev) -> bool {
      bool load = I.op != ptx::Op::St;
      const ptx::Operand& data = I.operands[load ? 0 : 1];
      const ptx::Operand& where = I.operands[load ? 1 : 0];
      unsigned size = ptx::type_bits(I.type()) / 8;
      if (data.kind != ptx::Operand::Kind::Reg || size == 0 || size > 8) return false;
      std::vector<uint32_t> addr_regs;
      registers_in(where, addr_regs);
      State as = State::Fixed;
      for (uint32_t r : addr_regs) as = std::max(as, state[r]);
      if (as == State::Opaque) return false;
      try {
        exec::Space sp = exec::space_of(I);
        uint64_t addr = sctx.address(where);
        bool derived = as == State::Sample;
        for (uint32_t r : addr_regs)
          if (state[r] == State::Fixed && !written[r]) ev.fixed_reads.emplace_back(r, scratch.regs[r].bits);
        if (!load) {
          State vs = state[data.index];
          if (sp != exec::Space::Local || vs == State::Opaque) return false;
          derived |= vs == State::Sample;
          scratch_memory.store(addr, size, scratch.regs[data.index].bits, derived);
          if (vs == State::Fixed && !written[data.index]) ev.fixed_reads.emplace_back(data.index, scratch.regs[data.index].bits);
          ev.absorbed |= derived;
          if (ev.absorbed) run.local_stores.insert({addr, size});
          return true;
        }
        if (ptx::type_bits(fn.regs[data.index].type) != size * 8) return false;
        std::optional<uint64_t> bits = sp == exec::Space::Local ? scratch_memory.load(addr, size, derived)
                                                                 : ctx.m.peek_constant(sctx, sp, addr, size);
        if (!bits) return false;
        scratch.regs[data.index] = Value::of_bits(*bits);
        written[data.index] = 1;
        ev.absorbed |= derived;
        state[data.index] = ev.absorbed ? State::Sample : State::Fixed;
        ev.writes = {data.index};
        ev.values = {*bits};
        return true;
      } catch (const exec::Refusal&) {
        return false;
      }
    };
    // One instruction of the probe; returns false to stop.
    auto step = [&](uint32_t pc, bool record) -> std::optional<uint32_t> {
      const ptx::Instr& I = fn.instrs[pc];
      while (!joins.empty() && joins.back() == pc) joins.pop_back();
      if (record && !run.visits.count(pc)) {
        Run::Visit v{run.events.size(), {}};
        for (uint32_t r = 0; r < fn.regs.size(); ++r)
          if (state[r] == State::Sample) v.sample_regs.emplace_back(r, scratch.regs[r].bits);
        run.visits.emplace(pc, std::move(v));
        run.order.push_back(pc);
      }
      // Parameter loads read constants of the launch: harmless between a routine's steps.
      bool param_load = ptx::is_param_load(I);
      bool memory = (I.op == ptx::Op::Ld || I.op == ptx::Op::Ldu || I.op == ptx::Op::St) && !param_load;
      if (!ptx::register_only_op(I.op) && !param_load && !memory) return std::nullopt;
      State g = I.has_guard ? state[I.guard] : State::Fixed;
      if (g == State::Opaque) return std::nullopt;
      if (memory) {
        bool on = !I.has_guard || ((scratch.regs[I.guard].bits & 1) != I.guard_negated);
        Event ev{pc, {}, {}, g == State::Sample || !joins.empty(), {}};
        if (on && !probe_access(I, ev)) return std::nullopt;
        if (record) run.events.push_back(std::move(ev));
        return pc + 1;
      }
      reads_of(I, reads);
      writes_of(I, writes);
      State s = State::Fixed;
      Event ev{pc, writes, {}, false, {}};
      for (uint32_t r : reads) {
        if (I.has_guard && r == I.guard) continue;
        s = std::max(s, state[r]);
      }
      bool on = !I.has_guard || ((scratch.regs[I.guard].bits & 1) != I.guard_negated);
      std::optional<std::pair<uint32_t, bool>> outsider;
      if (on && s == State::Opaque && record) {
        // A routine's value added to an unrelated one (sum += exp(x)): evaluate it with the
        // outsider at zero; this can only be the routine's last instruction.
        outsider = additive_outsider(I, state);
        if (outsider) {
          bool routine = false;
          for (uint32_t r : reads) routine |= state[r] == State::Sample;
          if (!routine) outsider.reset();
        }
      }
      if (outsider) {
        Value saved = scratch.regs[outsider->first];
        scratch.regs[outsider->first] = Value::of_bits(0);
        scratch.pc = pc + 1;
        try {
          sem.step[static_cast<size_t>(I.op)](sctx, I);
        } catch (const exec::Refusal&) {
          failed = true;
          return std::nullopt;
        }
        scratch.regs[outsider->first] = saved;
        ev.absorbed = true;
        ev.addend = outsider->first;
        ev.addend_negated = outsider->second;
        for (uint32_t w : writes) {
          ev.values.push_back(scratch.regs[w].bits);
          state[w] = State::Opaque;  // what follows must not treat it as the routine's alone
        }
        run.events.push_back(std::move(ev));
        return pc + 1;
      }
      if (on && s == State::Opaque) {
        if (I.op == ptx::Op::Bra) return std::nullopt;
        // On a path of a branch on the input, what it writes depends on the path taken even
        // when computed from other data: it belongs to the routine, so a plan that leaves such
        // a register live is rejected rather than stepping over its computation.
        ev.absorbed = g == State::Sample || !joins.empty();
        for (uint32_t r : reads) ev.escapes |= state[r] == State::Sample;
        for (uint32_t w : writes) state[w] = State::Opaque;
        if (record) run.events.push_back(ev);
        return pc + 1;
      }
      ev.absorbed = s == State::Sample || g == State::Sample || !joins.empty();
      if (I.op == ptx::Op::Bra && g == State::Sample) {
        uint32_t join = ipdom[pc];
        if (join == ptx::kNoPostDominator) return std::nullopt;
        joins.push_back(join);
        if (record) run.branch_joins[pc] = join;
      }
      uint32_t next = pc + 1;
      if (on) {
        for (uint32_t r : reads)
          if (state[r] == State::Fixed && !written[r]) ev.fixed_reads.emplace_back(r, scratch.regs[r].bits);
        scratch.pc = pc + 1;
        try {
          sem.step[static_cast<size_t>(I.op)](sctx, I);
        } catch (const exec::Refusal& refusal) {
          if (debug_) std::fprintf(stderr, "  probe step at pc %u refused: %s\n", pc, refusal.what());
          failed = true;
          return std::nullopt;
        }
        next = scratch.pc;
        for (uint32_t w : writes) {
          state[w] = ev.absorbed ? State::Sample : State::Fixed;
          written[w] = 1;
          ev.values.push_back(scratch.regs[w].bits);
        }
      } else {
        ev.writes.clear();
      }
      if (record) run.events.push_back(std::move(ev));
      return next;
    };
    // A prelude instruction the probe cannot run (a warp shuffle, a load: the running sum
    // of a softmax reaches the routine's input through a loop full of them) computes
    // something that is not the input's alone: what it writes is other data to the probe,
    // and a routine that reads it has no values to fit there.
    for (uint32_t pc : prelude)
      if (!step(pc, false)) {
        writes_of(fn.instrs[pc], writes);
        for (uint32_t w : writes) state[w] = State::Opaque;
        failed = false;
      }
    uint32_t pc = at;
    for (size_t n = 0; n < (selection ? 1 : kMaxProbeSteps) && pc < fn.instrs.size(); ++n) {
      auto next = step(pc, true);
      if (!next) break;
      pc = *next;
    }
    if (failed) {
      if (debug_) std::fprintf(stderr, "  probe root %s: a step refused\n", fn.regs[root].name.c_str());
      return std::nullopt;
    }
    if (debug_) std::fprintf(stderr, "  run t=%Lg ends at pc %u after %zu events\n", run.t, pc, run.events.size());
    runs.push_back(std::move(run));
  }

  const Liveness& live = liveness(fn);
  if (debug_) {
    std::fprintf(stderr, "  probe root %s: %zu runs, run0 %zu events\n", fn.regs[root].name.c_str(), runs.size(), runs[0].events.size());
    for (const Event& e : runs[0].events)
      std::fprintf(stderr, "    pc %u absorbed %d writes %zu %s\n", e.pc, e.absorbed, e.writes.size(), e.writes.empty() ? "" : fn.regs[e.writes[0]].name.c_str());
  }
  for (const Event& e : runs[0].events) {
    if (!e.absorbed || e.writes.size() != 1 || (selection && e.pc != at)) continue;
    uint32_t y = e.writes[0];
    auto yfmt = format_of(fn.regs[y].type);
    if (!yfmt || fn.regs[y].type == ptx::Type::Pred) continue;
    std::vector<Sample> samples;
    std::vector<size_t> commit_index;
    for (const Run& r : runs) {
      size_t k = 0;
      while (k < r.events.size() && !(r.events[k].pc == e.pc && r.events[k].writes.size() == 1 && r.events[k].writes[0] == y)) ++k;
      // An event computed from other symbolic data carries no value: no sample there.
      if (k == r.events.size() || r.events[k].values.size() != 1) break;
      double v = ieee::to_double(*yfmt, r.events[k].values[0]);
      samples.push_back({r.t, static_cast<long double>(v), std::isnan(v)});
      commit_index.push_back(k);
    }
    if (samples.size() != runs.size()) continue;
    auto fit = fit_routine(samples, tol);
    if (debug_) {
      std::fprintf(stderr, "    candidate %s at pc %u: %s;", fn.regs[y].name.c_str(), e.pc, fit ? fit->describe().c_str() : "no fit");
      for (size_t k = 0; k < samples.size() && k < 6; ++k) std::fprintf(stderr, " (%Lg -> %Lg)", samples[k].t, samples[k].y);
      std::fprintf(stderr, "\n");
    }
    if (!fit) continue;
    // Everything else the routine wrote must be dead once its result is there.
    Plan plan;
    plan.fit = *fit;
    plan.commit = e.pc;
    plan.reg = y;
    plan.addend_reg = e.addend;
    plan.addend_negated = e.addend_negated;
    plan.addend_type = fn.instrs[e.pc].type();
    std::set<uint32_t> skip{at, e.pc}, tainted;
    bool alive = false;
    for (size_t ri = 0; ri < runs.size() && !alive; ++ri) {
      for (size_t k = 0; k <= commit_index[ri]; ++k) {
        const Event& ev = runs[ri].events[k];
        if (ev.escapes && k < commit_index[ri]) alive = true;
        if (!ev.absorbed) continue;
        skip.insert(ev.pc);
        for (uint32_t w : ev.writes) {
          if (w == y) continue;
          tainted.insert(w);
          if (live.live_at(e.pc + 1, w)) alive = true;
        }
      }
    }
    if (alive) {
      if (debug_) std::fprintf(stderr, "    result %s: other routine registers live after it\n", fn.regs[y].name.c_str());
      continue;
    }
    std::vector<size_t> ends;
    for (size_t k : commit_index) ends.push_back(k + 1);
    plan.fixed_inputs = fixed_inputs_of(runs, ends);
    if (leaks(live, runs, ends, e.pc + 1, {y})) {
      if (debug_) std::fprintf(stderr, "    result %s: a register left live differs between probes\n", fn.regs[y].name.c_str());
      continue;
    }
    tainted.insert(y);
    if (!step_over_untaken(fn, at, e.pc + 1, skip, tainted)) continue;
    plan.skip.assign(skip.begin(), skip.end());
    plan.jumps = jumps_of(fn, plan.skip, runs);
    plan.clobber_local = local_stores_of(runs);
    return plan;
  }
  if (selection) return std::nullopt;
  if (auto plan = merge_commit(fn, live, runs, at, false, tol, debug_)) return plan;
  if (auto plan = merge_commit(fn, live, runs, at, true, tol, debug_)) return plan;
  return std::nullopt;
}

}  // namespace racer::idiom
