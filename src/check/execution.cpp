#include "check/execution.hpp"

#include "check/reference_build.hpp"

#include <algorithm>
#include "decide/ball_eval.hpp"
#include "exec/integer_range.hpp"
#include "exec/refusal.hpp"
#include "sem/semantics.hpp"

namespace racer::check {
namespace {

decide::Grid grid_of(ptx::Type t) {
  using G = decide::Grid;
  switch (t) {
    case ptx::Type::F64: return G::F64;
    case ptx::Type::F32: return G::F32;
    case ptx::Type::F16: return G::F16;
    case ptx::Type::BF16: return G::BF16;
    case ptx::Type::E4M3: return G::E4M3;
    case ptx::Type::E5M2: return G::E5M2;
    default: return ptx::is_integer(t) ? G::Integer : G::Real;
  }
}

void run_program(exec::Machine& m, const Prepared& prep, char which) {
  const PreparedProgram& p = prep.program(which);
  std::vector<uint64_t> bases;
  for (size_t t = 0; t < prep.tensors().size(); ++t) bases.push_back(m.tensor_base(t));
  for (size_t li = 0; li < p.launches.size(); ++li) {
    exec::LaunchSpec spec = p.launches[li];
    spec.params = prep.params(which, li, bases);
    m.launch(spec);
  }
}

}  // namespace

Execution::Execution(const instance::Instance& inst, const exec::Limits& limits)
    : prep_(inst), session_(limits), dom_(session_.store()) {
  output_of_.assign(prep_.tensors().size(), -1);
  const std::vector<size_t> outs = prep_.output_tensors();
  for (size_t o = 0; o < outs.size(); ++o) output_of_[outs[o]] = static_cast<int>(o);
  dom_.set_limits_check([this] { session_.check_limits(); });
  dom_.set_ground_truth([this](expr::ExprId cmp) { return decide::ground_comparison(session_.store(), cmp); });
  // Symbolic integers from integer tensors lie in their dtype's range (or the instance's).
  dom_.set_symbol_range([this](expr::ExprId e) -> std::optional<exec::Interval> {
    std::optional<exec::SymbolOrigin> o = session_.origin(e);
    if (!o || o->tensor < 0) return std::nullopt;
    return exec::integer_range(prep_.tensors()[static_cast<size_t>(o->tensor)], *o);
  });
  try {
    ma_ = make_machine('a');
    mb_ = make_machine('b');
  } catch (const exec::LimitReached& l) {
    ma_.reset(), mb_.reset();
    not_started_ = std::string("setting up memory stopped: ") + l.what();
    return;
  }
}

std::unique_ptr<exec::Machine> Execution::make_machine(char which) {
  auto m = std::make_unique<exec::Machine>(session_, which, prep_.tensors(), dom_, sem::semantics());
  m->set_recognizer(which == 'a' ? &recognizer_a_ : &recognizer_b_);
  return m;
}

uint64_t Execution::thread_instructions() const { return ma_ && mb_ ? ma_->steps() + mb_->steps() : 0; }

std::string Execution::run(bool& refused, const std::function<void(char program)>& starting) {
  refused = false;
  if (!not_started_.empty()) return not_started_;
  char running = 'a';
  auto start = [&](char program) {
    running = program;
    if (starting) starting(program);
  };
  try {
    start('a');
    run_program(*ma_, prep_, 'a');
    excuse_harmless_races('a');
    ma_->drop_access_records();  // (its races are found; b runs without a's records resident)
    start('b');  // or its reference, built over the symbols program a read
    if (const auto& ref = prep_.inst().b.reference) {
      // A reference reads each input cell as the untouched machine b would: the same symbol
      // (or initial constant) program a's run reads there.
      reference_cells_ = build_reference(*ref, session_.store(),
                                         [this](size_t t, int64_t c) { return mb_->cell_expr(t, c); });
    } else {
      run_program(*mb_, prep_, 'b');
      excuse_harmless_races('b');
      mb_->drop_access_records();
    }
  } catch (const exec::Refusal& r) {
    refused = true;
    return r.what();
  } catch (const exec::LimitReached& l) {
    return std::string("running program ") + running + " stopped: " + l.what();
  }
  return {};
}

std::string Execution::read_outputs(bool& refused) {
  refused = false;
  try {
    output_cells();
  } catch (const exec::Refusal& r) {
    refused = true;
    return std::string("reading the outputs: ") + r.what();
  } catch (const exec::LimitReached& l) {
    return std::string("reading the outputs stopped: ") + l.what();
  }
  return {};
}

namespace {

// A second run of a program reads the same constants again: count them once.
struct KeepCounts {
  exec::SymbolicDomain& dom;
  std::map<std::string, size_t> counts = dom.recognized();
  ~KeepCounts() { dom.set_recognized(std::move(counts)); }
};

}  // namespace

std::unique_ptr<exec::Machine> Execution::rerun_replacing(char which, const std::set<uint32_t>& loads, bool stores) {
  std::unique_ptr<exec::Machine> m = make_machine(which);
  m->replace_racing_reads(loads);
  if (stores) m->replace_racing_writes();
  try {
    run_program(*m, prep_, which);
  } catch (const exec::Refusal&) {
    return nullptr;
  }
  return m;
}

void Execution::excuse_harmless_races(char which) {
  std::unique_ptr<exec::Machine>& first = which == 'a' ? ma_ : mb_;
  if (!first->racing_reads().only_read_races()) return;
  KeepCounts keep{dom_};
  std::set<uint32_t> replace = first->racing_reads().found;
  std::unique_ptr<exec::Machine> again;  // the last run that replaced every load in a race
  // The first run remembers two readers per byte and may miss racing loads; a replacing run
  // finds exactly the loads in a race, whatever it replaced (no replaced value steers it), and
  // one more run replaces just those.
  for (int run = 0; run < 2; ++run) {
    std::unique_ptr<exec::Machine> m;
    try {
      m = rerun_replacing(which, replace, false);
    } catch (const exec::LimitReached&) {
      break;
    }
    if (!m) break;
    const exec::RacingReads& r = m->racing_reads();
    if (!r.only_read_races() || r.incomplete) break;
    bool exact = r.found == replace;
    if (std::includes(r.replaced.begin(), r.replaced.end(), r.found.begin(), r.found.end())) again = std::move(m);
    if (exact) break;
    replace = r.found;
  }
  if (!again) return;
  for (size_t t : prep_.output_tensors()) {
    std::vector<expr::ExprId> cells;
    for (uint64_t c = 0; c < prep_.tensors()[t].cell_count(); ++c) {
      if (c % kCellsBetweenLimitChecks == 0) session().check_limits();
      cells.push_back(again->cell_expr(t, static_cast<int64_t>(c)));
    }
    if (std::optional<exec::Site> read = again->racing_read_reaching(cells)) {
      // Why the races stand: the user sees which load's value the output needs.
      notes_.push_back({which, *read, "the value this load read while another thread stored there (no barrier between, "
                                      "and no collective of the warp after its first use) reaches output " +
                                          prep_.tensors()[t].name + ": the race can change the outputs"});
      return;
    }
  }
  again->excuse_races(
      "no output depends on the value read (in a run where every racing load returned an unknown, no output, "
      "branch or address used one)");
  first = std::move(again);
}

// A race makes a value schedule-dependent where a load races with a store (the load may see
// either value) and where two stores race (the bytes hold either one afterwards); everything
// computed from such a value, through registers and through memory, is too. The run replaces
// each such value by a fresh unknown: a load found in a race returns one (found in a first
// run, or in this one: then one more run), a store racing with a store leaves one in the bytes,
// and reads keep every reader of a byte since its last write, so no racing load is missed. A
// cell whose expression is the one the first run gave (no unknown in it) is beyond every race.
std::unique_ptr<exec::Machine> Execution::schedule_free_run(char which) {
  const exec::Machine& first = which == 'a' ? *ma_ : *mb_;
  KeepCounts keep{dom_};
  std::set<uint32_t> replace = first.racing_reads().found;
  for (int run = 0; run < 3; ++run) {
    std::unique_ptr<exec::Machine> m = rerun_replacing(which, replace, true);
    if (!m) return nullptr;  // (an unknown that steers a branch or an address, or is not one float)
    const exec::RacingReads& r = m->racing_reads();
    if (r.every_race_replaced()) return m;
    if (r.incomplete || std::includes(replace.begin(), replace.end(), r.found.begin(), r.found.end())) return nullptr;
    replace.insert(r.found.begin(), r.found.end());
  }
  return nullptr;
}

bool Execution::beyond_every_race(size_t tensor, int64_t flat) {
  for (int side = 0; side < 2; ++side) {
    const char which = side == 0 ? 'a' : 'b';
    const exec::Machine& first = which == 'a' ? *ma_ : *mb_;
    if (first.racing_reads().races == 0) continue;
    if (which == 'b' && !reference_cells_.empty()) continue;  // (a reference is not run by a machine)
    std::optional<std::unique_ptr<exec::Machine>>& free = schedule_free_[side];
    if (!free) free = schedule_free_run(which);
    if (!*free || (*free)->cell_expr(tensor, flat) != read_cell(which, tensor, flat)) return false;
  }
  return true;
}

expr::ExprId Execution::read_cell(char program, size_t tensor, int64_t flat) {
  if (program == 'b' && !reference_cells_.empty() && output_of_[tensor] >= 0)
    return reference_cells_[static_cast<size_t>(output_of_[tensor])][static_cast<size_t>(flat)];
  return (program == 'a' ? *ma_ : *mb_).cell_expr(tensor, flat);
}

expr::ExprId Execution::cell(char program, size_t tensor, int64_t flat) {
  if (!cells_ || output_of_[tensor] < 0) return read_cell(program, tensor, flat);
  return (*cells_)[program == 'a' ? 0 : 1][static_cast<size_t>(output_of_[tensor])][static_cast<size_t>(flat)];
}

const OutputCells& Execution::output_cells() {
  if (cells_) return *cells_;
  OutputCells cells;
  for (int side = 0; side < 2; ++side)
    for (size_t t : prep_.output_tensors()) {
      cells[side].emplace_back();
      for (uint64_t c = 0; c < prep_.tensors()[t].cell_count(); ++c) {
        if (c % kCellsBetweenLimitChecks == 0) session().check_limits();
        try {
          cells[side].back().push_back(read_cell(side == 0 ? 'a' : 'b', t, static_cast<int64_t>(c)));
        } catch (const exec::Refusal& r) {
          throw exec::Refusal(std::string("program ") + (side == 0 ? 'a' : 'b') + ", output cell " +
                              prep_.tensors()[t].cell_name(static_cast<int64_t>(c)) + ": " + r.what());
        }
      }
    }
  cells_ = std::move(cells);
  return *cells_;
}

std::optional<exec::Site> Execution::writer_of(char program, size_t tensor, int64_t flat) const {
  const exec::Machine* m = program == 'a' ? ma_.get() : mb_.get();
  if (!m || (program == 'b' && prep_.inst().b.reference)) return std::nullopt;
  return m->writer_of(tensor, flat);
}

decide::SymbolDomain Execution::domain_of(expr::ExprId sym) const {
  decide::SymbolDomain d;
  std::optional<exec::SymbolOrigin> o = session_.origin(sym);
  if (!o) return d;
  if (o->tensor >= 0) {
    const exec::TensorSpec& t = prep_.tensors()[static_cast<size_t>(o->tensor)];
    d.grid = grid_of(t.elem);
    if (o->kind == exec::SymbolOrigin::Kind::InputCell && t.range) d.lo = t.range->lo, d.hi = t.range->hi;
    else if (auto r = exec::integer_range(t, *o)) d.lo = r->lo, d.hi = r->hi;
  } else {
    d.grid = decide::Grid::F32;
  }
  return d;
}

void Execution::fill(CheckResult& res) const {
  res.seconds = session_.elapsed_seconds();
  if (!ma_ || !mb_) return;
  res.defects = ma_->defects();
  std::vector<exec::Defect> from_b = mb_->defects();
  res.defects.insert(res.defects.end(), from_b.begin(), from_b.end());
  res.notes = ma_->notes();
  res.notes.insert(res.notes.end(), mb_->notes().begin(), mb_->notes().end());
  res.notes.insert(res.notes.end(), notes_.begin(), notes_.end());
  res.expression_nodes = session_.store().size();
  res.thread_instructions = thread_instructions();
  res.recognized.clear();
  for (const auto& r : recognizer_a_.recognized()) res.recognized.push_back("a: " + r);
  for (const auto& r : recognizer_b_.recognized()) res.recognized.push_back("b: " + r);
  for (const auto& [form, n] : dom_.recognized()) res.recognized.push_back(form + " (" + std::to_string(n) + " times)");
}

}  // namespace racer::check
