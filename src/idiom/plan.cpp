#include "idiom/plan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "exec/thread.hpp"
#include "ptx/effects.hpp"
#include "ptx/post_dominators.hpp"

namespace racer::idiom {
namespace {

// A fit on the probes inside an input's range needs this many of them.
constexpr size_t kMinRangeSamples = 8;

// The fit of the samples, over the input's range where one is given (the samples outside it
// are dropped).
std::optional<Fit> fit_in_range(std::vector<Sample>& samples, Tolerance tol, const std::optional<InputRange>& range,
                                const std::vector<mpq_class>& offsets = {}) {
  if (range) {
    std::erase_if(samples, [&](const Sample& x) { return !range->contains(x.t); });
    if (samples.size() < kMinRangeSamples) return std::nullopt;
  }
  return fit_routine(samples, tol, offsets);
}

// The exact values of an instruction's float immediates (an fma's addend the compiler fused
// into a routine's last step): offsets a fit may take as its d.
std::vector<mpq_class> float_immediates(const ptx::Instr& ins) {
  std::vector<mpq_class> out;
  for (size_t k = 1; k < ins.operands.size(); ++k) {
    const ptx::Operand& o = ins.operands[k];
    if (o.kind != ptx::Operand::Kind::FloatImm || (o.float_bits != 32 && o.float_bits != 64)) continue;
    const double v = o.float_bits == 32 ? static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(o.value)))
                                        : std::bit_cast<double>(static_cast<uint64_t>(o.value));
    if (std::isfinite(v)) out.emplace_back(v);
  }
  return out;
}

using ptx::Liveness;
using ptx::reads_of;
using ptx::writes_of;

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

