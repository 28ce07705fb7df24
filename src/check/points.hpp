#pragma once
// Concrete points for the emulator: a value for every free symbol of a check (input cells
// within their declared ranges, unknown memory small integers), each a number its cell's
// format holds exactly, so that the emulation and the exact expressions see the same input.
#include <limits>
#include <memory>
#include <random>
#include <utility>

#include "check/concrete_run.hpp"
#include "check/execution.hpp"
#include "expr/eval.hpp"

namespace racer::check {

// A value for every symbol of a check, kept once (as the Assignment the expressions are
// evaluated at); what the emulator and the report need is derived from it on demand, so a
// point over millions of input cells holds no name or rational per cell.
struct Point {
  expr::Assignment at;  // for evaluating the expressions
  Execution* ex = nullptr;  // (read only: its accessors are not const)
  std::shared_ptr<const std::vector<uint32_t>> symbols;  // the symbols `at` gives values, sorted

  // For run_concrete: input cells' bits, other symbols (unknown memory) by name.
  ConcreteInputs concrete() const;
  // Every symbol's value, as a witness lists them.
  std::vector<WitnessValue> values() const;
  // The first `count` of values() (a description needs a few).
  std::vector<WitnessValue> first_values(size_t count) const;
  size_t size() const { return symbols ? symbols->size() : 0; }
};

// How the input cells are drawn: spread over their ranges; at the ends of them; at the
// smallest magnitudes a range allows; or nearly equal within each tensor (tiny spread, the
// inputs that expose cancellation and epsilons next to a variance). The float hazard search
// (check/hazards) adds: every cell at the end of its range of largest magnitude (rows of equal
// values where the formats overflow or underflow first), and nearly equal values there
// (cancellation at the largest magnitudes the range allows).
enum class PointStyle : uint8_t { Spread, Ends, Small, NearlyEqual, Largest, NearlyEqualLargest };

// How a Spread point draws: its box narrowed about the middle by `narrowing`; `keyed`: each
// value from the seed (+ key_offset) and the symbol's identity instead of the generator
// (PointSampler's own).
struct SpreadDraw {
  double narrowing = 1;
  bool keyed = false;
  uint64_t key_offset = 0;
};

class PointSampler {
 public:
  PointSampler(Execution& ex, uint64_t seed);
  Point draw(PointStyle style);
  // A Spread point in the box of every float input's range shrunk about its middle by `scale`
  // (0 < scale <= 1): still random, so analytic cells that differ differ there almost surely,
  // with smaller intermediate values where the full box takes them past a format.
  Point draw_narrowed(double scale);
  // A Spread point whose every value is a function of the seed and the symbol's identity (its
  // tensor and cell; unknown memory's name) alone, not of which symbols the run made: the
  // values keyed_inputs gives before any symbolic run, so an emulation can start beside it.
  // `narrowing` as draw_narrowed's scale; keyed_inputs's seed is this sampler's + key_offset.
  Point draw_keyed(double narrowing = 1, uint64_t key_offset = 0);
  // The Largest point with its integer cells and unknown memory keyed as draw_keyed's (its
  // float cells depend on their ranges alone): keyed_largest_inputs gives it before the run.
  Point draw_keyed_largest();
  // A point whose input cells take given exact values (a witness's), the others drawn.
  Point around(const std::vector<WitnessValue>& fixed);
  // Every float input cell at the same fraction t of its range (lo + t (hi - lo)), integers
  // drawn: a line through the input space along which an expression's value can be bisected.
  Point uniform(double t);
  // The same with every other cell going the other way (at 1 - t where tensor index plus cell
  // index is odd): along this line the cells of a difference such as u[i] - v[i] or x[i] -
  // x[i+1] cross each other.
  Point crossed(double t);

 private:
  Point make(PointStyle style, const std::vector<WitnessValue>* fixed, double fraction = std::numeric_limits<double>::quiet_NaN(),
             bool alternate = false, SpreadDraw how = {});
  std::pair<double, double> ends(const expr::Range* range);  // as doubles
  double input_value(expr::ExprId sym, const exec::SymbolOrigin& o, PointStyle style, double common, double fraction,
                     const SpreadDraw& how);

  Execution& ex_;
  std::mt19937_64 rng_;
  std::shared_ptr<const std::vector<uint32_t>> symbols_;  // sorted, so that a seed gives the same point every run
  const expr::Range* ends_of_ = nullptr;
  std::pair<double, double> ends_;
  uint64_t seed_;  // (keyed draws)
};

// The inputs of draw_keyed's point with the same seed and narrowing, from the tensors alone:
// every input cell, and unknown memory by its name. `cancelled`, where set, stops it
// (exec::LimitReached).
ConcreteInputs keyed_inputs(const Prepared& prep, uint64_t seed, const std::atomic<bool>* cancelled = nullptr, double narrowing = 1);
// The inputs of draw_keyed_largest's point with the same seed.
ConcreteInputs keyed_largest_inputs(const Prepared& prep, uint64_t seed, const std::atomic<bool>* cancelled = nullptr);

}  // namespace racer::check
