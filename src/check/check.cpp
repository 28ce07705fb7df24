#include "check/check.hpp"

#include "check/cell_decisions.hpp"
#include "check/classify.hpp"
#include "check/execution.hpp"
#include "check/float_model.hpp"
#include "check/hazard_points.hpp"
#include "check/hazards.hpp"
#include "check/prepare.hpp"
#include "check/self_check.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"

namespace racer::check {
namespace {

constexpr size_t kLargestClassesShown = 5;

uint64_t skipped_cells(const CheckResult& res) {
  uint64_t n = 0;
  for (const OutputStats& o : res.outputs) n += o.skipped;
  return n;
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

// Threads both programs launch, all launches together.
uint64_t launched_threads(const Prepared& prep) {
  uint64_t n = 0;
  for (char which : {'a', 'b'})
    for (const exec::LaunchSpec& l : prep.program(which).launches) n += l.grid.count() * l.block.count();
  return n;
}
constexpr uint64_t kEarlyEmulationThreads = 8192;
constexpr uint64_t kEarlyEmulationInstructions = 2'000'000;

// Replays the refutation on the emulator (check/classify.hpp): a manifest witness replaces a
// decider's witness that replays within rounding.
Classification replay_refutation(Execution& ex, CheckResult& res, uint64_t seed) {
  Classification c;
  try {
    c = classify_refutation(ex, *res.counterexample, seed);
  } catch (const exec::LimitReached& l) {
    c.summary = std::string("not replayed: ") + l.what();
  }
  if (c.manifest) res.counterexample = std::move(*c.manifest);
  res.counterexample->replay_kind = std::string(classification_name(c.kind));
  res.counterexample->replay = c.summary;
  return c;
}

// Equal up to rounding speaks for every refuted cell, not only the first: at the representative
// of every other class of refuted cells the exact outputs must stay within rounding too. A class
// where they do not is replayed in full and becomes the counterexample, its classification the
// one the verdict follows.
Classification replay_other_classes(Execution& ex, const CellDecisions& cells, CheckResult& res, uint64_t seed,
                                    Classification first) {
  std::vector<Counterexample> reps = cells.refuted_representatives();
  for (Counterexample& cx : reps) {
    if (cx.output == res.counterexample->output && cx.flat_cell == res.counterexample->flat_cell) continue;
    Classification c;
    try {
      ex.session().check_limits();
      if (exact_outputs_within_rounding(ex, cx, seed)) continue;
      c = classify_refutation(ex, cx, seed);
    } catch (const exec::LimitReached& l) {
      c.summary = std::string("not replayed: ") + l.what();
    }
    if (c.kind == Classification::Kind::Rounding) continue;
    res.counterexample = c.manifest ? std::move(*c.manifest) : std::move(cx);
    res.counterexample->replay_kind = std::string(classification_name(c.kind));
    res.counterexample->replay = c.summary;
    return c;
  }
  return first;
}

// What the replay makes of the verdict: a difference that never leaves rounding level becomes
// its own verdict, unless cells left undecided could still hide a real one; a refutation that
// could not be replayed is no verdict.
void apply_replay(CheckResult& res, const Classification& c, bool cells_undecided) {
  if (c.kind == Classification::Kind::NotReplayed) {
    // No witness is reported unreplayed: the difference may be rounding level.
    res.verdict = Verdict::Unknown;
    res.reason = "refuted over the reals, but the witness was " + c.summary;
    return;
  }
  if (c.kind != Classification::Kind::Rounding) return;
  if (cells_undecided) {
    res.verdict = Verdict::Unknown;
    res.reason = "the refuted cells differ only at rounding level (" + c.summary + "), and some cells are undecided";
    return;
  }
  res.verdict = Verdict::EqualUpToRounding;
  res.reason = c.summary;
}

// Decides the output cells, output by output, into res.outputs (every output listed, every cell
// not reached): every cell (first pass), or only those the first pass skipped. Once an output has
// a refuted cell, its remaining cells are skipped unless all_cells. Returns "" or why deciding
// stopped before the last cell. `ticker` (if any) counts the cells passed, skipped or decided.
std::string decide_cells(Execution& ex, CellDecisions& cells, CheckResult& res, bool all_cells, bool skipped_only,
                         ProgressTicker* ticker = nullptr) {
  try {
    for (size_t oi = 0; oi < res.outputs.size(); ++oi) {
      OutputStats& stats = res.outputs[oi];
      for (uint64_t c = 0; c < stats.cells; ++c) {
        if (skipped_only) {
          if (stats.outcomes[c] != CellOutcome::Skipped) continue;
          --stats.skipped;
          stats.outcomes[c] = CellOutcome::Undecided;
        }
        if (stats.refuted > 0 && !all_cells) {
          CellDecisions::skip(c, stats);
        } else {
          ex.session().check_limits();
          cells.decide(oi, c, stats, res);
        }
        if (ticker) ticker->cell_decided();
      }
    }
  } catch (const exec::LimitReached& l) {
    return std::string("deciding stopped: ") + l.what();
  }
  return {};
}

// A race leaves the verdict to the schedule unless a refuted cell is one no race reaches: it
// differs in every order of the threads, which settles the verdict whatever other cells do.
// The first refuted cell is tried first; where a race reaches it, the cells skipped after it are
// decided too and the first refuted one no race reaches (decided on its own, for its own witness)
// becomes the counterexample.
VerdictAndReason refuted_beyond_races(Execution& ex, CellDecisions& cells, CheckResult& res, std::string& stopped,
                                      const VerdictAndReason& v) {
  auto settled = [](const Counterexample& cx) {
    return VerdictAndReason{Verdict::Inequivalent, "a data race leaves some outputs to the schedule (see the defects), but no "
                                                   "race reaches " + cx.cell + ": it differs in every order of the threads"};
  };
  const std::vector<size_t> outs = ex.prep().output_tensors();
  try {
    if (ex.beyond_every_race(outs[res.counterexample->output], res.counterexample->flat_cell)) return settled(*res.counterexample);
    if (stopped.empty() && skipped_cells(res) > 0) stopped = decide_cells(ex, cells, res, true, true);
    // (A cell refuted through its class may not be refuted on its own; a few such tries are enough.)
    constexpr unsigned kTries = 16;
    unsigned tries = 0;
    for (size_t oi = 0; oi < res.outputs.size() && tries < kTries; ++oi)
      for (uint64_t c = 0; c < res.outputs[oi].cells && tries < kTries; ++c) {
        if (res.outputs[oi].outcomes[c] != CellOutcome::Refuted || !ex.beyond_every_race(outs[oi], static_cast<int64_t>(c))) continue;
        ++tries;
        if (std::optional<Counterexample> cx = cells.refute_alone(oi, c, res.recognized)) {
          res.counterexample = std::move(*cx);
          return settled(*res.counterexample);
        }
      }
  } catch (const exec::LimitReached&) {
  } catch (const exec::Refusal&) {  // (deciding the skipped cells met a cell it cannot read)
  }
  return v;
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
  // The self-check's emulations run beside the symbolic run (they need no symbol), where that
  // matters: from the start where the programs launch many threads, else once the symbolic run
  // has executed enough to be long (flash attention: a few hundred threads, seconds of
  // execution). Not in a short check: once a second thread exists, every allocation takes
  // malloc's locks, which cost an allocation-heavy small check about a tenth.
  std::optional<EarlyEmulation> early;
  const bool may_emulate_early = options.self_check_points > 0 && std::thread::hardware_concurrency() > 1;
  const std::optional<uint64_t> hazard_seed = options.hazard_points > 0 ? std::optional(hazard_sampler_seed(options.seed)) : std::nullopt;
  auto emulate_early = [&] {  // (the programs' formats are read only where the thread starts)
    const bool narrower_than_f32 = coarser(float_model(prep, 'a'), float_model(prep, 'b')).unit_roundoff > 0x1p-24L;
    early.emplace(prep, session, options.seed, options.self_check_points, hazard_seed, narrower_than_f32);
  };
  if (may_emulate_early && launched_threads(prep) >= kEarlyEmulationThreads) emulate_early();
  bool executing = true;
  session.set_poll([&] {
    ticker.poll();
    if (executing && may_emulate_early && !early && ex.thread_instructions() >= kEarlyEmulationInstructions) emulate_early();
    if (executing && early && ex.store().has_piecewise()) early->allow_second_points();
  });
  bool refused = false;
  std::string why = ex.run(refused, [&](char p) { ticker.enter(Phase::Executing, p); });
  executing = false;  // (the outputs' sums are interned below: no second emulation points for them)
  if (why.empty()) why = ex.read_outputs(refused);
  if (!why.empty()) {
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
      sc = self_check(ex, res.defects, options.self_check_points, options.seed, early ? &*early : nullptr);
    } catch (const exec::LimitReached& l) {
      sc.skipped = std::string("stopped: ") + l.what();
    }
    if (early) early->self_check_done();  // (cancels a narrowed run the self-check did not need, and frees its outputs)
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
  CellDecisions cells(ex, options.seed, options.shape_reduction);
  std::string stopped;  // why deciding ended before the last cell
  res.outputs = undecided_outputs(prep);  // kept as decided so far when a limit stops deciding
  uint64_t total_cells = 0;
  for (const OutputStats& o : res.outputs) total_cells += o.cells;
  ticker.deciding(total_cells);
  try {
    stopped = decide_cells(ex, cells, res, options.all_cells, false, &ticker);
  } catch (const exec::Refusal& r) {
    res.verdict = Verdict::Refused;
    res.reason = r.what();
    collect();
    return res;
  }
  collect();
  CellTally tally{false, false, false, stopped};
  for (const OutputStats& o : res.outputs)
    tally.any_refuted |= o.refuted > 0, tally.any_unknown |= o.unknown > 0, tally.any_negligible |= o.negligible > 0;
  for (const exec::Defect& d : res.defects) tally.race |= d.kind == exec::DefectKind::Race;
  VerdictAndReason v = combine_cells(tally);
  if (tally.race && res.counterexample) v = refuted_beyond_races(ex, cells, res, stopped, v);
  res.verdict = v.verdict;
  res.reason = v.reason;
  if (res.verdict == Verdict::Inequivalent && res.counterexample) {
    ticker.enter(Phase::Replaying);
    Classification c = replay_refutation(ex, res, options.seed);
    // Equal up to rounding is a claim about every cell: the cells skipped after a refutation
    // are decided after all (the same cells, hence the same verdict, as with all_cells).
    if (c.kind == Classification::Kind::Rounding && stopped.empty() && skipped_cells(res) > 0) {
      try {
        stopped = decide_cells(ex, cells, res, true, true);
      } catch (const exec::Refusal& r) {
        stopped = std::string("deciding stopped: ") + r.what();
      }
      collect();
    }
    bool undecided = !stopped.empty() || skipped_cells(res) > 0;
    for (const OutputStats& o : res.outputs) undecided |= o.unknown > 0;
    if (c.kind == Classification::Kind::Rounding && !undecided) c = replay_other_classes(ex, cells, res, options.seed, c);
    apply_replay(res, c, undecided);
  }
  res.reuse = cells.reuse(kLargestClassesShown);
  if (res.counterexample) {  // where each program computed the refuted cell
    size_t tensor = prep.output_tensors()[res.counterexample->output];
    // (which thread stored it is not recorded: the instruction is what the author looks for)
    if (auto s = ex.writer_of('a', tensor, res.counterexample->flat_cell)) res.counterexample->stored_by_a = exec::site_text(*s, false);
    if (auto s = ex.writer_of('b', tensor, res.counterexample->flat_cell)) res.counterexample->stored_by_b = exec::site_text(*s, false);
  }
  if (res.counterexample && inst.b.reference) {  // name the reference's line for the refuted cell
    const instance::Reference& ref = *inst.b.reference;
    std::string line = ref.line_of(res.counterexample->output, res.counterexample->flat_cell);
    res.counterexample->reference_line = ref.function + (line.empty() ? "" : ", the cell computed at " + line);
  }
  add_float_hazards(ex, res, options, early ? &*early : nullptr);  // never changes the verdict
  return res;
}

}  // namespace racer::check
