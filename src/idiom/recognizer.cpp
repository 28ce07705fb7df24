#include "idiom/recognizer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "exec/symbolic_domain.hpp"
#include "expr/print.hpp"
#include "expr/sign_bounds.hpp"
#include "idiom/probe.hpp"
#include "idiom/split_plan.hpp"
#include "ptx/effects.hpp"
#include "ptx/post_dominators.hpp"

namespace racer::idiom {
namespace {

using exec::Value;

constexpr size_t kMaxRoots = 6;
// A selection sits at the end of a branchless routine, further from its input.
constexpr size_t kMaxSelectionRoots = 12;
// Beyond those, the inputs nearest the instruction through the data flow are always probed.
constexpr size_t kNearestInFlow = 3;
constexpr size_t kMaxProbeSteps = 800;
// A probe following the thread past a routine split across a loop goes through the loop.
constexpr size_t kMaxThroughSteps = 20000;

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

// The values the routine's input can take over its symbols' ranges, where that leaves some
// probe point out (PlanSearch::input_range); the bounds widened a little as long doubles.
std::optional<InputRange> input_range(exec::ExecContext& ctx, uint32_t root) {
  auto& sym = dynamic_cast<exec::SymbolicDomain&>(ctx.dom);
  expr::Bounds b = expr::SignBounds(sym.store()).of(ctx.th.regs[root].expr());
  InputRange r;
  auto widened = [](const mpq_class& q, long double toward) {
    long double x = static_cast<long double>(q.get_d());
    return std::nextafter(std::nextafter(x, toward), toward);
  };
  if (b.lo) r.lo = widened(*b.lo, -HUGE_VALL);
  if (b.hi) r.hi = widened(*b.hi, HUGE_VALL);
  const auto& pts = probe_points();
  if (std::all_of(pts.begin(), pts.end(), [&](long double t) { return r.contains(t); })) return std::nullopt;
  return r;
}

// Whether the thread holds what a plan read of its registers where it was made (a plan serves
// another thread or visit only then).
// The registers of th holding the value of `root`, in register order.
std::vector<uint32_t> holding_input(const exec::Thread& th, uint32_t root) {
  std::vector<uint32_t> holding;
  for (uint32_t r = 0; r < th.regs.size(); ++r)
    if (th.regs[r].sym == th.regs[root].sym) holding.push_back(r);
  return holding;
}

bool reads_as_made(const exec::Thread& th, const RoutinePlan& plan, uint32_t root) {
  for (auto [r, bits] : plan.fixed_inputs)
    if (!th.regs[r].is_concrete() || th.regs[r].bits != bits) return false;
  return holding_input(th, root) == plan.input_registers;
}

// The search over a probe's runs for this thread: a result the thread's own paths can use.
PlanSearch search_for(exec::ExecContext& ctx, PlanSearch search) {
  if (!ctx.th.paths.empty()) search.path_join = ctx.th.paths.back().join;
  if (auto* sym = dynamic_cast<exec::SymbolicDomain*>(&ctx.dom)) search.check_limits = [sym] { sym->check_limits(); };
  return search;
}

// The runs of a probe at each of `points` (the input in format f); nullopt where one refused.
std::optional<std::vector<Run>> runs_at(const ProbeSite& site, ieee::Format f, const std::vector<long double>& points) {
  std::vector<Run> runs;
  for (long double t0 : points) {
    auto run = probe_once(site, ieee::from_double(f, static_cast<double>(t0)));
    if (!run) return std::nullopt;
    runs.push_back(std::move(*run));
  }
  return runs;
}

std::optional<std::vector<Run>> runs_at_probe_points(const ProbeSite& site, ieee::Format f) {
  return runs_at(site, f, probe_points());
}

// Probe points for a fit over an input's range: the fixed points inside it, and kRangePoints
// more spread over it (evenly over a bounded range, at growing distances from its end
// otherwise, so that a narrow range is probed as densely as the whole line). A bounded range
// is also probed at its ends and at shrinking distances from them: a selection whose other
// piece serves only a sliver at one end (erff's small-argument piece where rsqrt(tanh(y))
// nears 1) must be seen there, or one piece is read as the routine on the whole range.
constexpr size_t kRangePoints = 24;
constexpr int kEndPoints = 10;
std::vector<long double> points_in(const InputRange& r) {
  std::vector<long double> pts;
  for (long double t : probe_points())
    if (r.contains(t)) pts.push_back(t);
  const bool lo = std::isfinite(r.lo), hi = std::isfinite(r.hi);
  for (size_t k = 0; k < kRangePoints; ++k) {
    const long double u = (static_cast<long double>(k) + 0.5L) / kRangePoints;  // in (0, 1)
    const long double far = std::ldexp(1.0L, static_cast<int>(k) - 8);        // 2^-8 .. 2^15
    if (lo && hi) pts.push_back(r.lo + u * (r.hi - r.lo));
    else if (lo) pts.push_back(r.lo + far);
    else if (hi) pts.push_back(r.hi - far);
  }
  if (lo && hi && r.hi > r.lo) {
    pts.push_back(r.lo);
    pts.push_back(r.hi);
    for (int k = 1; k <= kEndPoints; ++k) {
      const long double d = std::ldexp(r.hi - r.lo, -5 - k);  // 2^-6 .. 2^-15 of the range
      pts.push_back(r.lo + d);
      pts.push_back(r.hi - d);
    }
  }
  return pts;
}

// A range [2^a, 2^b] (or its negation, or [-2^b, 2^b] about 0) that holds r, a and b multiples
// of 8 (so that the bounds of many inputs fall in one); nullopt for an unbounded r.
std::optional<InputRange> power_of_two_band(const InputRange& r) {
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi) || r.all_but_zero) return std::nullopt;
  auto exponent = [](long double m, bool up) {  // of the power of two at or beyond m, rounded to 8
    int e;
    std::frexp(m, &e);  // m = f 2^e, f in [1/2, 1)
    const int k = up ? (m == std::ldexp(0.5L, e) ? e - 1 : e) : e - 1;
    return up ? 8 * ((k + 7 + 1600) / 8) - 1600 : 8 * ((k + 1600) / 8) - 1600;
  };
  if (r.lo > 0) return InputRange{std::ldexp(1.0L, exponent(r.lo, false)), std::ldexp(1.0L, exponent(r.hi, true))};
  if (r.hi < 0) return InputRange{-std::ldexp(1.0L, exponent(-r.lo, true)), -std::ldexp(1.0L, exponent(-r.hi, false))};
  const long double m = std::max(-r.lo, r.hi);
  if (!(m > 0)) return std::nullopt;
  const long double b = std::ldexp(1.0L, exponent(m, true));
  return InputRange{-b, b};
}

