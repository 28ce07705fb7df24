#include "check/self_check.hpp"
#include "check/number_text.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

#include "check/concrete_run.hpp"
#include "check/float_model.hpp"
#include "check/points.hpp"
#include "decide/rounding_bound.hpp"
#include "exec/exact_float.hpp"
#include "expr/walk.hpp"

namespace racer::check {
namespace {

std::string describe_point(const Point& p) {
  std::string s;
  size_t shown = 0;
  for (const WitnessValue& w : p.first_values(6)) s += (shown++ ? ", " : "") + w.name + " = " + number_text(w.value.get_d());
  if (p.size() > 6) s += ", ... (" + std::to_string(p.size()) + " values)";
  return s;
}

// Whether the expression reads an input that is not integer data.
bool reads_float_data(const expr::Store& st, expr::ExprId e) {
  return expr::any_node(st, e, [&](expr::ExprId x) { return st.kind(x) == expr::Kind::Symbol && !st.symbol_info(x).integer; });
}

// Whether the emulated cell agrees with the exact expression at this point; "" when it does
// (or no bound holds there), else what differs.
std::string compare_cell(const expr::Store& st, expr::ExprId e, ptx::Type elem, uint64_t bits,
                         decide::RoundingBound& bound, const expr::Assignment& at, SelfCheck& sc) {
  auto fmt = float_format(elem);
  if (!fmt) {
    auto exact = expr::eval_exact(st, e, at);
    if (!exact) return (++sc.without_bound, "");
    ++sc.compared;
    unsigned width = elem == ptx::Type::Pred ? 1 : ptx::type_bits(elem);
    mpz_class emulated = exec::exact_integer(bits, width, ptx::type_class(elem) == ptx::TypeClass::Signed);
    if (*exact == mpq_class(emulated)) return "";
    // An integer rounded from float data (trunc(a / s) into int8) steps where that data crosses
    // an integer: within its rounding error of a step the program lands on either side, and the
    // bound holds none there. Integer data alone is exact and compared so.
    if (reads_float_data(st, e) && !bound.at(e)) return (--sc.compared, ++sc.without_bound, "");
    return "the exact value is " + exact->get_str() + ", the emulation gives " + emulated.get_str();
  }
  double emulated = cell_value(elem, bits);
  if (st.is_inf(e)) {
    ++sc.compared;
    bool same = std::isinf(emulated) && (emulated > 0) == (e == st.pos_inf());
    return same ? "" : std::string("the exact value is ") + (e == st.pos_inf() ? "+inf" : "-inf") + ", the emulation gives " + number_text(emulated);
  }
  auto b = bound.at(e);
  if (!b) return (++sc.without_bound, "");
  ++sc.compared;
  long double allowed = 4 * b->error + 4 * unit_roundoff(elem) * std::fabs(b->value);
  if (std::isfinite(emulated) && std::fabs(emulated - b->value) <= allowed) return "";
  return "the exact value is " + number_text(b->value) + ", the emulation gives " + number_text(emulated) + " (rounding allows " +
         number_text(allowed) + " here)";
}

// The cells of each output in two halves, the second one's handled by a thread of its own
// where the outputs are large (below kCellsToSplit cells in all, both programs' counted, a
// thread costs more than it saves). Bounds and comparisons only read the store, the point and
// the emulated run, all fixed by now; each half has a RoundingBound of its own.
constexpr uint64_t kCellsToSplit = uint64_t{1} << 16;
struct Halves {
  bool split = false;
  static uint64_t middle(uint64_t cells) { return cells / 2; }
  std::pair<uint64_t, uint64_t> range(uint64_t cells, unsigned half) const {
    if (!split) return {0, cells};
    return half == 0 ? std::pair<uint64_t, uint64_t>{0, middle(cells)} : std::pair<uint64_t, uint64_t>{middle(cells), cells};
  }
};

// Runs work(0, nullptr) on this thread and, where the halves are split, work(1, &stop) on a
// thread of its own, which checks no limit (the session is this thread's: it keeps checking
// them while it waits) and returns soon once stop is set.
template <class Work>
void both_halves(Execution& ex, const Halves& halves, Work&& work) {
  if (!halves.split) return work(0u, static_cast<const std::atomic<bool>*>(nullptr));
  std::atomic<bool> stop{false}, second_done{false};
  std::exception_ptr second_failed;
  std::thread helper([&] {
    try {
      work(1u, static_cast<const std::atomic<bool>*>(&stop));
    } catch (...) {
      second_failed = std::current_exception();
    }
    second_done = true;
  });
  try {
    work(0u, static_cast<const std::atomic<bool>*>(nullptr));
    while (!second_done) {
      ex.session().check_limits();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  } catch (...) {
    stop = true;
    helper.join();
    throw;
  }
  helper.join();
  if (second_failed) std::rethrow_exception(second_failed);
}

// Every kCellsBetweenEvaluationChecks cells: false where the half is to stop.
bool go_on(Execution& ex, const std::atomic<bool>* stop) {
  if (!stop) ex.session().check_limits();
  return !stop || !*stop;
}

// The bounds of a half's float cells, computed ahead of the comparison (which then finds them
// cached).
void bound_half(Execution& ex, const OutputCells& cells, const std::vector<size_t>& outs, decide::RoundingBound& bound,
                const Halves& halves, unsigned half, const std::atomic<bool>* stop) {
  const Prepared& prep = ex.prep();
  for (int side = 0; side < 2; ++side)
    for (size_t oi = 0; oi < outs.size(); ++oi) {
      const exec::TensorSpec& t = prep.tensors()[outs[oi]];
      if (!float_format(t.elem)) continue;  // (integer cells are compared exactly, without a bound)
      auto [from, to] = halves.range(t.cell_count(), half);
      for (uint64_t c = from; c < to; ++c) {
        if (c % kCellsBetweenEvaluationChecks == 0 && !go_on(ex, stop)) return;
        expr::ExprId e = cells[side][oi][c];
        if (!ex.store().is_inf(e)) bound.at(e);
      }
    }
}

// A half's comparison: its counts, and its first disagreeing cell in the order (program,
// output, cell), with what differs there.
struct HalfComparison {
  SelfCheck counts;
  std::optional<std::tuple<int, size_t, uint64_t>> failed_at;
  std::string diff;
  bool overflowed = false;  // the emulation's value there is not finite where the exact one is
};

void compare_half(Execution& ex, const OutputCells& cells, const std::vector<size_t>& outs, const ConcreteRun& run,
                  const expr::Assignment& at, decide::RoundingBound& bound, const Halves& halves, unsigned half,
                  const std::atomic<bool>* stop, HalfComparison& out) {
  const Prepared& prep = ex.prep();
  for (int side = 0; side < 2; ++side)
    for (size_t oi = 0; oi < outs.size(); ++oi) {
      const exec::TensorSpec& t = prep.tensors()[outs[oi]];
      auto [from, to] = halves.range(t.cell_count(), half);
      for (uint64_t c = from; c < to; ++c) {
        if (c % kCellsBetweenEvaluationChecks == 0 && !go_on(ex, stop)) return;
        std::string diff = compare_cell(ex.store(), cells[side][oi][c], t.elem, run.outputs[side][oi][c], bound, at, out.counts);
        if (diff.empty()) continue;
        out.failed_at = std::tuple{side, oi, c};
        if (float_format(t.elem)) {
          const double emulated = cell_value(t.elem, run.outputs[side][oi][c]);
          out.overflowed = !std::isfinite(emulated) && !ex.store().is_inf(cells[side][oi][c]);
        }
        out.diff = std::move(diff);
        return;
      }
    }
}

Halves halves_for(const Prepared& prep, const std::vector<size_t>& outs) {
  uint64_t cells = 0;
  for (size_t t : outs) cells += prep.tensors()[t].cell_count();
  return Halves{2 * cells >= kCellsToSplit && std::thread::hardware_concurrency() > 1};
}

// Whether most of a sample of float output cells (up to kSample a tensor, spread over it)
// have no bound at this point.
bool mostly_unbounded(Execution& ex, const OutputCells& cells, const std::vector<size_t>& outs, decide::RoundingBound& bound) {
  constexpr uint64_t kSample = 64;
  uint64_t with = 0, without = 0;
  for (int side = 0; side < 2; ++side)
    for (size_t oi = 0; oi < outs.size(); ++oi) {
      const exec::TensorSpec& t = ex.prep().tensors()[outs[oi]];
      if (!float_format(t.elem) || t.cell_count() == 0) continue;
      const uint64_t stride = std::max<uint64_t>(1, t.cell_count() / kSample);
      for (uint64_t c = 0; c < t.cell_count(); c += stride) {
        expr::ExprId e = cells[side][oi][c];
        if (ex.store().is_inf(e)) continue;
        (bound.at(e) ? with : without) += 1;
      }
    }
  return without > with;
}

}  // namespace

std::string SelfCheck::summary() const {
  if (!skipped.empty()) return "self-check skipped: " + skipped;
  if (!failure.empty()) return "self-check FAILED: " + failure;
  return "self-check: " + std::to_string(compared) + " cell values agree with the bit-exact emulation at " +
         std::to_string(points) + (points == 1 ? " point" : " points") +
         (analytic ? " (every cell analytic in the inputs: one random point exposes a wrong one almost surely)" : "") +
         (without_bound ? " (" + std::to_string(without_bound) + " without a rounding bound there)" : "") +
         (narrowed ? "; the inputs' box narrowed by 8^" + std::to_string(narrowed) + " where most cells had none" : "");
}

SelfCheck self_check(Execution& ex, const std::vector<exec::Defect>& defects, unsigned points, uint64_t seed, EarlyEmulation* early) {
  auto start = std::chrono::steady_clock::now();
  SelfCheck sc;
  auto done = [&] {
    sc.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return sc;
  };
  for (const exec::Defect& d : defects)
    if (d.kind == exec::DefectKind::Race) return (sc.skipped = "a race leaves the outputs to the schedule", done());
  const Prepared& prep = ex.prep();
  // One bound serves both programs (their expressions share nodes): the coarser of their models.
  decide::FloatModel model = coarser(float_model(prep, 'a'), float_model(prep, 'b'));
  std::vector<size_t> outs = prep.output_tensors();
  // Every output cell's expression first: a cell no program wrote becomes a symbol of its
  // own here, which the points must give a value too.
  const OutputCells& cells = ex.output_cells();
  const Halves halves = halves_for(prep, outs);
  PointSampler sampler(ex, seed);
  // A point where most cells have no bound (the normal form's intermediate values, such as
  // exp(s) apart from exp(-max s), pass the narrowest format the programs use) checks little:
  // it is followed by one in a box narrowed by 8, up to kNarrowings times, beyond `points`.
  constexpr unsigned kNarrowings = 3;
  unsigned& narrowed = sc.narrowed;
  unsigned emulated_at[2] = {0, 0};  // points emulated, in the whole box and in the box narrowed once
  for (unsigned p = 0; p < points + narrowed && sc.failure.empty(); ++p) {
    ex.session().check_limits();
    // The first points in the whole box, and in the box narrowed once, are keyed ones: the
    // early emulation ran at them beside the symbolic run.
    static_assert(EarlyEmulation::kNarrowing == 0x1p-3, "the first narrowing's scale");
    const unsigned key = narrowed <= 1 ? emulated_at[narrowed] : EarlyEmulation::kPerKind;
    const bool keyed = early && key < EarlyEmulation::kPerKind;
    Point point = keyed      ? sampler.draw_keyed(narrowed ? EarlyEmulation::kNarrowing : 1.0, key)
                  : narrowed ? sampler.draw_narrowed(std::ldexp(1.0, -3 * static_cast<int>(narrowed)))
                             : sampler.draw(PointStyle::Spread);
    const uint64_t compared_before = sc.compared, without_before = sc.without_bound;
    // The emulation reads only the point and machines of its own, the bounds only the store:
    // they run side by side, the emulation on threads of its own.
    decide::RoundingBound bound(ex.store(), model, point.at), second_half(ex.store(), model, point.at);
    if (narrowed < kNarrowings && mostly_unbounded(ex, cells, outs, bound)) {
      ++narrowed;  // (no emulation for a point that would check little)
      continue;
    }
    ConcreteRun run;
    std::exception_ptr emulation_failed;
    if (narrowed <= 1) ++emulated_at[narrowed];
    std::optional<ConcreteRun> ran = keyed ? early->take(key, narrowed == 1) : std::nullopt;
    if (ran) run = std::move(*ran);
    std::thread emulation;
    if (!ran) emulation = std::thread([&] {
      auto emulation_start = std::chrono::steady_clock::now();
      try {
        run = run_concrete(prep, point.concrete(), Defects::Skip, &ex.session());
      } catch (...) {
        emulation_failed = std::current_exception();
      }
      sc.emulation_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - emulation_start).count();
    });
    try {
      both_halves(ex, halves, [&](unsigned half, const std::atomic<bool>* stop) {
        bound_half(ex, cells, outs, half == 0 ? bound : second_half, halves, half, stop);
      });
    } catch (...) {
      if (emulation.joinable()) emulation.join();
      throw;
    }
    if (emulation.joinable()) emulation.join();
    if (emulation_failed) std::rethrow_exception(emulation_failed);
    if (!run.refusal.empty()) return (sc.skipped = "the emulation refused: " + run.refusal.substr(0, run.refusal.find('\n')), done());
    ++sc.points;
    HalfComparison compared[2];
    both_halves(ex, halves, [&](unsigned half, const std::atomic<bool>* stop) {
      compare_half(ex, cells, outs, run, point.at, half == 0 ? bound : second_half, halves, half, stop, compared[half]);
    });
    for (const HalfComparison& h : compared) sc.compared += h.counts.compared, sc.without_bound += h.counts.without_bound;
    // The first disagreeing cell in the order of a single pass over the cells.
    const HalfComparison* first = nullptr;
    for (const HalfComparison& h : compared)
      if (h.failed_at && (!first || *h.failed_at < *first->failed_at)) first = &h;
    if (first) {
      auto [side, oi, c] = *first->failed_at;
      const exec::TensorSpec& t = prep.tensors()[outs[oi]];
      // A float program that overflows on the way to a finite value (a product of exps whose
      // log is taken) differs from its exact expression without any mis-modelling: say both.
      const std::string why = first->overflowed
                                  ? "; the float program leaves its format on the way to this cell where the exact "
                                    "expression stays finite (an overflow the exact run does not model), or the engine "
                                    "mis-modelled something; no verdict rests on this run"
                                  : "; the symbolic run disagrees with the emulation of the same PTX, so the engine "
                                    "mis-modelled something on the way to this cell and no verdict rests on it";
      sc.failure = std::string("program ") + (side == 0 ? "a" : "b") + ", cell " + t.cell_name(static_cast<int64_t>(c)) + ": " +
                   first->diff + ", at " + describe_point(point) + why;
    }
    if (sc.failure.empty() && sc.without_bound - without_before > sc.compared - compared_before && narrowed < kNarrowings) {
      ++narrowed;
      continue;
    }
    // Analytic cells (polynomials, rational functions, exp, log, ...) that differ do so at a
    // random point almost surely: one point exposes a mis-modelled one; piecewise cells get
    // more, to reach more of their pieces.
    if (!bound.saw_piecewise() && !second_half.saw_piecewise()) {
      sc.analytic = true;
      break;
    }
  }
  return done();
}

}  // namespace racer::check