// The local scratch the plan's skipped stores would have written. A probe runs on past the
// routine's result: a store of that result (a cumulative sum's running value into a local
// array) is the thread's to make, and what it stores must stay readable.
std::vector<std::pair<uint64_t, unsigned>> local_stores_of(const std::vector<Run>& runs, const std::vector<uint32_t>& skip) {
  std::set<std::pair<uint64_t, unsigned>> all;
  for (const Run& r : runs)
    for (const auto& [pc, addr, size] : r.local_stores)
      if (std::binary_search(skip.begin(), skip.end(), pc)) all.insert({addr, size});
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

// Completes a plan's steps over [at, to): what its jumps carry the thread past, and whatever
// reads a register a stepped-over instruction wrote. False where one of those reaches memory
// or a collective, or where a register the plan leaves unwritten (other than its results) is
// still live at `to`: the thread would go on with a value the routine's path should have set
// (erff's 1 - 2^x path, taken only for some inputs, feeding a max after the routine).
bool close_plan(const ptx::Function& fn, const Liveness& live, const std::vector<Run>& runs, uint32_t at, uint32_t to,
                std::set<uint32_t>& skip, std::set<uint32_t>& tainted, const std::set<uint32_t>& results,
                RoutinePlan& plan) {
  std::vector<uint32_t> writes;
  // The instruction the recognition began at is stepped over whether or not the probed input
  // reaches it: what it writes is the plan's too. (A root that does not feed it, such as a
  // rescaling factor exp2(m_old - m_new) found live where the probes merge, would otherwise
  // leave its write unset and the thread reading a stale register.)
  writes_of(fn.instrs[at], writes);
  tainted.insert(writes.begin(), writes.end());
  for (size_t before = SIZE_MAX; before != skip.size();) {
    before = skip.size();
    for (uint32_t pc : jumped_over(fn, jumps_of(fn, {skip.begin(), skip.end()}, runs), skip)) {
      if (!ptx::register_only_op(fn.instrs[pc].op)) return false;
      skip.insert(pc);
      writes_of(fn.instrs[pc], writes);
      tainted.insert(writes.begin(), writes.end());
    }
    if (!step_over_untaken(fn, at, to, skip, tainted)) return false;
  }
  for (uint32_t w : tainted)
    if (!results.count(w) && live.live_at(to, w)) return false;
  plan.skip.assign(skip.begin(), skip.end());
  plan.jumps = jumps_of(fn, plan.skip, runs);
  // A jump to where a branch's paths meet that passes the commit would leave the routine open
  // (erff over a range where every probe ran the 1 - 2^x path: 2^x is a result there, but the
  // branch around that path jumps to its end).
  return !jumped_over(fn, plan.jumps, {}).count(plan.commit);
}

// Where a routine's paths merge (erff: the polynomial on one path, 1 - 2^(...) on the other,
// both into one register), the result is in a register on arrival rather than written by
// one instruction every probe value executes.
// Each run's first visit of m (every run visits it).
std::vector<const Run::Visit*> visits_of(const std::vector<Run>& runs, uint32_t m) {
  std::vector<const Run::Visit*> at;
  at.reserve(runs.size());
  for (const Run& r : runs) at.push_back(&r.visits.at(m));
  return at;
}

// The function register y holds at the first visit of m (`at`: visits_of), across the runs,
// if one fits. (A visit lists its registers in order: a plan search asks about each of them.)
std::optional<Fit> fit_at_visit(const ptx::Function& fn, const std::vector<Run>& runs,
                                const std::vector<const Run::Visit*>& at, uint32_t y, Tolerance tol,
                                const std::optional<InputRange>& range) {
  auto yfmt = format_of(fn.regs[y].type);
  if (!yfmt || fn.regs[y].type == ptx::Type::Pred || ptx::type_bits(fn.regs[y].type) < 32) return std::nullopt;
  std::vector<Sample> samples;
  samples.reserve(runs.size());
  for (size_t ri = 0; ri < runs.size(); ++ri) {
    const auto& regs = at[ri]->sample_regs;
    auto it = std::lower_bound(regs.begin(), regs.end(), y, [](const auto& p, uint32_t r) { return p.first < r; });
    if (it == regs.end() || it->first != y) return std::nullopt;
    double v = ieee::to_double(*yfmt, it->second);
    samples.push_back({runs[ri].t, static_cast<long double>(v), std::isnan(v)});
  }
  return fit_in_range(samples, tol, range);
}

// Whether a run's event (by index) comes after the thread's paths meet (PlanSearch::path_join):
// the probe ran on past the meeting point, where the thread merges its paths before it, so a
// result in place only there would leave the routine open across it.
bool past_path_join(const PlanSearch& s, const Run& r, size_t event) {
  if (s.path_join == UINT32_MAX) return false;
  auto it = r.visits.find(s.path_join);
  return it != r.visits.end() && event > it->second.events_before;
}

// `several`: whether a plan may leave more than one result (tried only when no plan with
// one result exists, so that a routine is read whole rather than by its first pieces).
// `joins_only`: m only where a branch on the input meets its other path.
std::optional<RoutinePlan> merge_commit(const PlanSearch& s, bool several, bool joins_only = false) {
  const ptx::Function& fn = s.fn;
  const Liveness& live = s.live;
  const std::vector<Run>& runs = s.runs;
  const uint32_t at = s.at;
  const Tolerance tol = s.tol;
  std::set<uint32_t> joins;
  for (const Run& r : runs)
    for (auto [branch, join] : r.branch_joins) joins.insert(join);
  for (uint32_t m : runs[0].order) {
    if (m == at || (joins_only && !joins.count(m))) continue;
    bool everywhere = true;
    for (const Run& r : runs) everywhere &= r.visits.count(m) > 0;
    if (!everywhere) continue;
    if (s.check_limits) s.check_limits();
    const std::vector<const Run::Visit*> at_m = visits_of(runs, m);
    bool after_join = false;
    for (size_t ri = 0; ri < runs.size(); ++ri) after_join |= past_path_join(s, runs[ri], at_m[ri]->events_before);
    if (after_join) continue;
    for (auto [y, bits0] : at_m[0]->sample_regs) {
      (void)bits0;
      auto fit = fit_at_visit(fn, runs, at_m, y, tol, s.input_range);
      if (!fit) continue;
      RoutinePlan plan;
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
        auto f = fit_at_visit(fn, runs, at_m, w, tol, s.input_range);
        if (!f) return false;
        results.insert(w);
        plan.extra.emplace_back(w, *f);
        return true;
      };
      for (size_t ri = 0; ri < runs.size() && !alive; ++ri) {
        const Run& r = runs[ri];
        for (size_t k = 0; k < at_m[ri]->events_before; ++k) {
          const Event& ev = r.events[k];
          if (ev.escapes || ev.addend != UINT32_MAX) {  // a plan committing at a merge adds no outsider
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
      for (const Run::Visit* v : at_m) ends.push_back(v->events_before);
      if (leaks(live, runs, ends, m, results)) continue;
      plan.fixed_inputs = fixed_inputs_of(fn, runs, ends);
      tainted.insert(results.begin(), results.end());
      if (!close_plan(fn, live, runs, at, m, skip, tainted, results, plan)) continue;
      plan.clobber_local = local_stores_of(runs, plan.skip);
      plan.input_range = s.input_range;
      if (s.debug) std::fprintf(stderr, "    merge commit %s before pc %u: %s\n", fn.regs[y].name.c_str(), m, fit->describe().c_str());
      return plan;
    }
  }
  return std::nullopt;
}

// The register event e writes, where it holds a family function of the input on every run and
// the routine's other registers are dead once it is there.
std::optional<RoutinePlan> plan_at_write(const PlanSearch& s, const Event& e) {
  const ptx::Function& fn = s.fn;
  const ptx::Liveness& live = s.live;
  const std::vector<Run>& runs = s.runs;
  const uint32_t at = s.at;
  if (!e.absorbed || e.writes.size() != 1 || (s.selection && e.pc != s.at) || e.pc == s.path_join) return std::nullopt;
  uint32_t y = e.writes[0];
  auto yfmt = format_of(fn.regs[y].type);
  if (!yfmt || fn.regs[y].type == ptx::Type::Pred) return std::nullopt;
  std::vector<Sample> samples;
  std::vector<size_t> commit_index;
  for (const Run& r : runs) {
    size_t k = 0;
    while (k < r.events.size() && !(r.events[k].pc == e.pc && r.events[k].writes.size() == 1 && r.events[k].writes[0] == y)) ++k;
    // An event computed from other symbolic data carries no value: no sample there.
    if (k == r.events.size() || r.events[k].values.size() != 1 || past_path_join(s, r, k)) break;
    double v = ieee::to_double(*yfmt, r.events[k].values[0]);
    samples.push_back({r.t, static_cast<long double>(v), std::isnan(v)});
    commit_index.push_back(k);
  }
  if (samples.size() != runs.size()) return std::nullopt;
  auto fit = fit_in_range(samples, s.tol, s.input_range, float_immediates(fn.instrs[e.pc]));
  if (s.debug) {
    std::fprintf(stderr, "    candidate %s at pc %u: %s;", fn.regs[y].name.c_str(), e.pc, fit ? fit->describe().c_str() : "no fit");
    for (size_t k = 0; k < samples.size() && k < 6; ++k) std::fprintf(stderr, " (%Lg -> %Lg)", samples[k].t, samples[k].y);
    std::fprintf(stderr, "\n");
  }
  if (!fit) return std::nullopt;
  // Everything else the routine wrote must be dead once its result is there.
  RoutinePlan plan;
  plan.fit = *fit;
  plan.commit = e.pc;
  plan.reg = y;
  plan.addend_reg = e.addend;
  plan.addend_negated = e.addend_negated;
  plan.addend_type = fn.instrs[e.pc].type();
  plan.input_range = s.input_range;
  std::set<uint32_t> skip{at, e.pc}, tainted;
  bool alive = false;
  for (size_t ri = 0; ri < runs.size() && !alive; ++ri) {
    for (size_t k = 0; k <= commit_index[ri]; ++k) {
      const Event& ev = runs[ri].events[k];
      // An earlier step that added an outsider to the routine's value: only the commit may.
      if ((ev.escapes || ev.addend != UINT32_MAX) && k < commit_index[ri]) alive = true;
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
    if (s.debug) std::fprintf(stderr, "    result %s: other routine registers live after it\n", fn.regs[y].name.c_str());
    return std::nullopt;
  }
  std::vector<size_t> ends;
  for (size_t k : commit_index) ends.push_back(k + 1);
  plan.fixed_inputs = fixed_inputs_of(fn, runs, ends);
  if (leaks(live, runs, ends, e.pc + 1, {y})) {
    if (s.debug) std::fprintf(stderr, "    result %s: a register left live differs between probes\n", fn.regs[y].name.c_str());
    return std::nullopt;
  }
  tainted.insert(y);
  if (!close_plan(fn, live, runs, at, e.pc + 1, skip, tainted, {y}, plan)) {
    if (s.debug) std::fprintf(stderr, "    result %s: a step the plan leaves out is still needed\n", fn.regs[y].name.c_str());
    return std::nullopt;
  }
  plan.clobber_local = local_stores_of(runs, plan.skip);
  return plan;
}

}  // namespace

// What the routine read from the thread's state as it was when the probes began: a plan
// serves another thread (or another visit) only where these are the same. Registers the
// routine computed itself are not inputs; what they were computed from is. Only what can
// change the plan counts: what the routine's own steps read, what a branch or a memory
// access read (they choose the path and what the probe sees), and, going back, whatever
// computed a register one of those read (its guard too). The thread's other steps between
// them (another element's column compared with a label) run in the thread itself, whatever
// their values.
std::vector<std::pair<uint32_t, uint64_t>> fixed_inputs_of(const ptx::Function& fn, const std::vector<Run>& runs,
                                                           const std::vector<size_t>& ends) {
  std::map<uint32_t, uint64_t> in;
  std::vector<uint32_t> reads, writes;
  for (size_t ri = 0; ri < runs.size(); ++ri) {
    std::set<uint32_t> needed;
    const size_t end = std::min(ends[ri], runs[ri].events.size());
    for (size_t k = end; k-- > 0;) {
      const Event& ev = runs[ri].events[k];
      const ptx::Instr& I = fn.instrs[ev.pc];
      bool relevant = ev.absorbed || I.op == ptx::Op::Bra || !ptx::register_only_op(I.op);
      // (What the instruction may write, not what it wrote here: its guard may differ there.)
      writes_of(I, writes);
      for (uint32_t w : writes) relevant |= needed.count(w) > 0;
      if (!relevant) continue;
      for (auto [r, bits] : ev.fixed_reads) in.emplace(r, bits);
      reads_of(I, reads);
      needed.insert(reads.begin(), reads.end());
    }
  }
  return {in.begin(), in.end()};
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

std::set<uint32_t> jumped_over(const ptx::Function& fn, const std::vector<std::pair<uint32_t, uint32_t>>& jumps,
                               const std::set<uint32_t>& skip) {
  std::set<uint32_t> seen, out;
  std::vector<uint32_t> work, next;
  for (auto [branch, to] : jumps) {
    if (to == exec::AbsorbPlan::kLeaves) continue;  // (refused where the thread gets there)
    ptx::successors_of(fn, branch, work);
    while (!work.empty()) {
      const uint32_t pc = work.back();
      work.pop_back();
      if (pc == to || pc >= fn.instrs.size() || !seen.insert(pc).second) continue;
      if (!skip.count(pc)) out.insert(pc);
      ptx::successors_of(fn, pc, next);
      work.insert(work.end(), next.begin(), next.end());
    }
    seen.clear();
  }
  return out;
}

std::optional<RoutinePlan> plan_from_runs(const PlanSearch& s) {
  if (s.debug) {
    std::fprintf(stderr, "  %zu runs, run0 %zu events\n", s.runs.size(), s.runs[0].events.size());
    for (const Event& e : s.runs[0].events)
      std::fprintf(stderr, "    pc %u absorbed %d writes %zu %s\n", e.pc, e.absorbed, e.writes.size(),
                   e.writes.empty() ? "" : s.fn.regs[e.writes[0]].name.c_str());
  }
  std::optional<RoutinePlan> written;
  for (const Event& e : s.runs[0].events)
    if ((written = plan_at_write(s, e))) break;
  // Over an input's range, the routine's checks of values the input never takes (logf's NaN
  // below 0, on the float's bits) may come after an early register that already holds the
  // function: a result where the paths of its branches meet, later, leaves them behind. Of
  // the two, the one in place later covers more of the routine.
  if (s.input_range && !s.selection)
    if (auto merged = merge_commit(s, false, true)) {
      const std::vector<uint32_t>& order = s.runs[0].order;
      auto place = [&](uint32_t pc) { return std::find(order.begin(), order.end(), pc) - order.begin(); };
      if (!written || place(merged->commit) > place(written->commit)) return merged;
    }
  if (written) return written;
  if (s.selection) return std::nullopt;
  if (auto plan = merge_commit(s, false)) return plan;
  return merge_commit(s, true);
}

}  // namespace racer::idiom