// The plan fitted on the probes inside the input's range only (tried where no plan holds
// everywhere).
std::optional<RoutinePlan> range_plan(exec::ExecContext& ctx, uint32_t root, const ProbeSite& site, ieee::Format f,
                                      const PlanSearch& search) {
  std::optional<InputRange> range = input_range(ctx, root);
  if (!range) return std::nullopt;
  auto fitted_over = [&](const InputRange& r) -> std::optional<RoutinePlan> {
    if (search.debug) std::fprintf(stderr, "  the input lies in [%Lg, %Lg]: probing there\n", r.lo, r.hi);
    std::optional<std::vector<Run>> runs = runs_at(site, f, points_in(r));
    if (!runs) return std::nullopt;
    PlanSearch ranged{search.fn, search.live, *runs, search.at, search.selection, search.tol, search.debug};
    ranged.path_join = search.path_join;
    ranged.check_limits = search.check_limits;
    ranged.input_range = r;
    return plan_from_runs(ranged);
  };
  // An input with no symbols (a frequency theta^(-2i/d) computed in the kernel) has bounds of its
  // own in every thread: fitted over a power-of-two band around them first, one plan serves
  // every thread whose bounds lie in that band (a plan over a wider range only had more probes
  // to fit), where each would otherwise be probed anew.
  auto& sym = dynamic_cast<exec::SymbolicDomain&>(ctx.dom);
  if (std::optional<InputRange> band = power_of_two_band(*range); band && sym.is_ground(ctx.th.regs[root].expr()))
    if (auto plan = fitted_over(*band)) return plan;
  if (auto plan = fitted_over(*range)) return plan;
  if (!(range->lo > 0 || range->hi < 0)) return std::nullopt;
  PlanSearch nonzero = search;
  nonzero.input_range = InputRange{.all_but_zero = true};
  return plan_from_runs(nonzero);
}

}  // namespace

const std::vector<uint32_t>& MathRoutineRecognizer::post_dominators(const ptx::Function& f) {
  auto& slot = ipdom_[&f];
  if (slot.empty() && !f.instrs.empty()) slot = ptx::immediate_post_dominators(f);
  return slot;
}

