#include "check/check.hpp"

#include <unordered_set>

#include "check/approximation.hpp"
#include "check/classify.hpp"
#include "check/execution.hpp"
#include "check/prepare.hpp"
#include "check/self_check.hpp"
#include "decide/decider.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "exec/symbolic_domain.hpp"
#include "expr/print.hpp"
#include "expr/walk.hpp"
#include "idiom/functions.hpp"
#include "idiom/recognizer.hpp"
#include "sem/semantics.hpp"

namespace racer::check {
namespace {

// The transcendental functions an expression applies (abs aside), as a bit set.
unsigned functions_in(const expr::Store& st, expr::ExprId root) {
  unsigned mask = 0;
  expr::any_node(st, root, [&](expr::ExprId e) {
    if (st.kind(e) == expr::Kind::Func && st.func_kind(e) != expr::FuncKind::Abs)
      mask |= 1u << static_cast<unsigned>(st.func_kind(e));
    return false;
  });
  return mask;
}

// A refutation that rests only on an approximation: one side applies a function the other
// does not, and at the witness they differ by no more than a float approximation of that
// function would. Likely a compiled routine that was not recognized (a polynomial with no
// bit-level step to give it away): fail closed, Unknown rather than a false bug report.
std::optional<std::string> approximation_suspect(const expr::Store& st, expr::ExprId a, expr::ExprId b,
                                                 const decide::CellDecision& d) {
  if (!d.value_a || !d.value_b) return std::nullopt;
  unsigned fa = functions_in(st, a), fb = functions_in(st, b);
  if (fa == fb) return std::nullopt;
  mpq_class diff = abs(*d.value_a - *d.value_b);
  mpq_class scale = std::max(abs(*d.value_a), abs(*d.value_b));
  if (scale == 0 || diff * 262144 > scale) return std::nullopt;  // 2^-18 relative
  return std::string("the sides differ by less than 2^-18 relative at the witness while only one of them applies "
                     "a transcendental function the other does not: possibly an unrecognized compiled "
                     "approximation of it, so the refutation is withheld");
}

// A withheld refutation may be two forms of one function: read a piecewise side that
// approximates a family function as that function (validated at the probe points) and
// decide again. Only a proof is taken from that: a refutation would rest on the reading.
std::optional<decide::CellDecision> decide_as_approximations(expr::Store& st, decide::Decider& decider, expr::ExprId a,
                                                             expr::ExprId b, std::vector<std::string>& recognized) {
  auto ra = recognize_approximation(st, a), rb = recognize_approximation(st, b);
  if (!ra && !rb) return std::nullopt;
  decide::CellDecision d = decider.decide(ra ? ra->function : a, rb ? rb->function : b);
  if (d.status != decide::CellStatus::Proved) return std::nullopt;
  for (auto [side, r] : {std::pair{'a', &ra}, std::pair{'b', &rb}}) {
    if (!*r) continue;
    std::string note = std::string(1, side) + ": a piecewise approximation read as " + (*r)->description +
                       " (validated at " + std::to_string(idiom::probe_points().size()) + " points)";
    if (std::find(recognized.begin(), recognized.end(), note) == recognized.end()) recognized.push_back(note);
  }
  d.step = "proved after reading a piecewise approximation as the function it approximates; " + d.step;
  return d;
}

// Every output with every cell not yet reached: what a limit leaves of the cells not decided.
std::vector<OutputStats> undecided_outputs(const Prepared& prep) {
  std::vector<OutputStats> outs;
  for (size_t t : prep.output_tensors()) {
    OutputStats& o = outs.emplace_back();
    o.tensor = prep.tensors()[t].name;
    o.cells = prep.tensors()[t].cell_count();
    o.outcomes.assign(o.cells, CellOutcome::Undecided);
  }
  return outs;
}

std::string clip(std::string s) {
  constexpr size_t kMax = 600;
  if (s.size() > kMax) s = s.substr(0, kMax) + " ... (" + std::to_string(s.size()) + " characters)";
  return s;
}

// Replays the refutation on the emulator (check/classify.hpp): a manifest witness replaces a
// decider's witness that replays within rounding; a difference that never leaves rounding
// level becomes its own verdict, unless undecided cells could still hide a real one; a
// refutation that could not be replayed is no verdict.
void classify(Execution& ex, CheckResult& res, uint64_t seed, bool any_unknown) {
  Classification c;
  try {
    c = classify_refutation(ex, *res.counterexample, seed);
  } catch (const exec::LimitReached& l) {
    c.summary = std::string("not replayed: ") + l.what();
  }
  if (c.manifest) res.counterexample = std::move(*c.manifest);
  res.counterexample->replay_kind = std::string(classification_name(c.kind));
  res.counterexample->replay = c.summary;
  if (c.kind == Classification::Kind::NotReplayed) {
    // No witness is reported unreplayed: the difference may be rounding level.
    res.verdict = Verdict::Unknown;
    res.reason = "refuted over the reals, but the witness was " + c.summary;
    return;
  }
  if (c.kind != Classification::Kind::Rounding) return;
  if (any_unknown) {
    res.verdict = Verdict::Unknown;
    res.reason = "the refuted cells differ only at rounding level (" + c.summary + "), and some cells are undecided";
    return;
  }
  res.verdict = Verdict::EqualUpToRounding;
  res.reason = c.summary;
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Equivalent: return "equivalent";
    case Verdict::Inequivalent: return "inequivalent";
    case Verdict::Unknown: return "unknown";
    case Verdict::Refused: return "refused";
    case Verdict::EqualUpToRounding: return "equal_up_to_rounding";
  }
  return "?";
}

CheckResult check_instance(const instance::Instance& inst, const CheckOptions& options) {
  CheckResult res;
  res.name = inst.name;
  Execution ex(inst, options.limits);
  exec::Session& session = ex.session();
  const Prepared& prep = ex.prep();
  auto collect = [&] { ex.fill(res); };
  ProgressTicker ticker(options.progress, session, [&ex] { return ex.thread_instructions(); });
  session.set_poll([&ticker] { ticker.poll(); });
  bool refused = false;
  if (std::string why = ex.run(refused, [&](char p) { ticker.enter(Phase::Executing, p); }); !why.empty()) {
    res.verdict = refused ? Verdict::Refused : Verdict::Unknown;
    res.reason = why;
    if (!refused) res.outputs = undecided_outputs(prep);  // a limit: the JSON still lists every cell
    collect();
    return res;
  }
  res.exec_seconds = session.elapsed_seconds();
  if (options.self_check_points > 0) {
    ticker.enter(Phase::SelfCheck);
    collect();
    SelfCheck sc;
    try {
      sc = self_check(ex, res.defects, options.self_check_points, options.seed);
    } catch (const exec::LimitReached& l) {
      sc.skipped = std::string("stopped: ") + l.what();
    }
    res.self_check = sc.summary();
    res.self_check_seconds = sc.seconds;
    res.self_check_emulation_seconds = sc.emulation_seconds;
    if (!sc.failure.empty()) {
      res.verdict = Verdict::Unknown;
      res.reason = "self-check failed: " + sc.failure;
      collect();
      return res;
    }
  }
  expr::Store& st = session.store();
  auto domain_of = [&](expr::ExprId sym) { return ex.domain_of(sym); };
  decide::Decider decider(st, domain_of, options.seed);
  bool any_unknown = false, any_refuted = false;
  std::string stopped;  // why deciding ended before the last cell
  std::vector<size_t> outs = prep.output_tensors();
  res.outputs = undecided_outputs(prep);  // kept as decided so far when a limit stops deciding
  uint64_t total_cells = 0;
  for (const OutputStats& o : res.outputs) total_cells += o.cells;
  ticker.deciding(total_cells);
  try {
    for (size_t oi = 0; oi < outs.size(); ++oi) {
      size_t t = outs[oi];
      OutputStats& stats = res.outputs[oi];
      uint64_t cells = stats.cells;
      for (uint64_t c = 0; c < cells; ++c) {
        session.check_limits();
        expr::ExprId ea = ex.cell('a', t, static_cast<int64_t>(c)), eb = ex.cell('b', t, static_cast<int64_t>(c));
        decide::CellDecision d = decider.decide(ea, eb);
        if (d.status == decide::CellStatus::Refuted) {
          if (auto why = approximation_suspect(st, ea, eb, d)) {
            d.status = decide::CellStatus::Unknown;
            d.reason = *why;
            if (auto proved = decide_as_approximations(st, decider, ea, eb, res.recognized)) d = *proved;
          }
        }
        std::string cell_name = prep.tensors()[t].cell_name(static_cast<int64_t>(c));
        switch (d.status) {
          case decide::CellStatus::Proved:
            ++stats.proved;
            stats.outcomes[c] = CellOutcome::Proved;
            break;
          case decide::CellStatus::Unknown:
            ++stats.unknown;
            stats.outcomes[c] = CellOutcome::Unknown;
            any_unknown = true;
            if (res.unknown_cells.size() < 5) res.unknown_cells.push_back(cell_name + ": " + d.reason);
            break;
          case decide::CellStatus::Refuted: {
            ++stats.refuted;
            stats.outcomes[c] = CellOutcome::Refuted;
            any_refuted = true;
            if (res.counterexample) break;
            Counterexample cx;
            cx.cell = cell_name;
            cx.output = oi;
            cx.flat_cell = static_cast<int64_t>(c);
            cx.value_a = d.value_a;
            cx.value_b = d.value_b;
            cx.step = d.step;
            cx.expr_a = clip(expr::to_string(st, ea));
            cx.expr_b = clip(expr::to_string(st, eb));
            for (const auto& [index, value] : d.witness) {
              expr::ExprId sym{index};
              WitnessValue w;
              w.name = st.symbol_info(sym).origin;
              w.value = value;
              if (const exec::SymbolOrigin* o = session.origin(sym)) {
                w.tensor = o->tensor;
                w.cell = o->cell;
                w.kind = o->kind == exec::SymbolOrigin::Kind::InputCell    ? "input"
                         : o->kind == exec::SymbolOrigin::Kind::OutOfBounds ? "out_of_bounds"
                                                                            : "uninitialized";
              }
              cx.values.push_back(std::move(w));
            }
            res.counterexample = std::move(cx);
            break;
          }
        }
        ticker.cell_decided();
      }
    }
  } catch (const exec::LimitReached& l) {
    stopped = std::string("deciding stopped: ") + l.what();
  } catch (const exec::Refusal& r) {
    res.verdict = Verdict::Refused;
    res.reason = r.what();
    collect();
    return res;
  }
  collect();
  CellTally tally{false, any_refuted, any_unknown, stopped};
  for (const exec::Defect& d : res.defects) tally.race |= d.kind == exec::DefectKind::Race;
  VerdictAndReason v = combine_cells(tally);
  res.verdict = v.verdict;
  res.reason = v.reason;
  if (res.verdict == Verdict::Inequivalent && res.counterexample) {
    ticker.enter(Phase::Replaying);
    classify(ex, res, options.seed, any_unknown);
  }
  if (res.counterexample && inst.b.reference) {  // name the reference's line for the refuted cell
    const instance::Reference& ref = *inst.b.reference;
    std::string line = ref.line_of(res.counterexample->output, res.counterexample->flat_cell);
    res.counterexample->reference_line = ref.function + (line.empty() ? "" : ", the cell computed at " + line);
  }
  return res;
}

}  // namespace racer::check
