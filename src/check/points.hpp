#pragma once
// Concrete points for the emulator: a value for every free symbol of a check (input cells
// within their declared ranges, unknown memory small integers), each a number its cell's
// format holds exactly, so that the emulation and the exact expressions see the same input.
#include <random>

#include "check/execution.hpp"
#include "expr/eval.hpp"

namespace racer::check {

struct Point {
  std::vector<WitnessValue> values;  // for run_concrete
  expr::Assignment at;               // for evaluating the expressions
};

// How the input cells are drawn: spread over their ranges; at the ends of them; at the
// smallest magnitudes a range allows; or nearly equal within each tensor (tiny spread, the
// inputs that expose cancellation and epsilons next to a variance).
enum class PointStyle : uint8_t { Spread, Ends, Small, NearlyEqual };

class PointSampler {
 public:
  PointSampler(Execution& ex, uint64_t seed);
  Point draw(PointStyle style);
  // A point whose input cells take given exact values (a witness's), the others drawn.
  Point around(const std::vector<WitnessValue>& fixed);

 private:
  Point make(PointStyle style, const std::vector<WitnessValue>* fixed);
  mpq_class input_value(expr::ExprId sym, const exec::SymbolOrigin& o, PointStyle style, double common);

  Execution& ex_;
  std::mt19937_64 rng_;
  std::vector<uint32_t> symbols_;  // sorted, so that a seed gives the same point every run
};

}  // namespace racer::check
