#include "check/self_check.hpp"
#include "check/number_text.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

#include "check/concrete_run.hpp"
#include "check/float_model.hpp"
#include "check/points.hpp"
#include "decide/rounding_bound.hpp"
#include "exec/exact_float.hpp"

namespace racer::check {
namespace {

std::string describe_point(const Point& p) {
  std::string s;
  size_t shown = 0;
  for (const WitnessValue& w : p.first_values(6)) s += (shown++ ? ", " : "") + w.name + " = " + number_text(w.value.get_d());
  if (p.size() > 6) s += ", ... (" + std::to_string(p.size()) + " values)";
  return s;
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

// Every output cell's bound, computed ahead of the comparison (which then finds it cached).
void bound_every_cell(Execution& ex, const OutputCells& cells, const std::vector<size_t>& outs, decide::RoundingBound& bound) {
  const Prepared& prep = ex.prep();
  for (int side = 0; side < 2; ++side)
    for (size_t oi = 0; oi < outs.size(); ++oi) {
      const exec::TensorSpec& t = prep.tensors()[outs[oi]];
      if (!float_format(t.elem)) continue;  // (integer cells are compared exactly, without a bound)
      for (uint64_t c = 0; c < t.cell_count(); ++c) {
        if (c % kCellsBetweenEvaluationChecks == 0) ex.session().check_limits();
        expr::ExprId e = cells[side][oi][c];
        if (!ex.store().is_inf(e)) bound.at(e);
      }
    }
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
  OutputCells cells = ex.output_cells();
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
    decide::RoundingBound bound(ex.store(), model, point.at);
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
      bound_every_cell(ex, cells, outs, bound);
    } catch (...) {
      if (emulation.joinable()) emulation.join();
      throw;
    }
    if (emulation.joinable()) emulation.join();
    if (emulation_failed) std::rethrow_exception(emulation_failed);
    if (!run.refusal.empty()) return (sc.skipped = "the emulation refused: " + run.refusal.substr(0, run.refusal.find('\n')), done());
    ++sc.points;
    for (int side = 0; side < 2 && sc.failure.empty(); ++side) {
      for (size_t oi = 0; oi < outs.size() && sc.failure.empty(); ++oi) {
        const exec::TensorSpec& t = prep.tensors()[outs[oi]];
        for (uint64_t c = 0; c < t.cell_count(); ++c) {
          if (c % kCellsBetweenEvaluationChecks == 0) ex.session().check_limits();
          expr::ExprId e = cells[side][oi][c];
          std::string diff = compare_cell(ex.store(), e, t.elem, run.outputs[side][oi][c], bound, point.at, sc);
          if (diff.empty()) continue;
          sc.failure = std::string("program ") + (side == 0 ? "a" : "b") + ", cell " + t.cell_name(static_cast<int64_t>(c)) +
                       ": " + diff + ", at " + describe_point(point) +
                       "; the symbolic run disagrees with the emulation of the same PTX, so the engine mis-modelled "
                       "something on the way to this cell and no verdict rests on it";
          break;
        }
      }
    }
    if (sc.failure.empty() && sc.without_bound - without_before > sc.compared - compared_before && narrowed < kNarrowings) {
      ++narrowed;
      continue;
    }
    // Analytic cells (polynomials, rational functions, exp, log, ...) that differ do so at a
    // random point almost surely: one point exposes a mis-modelled one; piecewise cells get
    // more, to reach more of their pieces.
    if (!bound.saw_piecewise()) {
      sc.analytic = true;
      break;
    }
  }
  return done();
}

}  // namespace racer::check
