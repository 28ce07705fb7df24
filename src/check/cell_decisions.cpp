#include "check/cell_decisions.hpp"

#include <algorithm>

#include "check/approximation.hpp"
#include "expr/applied_functions.hpp"
#include "expr/print.hpp"
#include "expr/walk.hpp"
#include "idiom/functions.hpp"

namespace racer::check {
namespace {

// A refutation that rests only on an approximation: one side applies a function the other
// does not, the difference of the sides still applies it once normalized, and at the witness
// they differ by no more than a float approximation of that function would. Likely a compiled
// routine that was not recognized (a polynomial with no bit-level step to give it away): fail
// closed, Unknown rather than a false bug report. (A function of a constant, expr/applied_functions,
// is a constant: one read two ways differs by its rounding at every point alike, which the
// replay classifies. A function the normalized difference no longer applies cancelled: split-K
// attention's lse = m + log(l) meets exp(lse - M) = exp(m - M) l, so its log is not what tells
// the sides apart.)
std::optional<std::string> approximation_suspect(const expr::Store& st, expr::ExprId a, expr::ExprId b,
                                                 const decide::CellDecision& d) {
  if (!d.value_a || !d.value_b) return std::nullopt;
  unsigned fa = expr::applied_functions(st, a), fb = expr::applied_functions(st, b);
  if (((fa ^ fb) & d.difference_functions) == 0) return std::nullopt;
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

std::string clip(std::string s) {
  constexpr size_t kMax = 600;
  if (s.size() > kMax) s = s.substr(0, kMax) + " ... (" + std::to_string(s.size()) + " characters)";
  return s;
}

// Where a symbol comes from, as far as a decision may tell symbols apart: the kind of memory
// (an input cell, out-of-bounds, uninitialized tensor, shared or local memory), the tensor,
// and the program for memory private to one.
uint64_t origin_tag(const std::optional<exec::SymbolOrigin>& o) {
  if (!o) return 0;
  return (static_cast<uint64_t>(o->kind) + 1) | static_cast<uint64_t>(static_cast<uint32_t>(o->tensor + 1)) << 8 |
         static_cast<uint64_t>(static_cast<unsigned char>(o->program)) << 40;
}

}  // namespace

decide::DeciderOptions decider_options(const exec::Session& session) {
  decide::DeciderOptions o;
  if (session.deadline() != std::chrono::steady_clock::time_point::max()) o.z3.deadline = o.case_split.deadline = session.deadline();
  return o;
}

CellDecisions::CellDecisions(Execution& ex, uint64_t seed, bool shape_reduction)
    : ex_(ex),
      shape_reduction_(shape_reduction),
      decider_(ex.store(), [&ex](expr::ExprId sym) { return ex.domain_of(sym); }, seed, decider_options(ex.session())),
      shapes_(ex.store(), [&ex](expr::ExprId sym) {
        return decide::SymbolTraits{ex.domain_of(sym), origin_tag(ex.session().origin(sym))};
      }),
      outputs_(ex.prep().output_tensors()) {}

decide::CellDecision CellDecisions::decide_pair(expr::ExprId a, expr::ExprId b, std::vector<std::string>& recognized) {
  decide::CellDecision d = decider_.decide(a, b);
  if (d.status == decide::CellStatus::Refuted) {
    if (auto why = approximation_suspect(ex_.store(), a, b, d)) {
      d.status = decide::CellStatus::Unknown;
      d.reason = *why;
      if (auto proved = decide_as_approximations(ex_.store(), decider_, a, b, recognized)) d = *proved;
    }
  }
  return d;
}

Counterexample CellDecisions::counterexample(size_t output, uint64_t cell, const decide::CellDecision& d) const {
  const expr::Store& st = ex_.store();
  size_t t = outputs_[output];
  Counterexample cx;
  cx.cell = ex_.prep().tensors()[t].cell_name(static_cast<int64_t>(cell));
  cx.output = output;
  cx.flat_cell = static_cast<int64_t>(cell);
  cx.value_a = d.value_a;
  cx.value_b = d.value_b;
  cx.step = d.step;
  cx.expr_a = clip(expr::to_string(st, ex_.cell('a', t, cx.flat_cell)));
  cx.expr_b = clip(expr::to_string(st, ex_.cell('b', t, cx.flat_cell)));
  for (const auto& [index, value] : d.witness) {
    expr::ExprId sym{index};
    WitnessValue w;
    w.name = st.symbol_name(sym);
    w.value = value;
    if (std::optional<exec::SymbolOrigin> o = ex_.session().origin(sym)) {
      w.tensor = o->tensor;
      w.cell = o->cell;
      w.kind = o->kind == exec::SymbolOrigin::Kind::InputCell    ? "input"
               : o->kind == exec::SymbolOrigin::Kind::OutOfBounds ? "out_of_bounds"
               : o->kind == exec::SymbolOrigin::Kind::Unmapped    ? "unmapped"
                                                                  : "uninitialized";
    }
    cx.values.push_back(std::move(w));
  }
  return cx;
}

std::optional<Counterexample> CellDecisions::refute_alone(size_t output, uint64_t cell, std::vector<std::string>& recognized) {
  const size_t t = outputs_[output];
  const int64_t flat = static_cast<int64_t>(cell);
  decide::CellDecision d = decide_pair(ex_.cell('a', t, flat), ex_.cell('b', t, flat), recognized);
  if (d.status != decide::CellStatus::Refuted) return std::nullopt;
  return counterexample(output, cell, d);
}

void CellDecisions::decide(size_t output, uint64_t cell, OutputStats& stats, CheckResult& res) {
  size_t t = outputs_[output];
  int64_t flat = static_cast<int64_t>(cell);
  expr::ExprId a = ex_.cell('a', t, flat), b = ex_.cell('b', t, flat);
  std::string name = ex_.prep().tensors()[t].cell_name(flat);
  // One node on both sides is proved by comparing ids: no class needed.
  const Class* cls = nullptr;
  decide::CellDecision own;  // the cell's own decision, where it is in no class
  if (a == b) {
    own = decider_.decide(a, b);
    ++identical_;
  } else if (!shape_reduction_) {
    own = decide_pair(a, b, res.recognized);
  } else {
    size_t k = shapes_.classify(a, b).cls;
    if (k >= classes_.size()) classes_.resize(k + 1);
    Class& c = classes_[k];
    if (!c.decided) {  // the representative (or the first member after a representative's decision threw)
      c.decision = decide_pair(a, b, res.recognized);
      c.decided = true;
      c.output = output;
      c.cell = cell;
      c.name = name;
    }
    ++c.members;
    cls = &c;
  }
  const decide::CellDecision& d = cls ? cls->decision : own;
  bool reused = cls && (cls->output != output || cls->cell != cell);
  switch (d.status) {
    case decide::CellStatus::Proved:
      ++stats.proved;
      stats.outcomes[cell] = CellOutcome::Proved;
      break;
    case decide::CellStatus::Negligible:
      ++stats.negligible;
      stats.outcomes[cell] = CellOutcome::Negligible;
      if (res.negligible_cells.size() < 5) res.negligible_cells.push_back(name + ": " + d.step);
      break;
    case decide::CellStatus::Unknown:
      ++stats.unknown;
      stats.outcomes[cell] = CellOutcome::Unknown;
      if (res.unknown_cells.size() < 5)
        res.unknown_cells.push_back(name + ": " + (reused ? "as " + cls->name + ", equal up to a renaming of inputs: " : "") + d.reason);
      break;
    case decide::CellStatus::Refuted:
      ++stats.refuted;
      stats.outcomes[cell] = CellOutcome::Refuted;
      // The witness shown is the representative's: its own inputs, its own expressions.
      if (!res.counterexample) res.counterexample = cls ? counterexample(cls->output, cls->cell, d) : counterexample(output, cell, d);
      break;
  }
}

void CellDecisions::skip(uint64_t cell, OutputStats& stats) {
  ++stats.skipped;
  stats.outcomes[cell] = CellOutcome::Skipped;
}

std::vector<Counterexample> CellDecisions::refuted_representatives() const {
  std::vector<Counterexample> out;
  for (const Class& c : classes_)
    if (c.decided && c.decision.status == decide::CellStatus::Refuted) out.push_back(counterexample(c.output, c.cell, c.decision));
  return out;
}

ReuseStats CellDecisions::reuse(size_t largest) const {
  ReuseStats r;
  r.identical = identical_;
  std::vector<const Class*> decided;
  for (const Class& c : classes_) {
    if (!c.decided) continue;
    decided.push_back(&c);
    r.cells += c.members;
  }
  r.classes = decided.size();
  std::stable_sort(decided.begin(), decided.end(), [](const Class* x, const Class* y) { return x->members > y->members; });
  for (size_t i = 0; i < decided.size() && i < largest; ++i)
    r.largest.push_back({decided[i]->name, decided[i]->members, std::string(decide::status_name(decided[i]->decision.status))});
  return r;
}

}  // namespace racer::check