const ptx::RegisterUse& MathRoutineRecognizer::register_use(const ptx::Function& f) {
  auto& slot = register_use_[&f];
  if (!slot) slot = std::make_unique<ptx::RegisterUse>(f);
  return *slot;
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
    // (A register of lanes, packed halves beside the routine in a tile, is no routine's input.)
    if (v.is_symbolic() && !v.integer && !v.holds_lanes() && !st.is_condition(v.expr())) roots.push_back(r);
  }
  // One register per value: the one defined first, where the value came from. A later copy
  // (a select that folded to one of its operands in this thread) may be a different thing in
  // another thread, and what was learned there about it (a failed probe) does not apply here.
  auto one_per_value = [&](const std::vector<uint32_t>& regs) {
    std::vector<uint32_t> distinct;
    for (uint32_t r : regs) {
      auto same = std::find_if(distinct.begin(), distinct.end(), [&](uint32_t d) { return th.regs[d].sym == th.regs[r].sym; });
      if (same == distinct.end()) distinct.push_back(r);
      else if (th.def_pc[r] + 1 < th.def_pc[*same] + 1) *same = r;
    }
    return distinct;
  };
  // Nearest through the data flow (defining_registers' order) and nearest in the code differ
  // where the input comes from a loop: a reduction's result, defined early in the loop body,
  // that logf scales by 2^23 below the normal range before its bits are read.
  const std::vector<uint32_t> nearest_in_flow = one_per_value(roots);
  std::stable_sort(roots.begin(), roots.end(), [&](uint32_t a, uint32_t b) { return th.def_pc[a] + 1 > th.def_pc[b] + 1; });
  std::vector<uint32_t> distinct = one_per_value(roots);
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
  if (distinct.size() > max_roots) {
    std::vector<uint32_t> kept(distinct.begin(), distinct.begin() + static_cast<long>(max_roots));
    for (size_t i = 0; i < nearest_in_flow.size() && i < kNearestInFlow; ++i)
      if (std::find(distinct.begin(), distinct.end(), nearest_in_flow[i]) != distinct.end() &&
          std::find(kept.begin(), kept.end(), nearest_in_flow[i]) == kept.end())
        kept.push_back(nearest_in_flow[i]);
    distinct = std::move(kept);
  }

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
  // A second pass, where every input failed the first, probes past loads of the thread's other
  // data (ProbeSite::other_data_loads): only then, since probes that run on cost time at every
  // candidate input of every site the first pass recognizes. A third reads additions of the
  // thread's own values computed from the input as addends (ProbeSite::input_addends): only
  // where nothing else fits, since a routine's own last step may add its input.
  // A plan that holds only over its input's range (PlanSearch::input_range) is kept aside: it
  // serves only where no input has a plan that holds everywhere, before the third pass (whose
  // addends are the least certain reading).
  std::optional<std::pair<Key, Plan>> range_only;
  auto install_range_only = [&]() {
    if (!range_only) return false;
    const Key& key = range_only->first;
    range_cache_[key] = range_only->second;
    install(ctx, range_only->second, key.root_reg, at);
    return true;
  };
  // A plan over its input's range serves this visit where the thread reads what it was made from
  // and the range holds this input's.
  auto serves_here = [&](const Plan& p, uint32_t root) {
    if (!reads_as_made(th, p, root)) return false;
    auto range = input_range(ctx, root);
    return range && p.input_range->admits(*range);
  };
  for (int pass = 0; pass < 3 && (pass == 0 || trigger == Trigger::Refusal); ++pass) {
    if (pass == 2 && install_range_only()) return true;
    std::set<Key>& failed = failed_[pass];
    for (uint32_t root : distinct) {
      Key key{&fn, at, root, th.def_pc[root], trigger};
      if (failed.count(key)) continue;
      if (auto it = cache_.find(key); it != cache_.end()) {
        if (reads_as_made(th, it->second, root)) {
          install(ctx, it->second, root, at);
          return true;
        }
      }
      if (auto it = range_cache_.find(key); it != range_cache_.end() && serves_here(it->second, root)) {
        if (!range_only) range_only.emplace(key, it->second);
        continue;
      }
      // A visit that reads what an earlier one did, where this pass found only a plan over the
      // input's range, would probe to the same end (the probes run on the fixed values the plan
      // read and see nothing else of the thread): the plan is taken again if the range admits.
      if (auto it = range_seen_[pass].find(key); it != range_seen_[pass].end() && serves_here(it->second, root)) {
        if (!range_only) range_only.emplace(key, it->second);
        continue;
      }
      // (Probes at many sites of a wide block add up: the session's limits hold inside one step.)
      if (auto* sym = dynamic_cast<exec::SymbolicDomain*>(&ctx.dom)) sym->check_limits();
      auto plan = pass == 0 ? probe(ctx, at, root, trigger) : probe_further(ctx, at, root, pass == 2);
      if (plan) plan->input_registers = holding_input(th, root);
      if (plan && plan->input_range) {
        // (Not a failure: at a visit whose fixed inputs differ, this input is probed again.)
        range_seen_[pass][key] = *plan;
        if (!range_only) range_only.emplace(key, std::move(*plan));
        continue;
      }
      if (plan) {
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
      failed.insert(key);
    }
  }
  return install_range_only();
}

