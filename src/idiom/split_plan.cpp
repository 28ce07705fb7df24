#include "idiom/split_plan.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "ptx/effects.hpp"
#include "ptx/opcodes.hpp"

namespace racer::idiom {
namespace {

// The events of one run by instruction, in the order of its visits.
using Visits = std::map<uint32_t, std::vector<const Event*>>;

Visits visits_of(const Run& r) {
  Visits v;
  for (const Event& e : r.events) v[e.pc].push_back(&e);
  return v;
}

// Whether every visit of pc, on every run, writes one float register a family function of
// the input (the same function at each visit); the function if so.
std::optional<Fit> fit_every_visit(const PlanSearch& s, const std::vector<Visits>& visits, uint32_t pc) {
  const ptx::Instr& I = s.fn.instrs[pc];
  std::vector<uint32_t> writes;
  ptx::writes_of(I, writes);
  if (writes.size() != 1) return std::nullopt;
  const ptx::Type t = s.fn.regs[writes[0]].type;
  auto fmt = format_of(t);
  if (!fmt || t == ptx::Type::Pred || ptx::type_bits(t) < 32) return std::nullopt;
  auto first = visits[0].find(pc);
  if (first == visits[0].end()) return std::nullopt;
  const size_t n = first->second.size();
  std::optional<Fit> fit;
  for (size_t k = 0; k < n; ++k) {
    std::vector<Sample> samples;
    for (size_t ri = 0; ri < visits.size(); ++ri) {
      auto it = visits[ri].find(pc);
      if (it == visits[ri].end() || it->second.size() != n) return std::nullopt;
      const Event& e = *it->second[k];
      if (!e.absorbed || e.writes.size() != 1 || e.values.size() != 1) return std::nullopt;
      double v = ieee::to_double(*fmt, e.values[0]);
      samples.push_back({s.runs[ri].t, static_cast<long double>(v), std::isnan(v)});
    }
    if (!fit) fit = fit_routine(samples, s.tol);
    if (!fit || !agrees(*fit, samples, s.tol)) return std::nullopt;
  }
  return fit;
}

// What the routine's registers hold along a run: its intermediate data, or a result.
enum class Held : uint8_t { Internal, Result };

// Whether, along every run, only stepped-over instructions read the routine's intermediate
// data, and none of it is live where the plan ends.
bool contained(const PlanSearch& s, const std::set<uint32_t>& results, uint32_t end) {
  for (const Run& r : s.runs) {
    std::map<uint32_t, Held> held;
    for (const Event& e : r.events) {
      if (!e.absorbed) {
        for (uint32_t x : e.reads) {
          auto it = held.find(x);
          if (it != held.end() && it->second == Held::Internal) {
            if (s.debug) std::fprintf(stderr, "    split: pc %u reads the routine's %s\n", e.pc, s.fn.regs[x].name.c_str());
            return false;
          }
        }
        for (uint32_t w : e.writes) held.erase(w);
        continue;
      }
      Held h = results.count(e.pc) ? Held::Result : Held::Internal;
      for (uint32_t w : e.writes) held[w] = h;
    }
    for (auto [reg, h] : held)
      if (h == Held::Internal && s.live.live_at(end, reg)) {
        if (s.debug) std::fprintf(stderr, "    split: %s is live where the plan ends\n", s.fn.regs[reg].name.c_str());
        return false;
      }
  }
  return true;
}

// What the thread must hold as the probes began for the plan to serve it: the registers the
// probes' path and the routine's values depend on (branches and the routine's own steps, back
// along what computed them), not the addresses of the loads and stores along the way, which
// differ from lane to lane and change nothing a probe computed.
std::vector<std::pair<uint32_t, uint64_t>> path_inputs(const PlanSearch& s) {
  std::map<uint32_t, uint64_t> in;
  for (const Run& r : s.runs) {
    std::set<uint32_t> needed;
    for (size_t k = r.events.size(); k-- > 0;) {
      const Event& e = r.events[k];
      bool relevant = e.absorbed || s.fn.instrs[e.pc].op == ptx::Op::Bra;
      for (uint32_t w : e.writes) relevant |= needed.erase(w) > 0;
      if (!relevant) continue;
      needed.insert(e.reads.begin(), e.reads.end());
      for (auto [reg, bits] : e.fixed_reads) in.emplace(reg, bits);
    }
  }
  return {in.begin(), in.end()};
}

}  // namespace

std::optional<RoutinePlan> split_plan_from_runs(const PlanSearch& s) {
  const ptx::Function& fn = s.fn;
  if (s.selection || s.runs.empty()) return std::nullopt;
  // Every probe follows the thread's own path (it branches only on the routine's data and on
  // what the thread holds concretely) to one instruction it cannot run, met there first.
  const uint32_t end = s.runs[0].stop;
  if (s.debug && end < fn.instrs.size())
    std::fprintf(stderr, "    split: the probes stop at pc %u (%s)\n", end, std::string(ptx::op_name(fn.instrs[end].op)).c_str());
  if (end >= fn.instrs.size()) return std::nullopt;
  for (const Run& r : s.runs)
    if (r.stop != end || r.stop_visited_before) return std::nullopt;
  // An instruction is the routine's at every visit or at none: the thread steps over it by
  // where it is. The routine's own instructions compute in registers.
  std::map<uint32_t, bool> routine;
  for (const Run& r : s.runs)
    for (const Event& e : r.events) {
      auto [it, fresh] = routine.emplace(e.pc, e.absorbed);
      if (!fresh && it->second != e.absorbed) return std::nullopt;
      if (e.absorbed && !ptx::register_only_op(fn.instrs[e.pc].op)) return std::nullopt;
    }
  if (!routine.count(s.at) || !routine.at(s.at)) return std::nullopt;
  // The thread runs what a probe stepped over at a branch on other data: none of it may be
  // stepped over as the routine's elsewhere.
  for (const Run& r : s.runs)
    for (uint32_t pc : r.unfollowed)
      if (routine.count(pc) && routine.at(pc)) return std::nullopt;
  std::vector<Visits> visits;
  for (const Run& r : s.runs) visits.push_back(visits_of(r));
  RoutinePlan plan;
  std::set<uint32_t> results;
  for (auto [pc, is_routine] : routine) {
    if (is_routine) plan.skip.push_back(pc);
    if (!is_routine) continue;
    if (auto fit = fit_every_visit(s, visits, pc)) {
      std::vector<uint32_t> writes;
      ptx::writes_of(fn.instrs[pc], writes);
      plan.placed.push_back({pc, writes[0], *fit});
      results.insert(pc);
    }
  }
  if (plan.placed.empty() || !contained(s, results, end)) return std::nullopt;
  plan.fit = plan.placed.front().fit;
  plan.commit = plan.placed.front().instr;
  plan.reg = plan.placed.front().reg;
  plan.end = end;
  plan.jumps = jumps_of(fn, plan.skip, s.runs);
  // The thread runs what the plan does not step over: a jump must not carry it past any of that.
  if (!jumped_over(fn, plan.jumps, {plan.skip.begin(), plan.skip.end()}).empty()) {
    if (s.debug) std::fprintf(stderr, "    split: a branch's jump would carry the thread past steps it must run\n");
    return std::nullopt;
  }
  plan.fixed_inputs = path_inputs(s);
  if (s.debug) std::fprintf(stderr, "    split plan: %zu results, %zu steps over, ends at pc %u\n", plan.placed.size(), plan.skip.size(), end);
  return plan;
}

}  // namespace racer::idiom