std::optional<MathRoutineRecognizer::Plan> MathRoutineRecognizer::probe_further(exec::ExecContext& ctx, uint32_t at, uint32_t root,
                                                                               bool input_addends) {
  const ptx::Function& fn = ctx.fn;
  auto fmt = format_of(fn.regs[root].type);
  if (!fmt) return std::nullopt;
  const std::vector<uint32_t> prelude = prelude_of(ctx.th, fn, ctx.th.regs[root].sym);
  ProbeSite site{ctx, at, root, prelude, post_dominators(fn), kMaxProbeSteps, debug_, false, &register_use(fn)};
  site.other_data_loads = true;
  site.input_addends = input_addends;
  std::optional<std::vector<Run>> runs = runs_at_probe_points(site, *fmt);
  if (!runs) return std::nullopt;
  if (debug_) std::fprintf(stderr, "  probe root %s past loads%s:", fn.regs[root].name.c_str(), input_addends ? ", input addends" : "");
  const PlanSearch search = search_for(ctx, {fn, liveness(fn), *runs, at, false, Tolerance::Loose, debug_});
  if (auto plan = plan_from_runs(search)) return plan;
  return range_plan(ctx, root, site, *fmt, search);
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
  if (debug_)
    std::fprintf(stderr, "  installed at %u (thread %u): input %s, result %s at %u, %s\n", at, ctx.th.linear, ctx.fn.regs[root].name.c_str(),
                 ctx.fn.regs[p.reg].name.c_str(), p.commit, expr::to_string(sym.store(), a.value.expr(), 200).c_str());
  for (const auto& [reg, fit] : p.extra) a.extra.emplace_back(reg, Value::of_expr(build(sym.store(), fit, ctx.th.regs[root].expr())));
  for (const PlacedFit& r : p.placed)
    a.placed.push_back({r.instr, r.reg, Value::of_expr(build(sym.store(), r.fit, ctx.th.regs[root].expr()))});
  if (!p.placed.empty()) {
    a.commit = exec::AbsorbPlan::kNoCommit;
    a.end = p.end;
  }
  ctx.th.plans.push_back(std::move(a));
  std::string where = ctx.fn.name + ": " + p.fit.describe() + " recognized at PTX instruction " + std::to_string(at);
  exec::Site s = ctx.site(ctx.fn.instrs[p.commit]);
  if (s.ptx_line) where = ctx.fn.name + ": " + p.fit.describe() + " (PTX line " + std::to_string(s.ptx_line) + (s.source.empty() ? "" : ", " + s.source) + ")";
  if (std::find(recognized_.begin(), recognized_.end(), where) == recognized_.end()) recognized_.push_back(where);
}

std::optional<MathRoutineRecognizer::Plan> MathRoutineRecognizer::probe(exec::ExecContext& ctx, uint32_t at, uint32_t root,
                                                                       Trigger trigger) {
  const bool selection = trigger == Trigger::Selection;
  const ptx::Function& fn = ctx.fn;
  auto fmt = format_of(fn.regs[root].type);
  if (!fmt) return std::nullopt;
  const std::vector<uint32_t> prelude = prelude_of(ctx.th, fn, ctx.th.regs[root].sym);
  const ProbeSite site{ctx, at, root, prelude, post_dominators(fn), selection ? 1 : kMaxProbeSteps, debug_, false, &register_use(fn)};
  std::optional<std::vector<Run>> runs = runs_at_probe_points(site, *fmt);
  if (!runs) return std::nullopt;
  if (debug_) std::fprintf(stderr, "  probe root %s:", fn.regs[root].name.c_str());
  const Tolerance tol = selection ? Tolerance::Strict : Tolerance::Loose;
  const PlanSearch search = search_for(ctx, {fn, liveness(fn), *runs, at, selection, tol, debug_});
  if (auto plan = plan_from_runs(search)) return plan;
  if (selection) return range_plan(ctx, root, site, *fmt, search);
  // No register holds the function where the routine's part here ends: it may go on inside a
  // loop (split_plan.hpp).
  ProbeSite through = site;
  through.max_steps = kMaxThroughSteps;
  through.through = true;
  std::optional<std::vector<Run>> through_runs = runs_at_probe_points(through, *fmt);
  if (through_runs)
    if (auto plan = split_plan_from_runs({fn, liveness(fn), *through_runs, at, false, tol, debug_})) return plan;
  return range_plan(ctx, root, site, *fmt, search);
}

}  // namespace racer::idiom
