#pragma once
// The rules of the float hazard search (check/hazards.hpp) on the numbers of one output cell:
// both programs' emulated outputs, the exact values of their expressions and the rounding
// each program's formats allow there. Only an asymmetry is a hazard: what both programs do
// alike (both NaN, both flushed to zero, both a few ulps off) is how the formats behave, not
// a difference between the kernels.
#include <optional>
#include <string>

#include "exec/ieee.hpp"

namespace racer::check {

struct CellFloats {
  ieee::Format format = ieee::Format::F32;        // of the output tensor
  double a = 0, b = 0;                            // the emulated outputs
  std::optional<long double> exact_a, exact_b;    // each program's expression, exactly
  // Each program's own first-order rounding bound there; bounds_known once they were computed
  // (the finite rules need them; they cost an evaluation, so callers compute them only when
  // needs_bounds says a finite rule may apply).
  std::optional<long double> bound_a, bound_b;
  bool bounds_known = false;
  // The input was chosen next to a pole or a logarithm's zero (check/hazard_points.hpp), where
  // the first-order bounds do not hold.
  bool near_pole = false;
};

struct CellHazard {
  std::string kind;  // "nan", "overflow", "infinity", "underflow", "precision"
  char program = 'a';
  long double error_ulps = 0, other_error_ulps = 0;  // "precision" only
};

// A relative error counts as a hazard from this many ulps of the output format, when it is
// also this many times the other program's and beyond any rounding the other program can make.
constexpr long double kHazardUlps = 16;
constexpr long double kHazardRatio = 8;
// Next to a pole, where the other program's rounding bound does not hold (a denominator or a
// logarithm's argument within its error of 0), an error counts from this many ulps when the
// other program's is within one ulp.
constexpr long double kUnboundedHazardUlps = 1024;

// |value - exact| in units of the format's spacing at `exact` (subnormal spacing below the
// smallest normal).
long double error_in_ulps(ieee::Format f, double value, long double exact);

// Whether no rule can apply whatever the exact values: both outputs finite, both zero or both
// not, and at most 2 ulps (at the larger) apart. A precision hazard needs one error 8 times the
// other and at least 16 ulps, so the outputs lie at least 14 ulps of the exact value apart.
// Lets the search skip evaluating the expressions of most cells.
bool floats_alike(ieee::Format f, double a, double b);

// Whether a rule for finite outputs may apply: an error of kHazardUlps or more on either side.
bool needs_bounds(const CellFloats& c);

// NaN or infinity on one side only; else, with the bounds known: zero on one side where the
// exact value is a normal number beyond that program's rounding (an underflow on the way; a
// zero within it is a cancellation, read as precision), or an error of many ulps that is
// many times the other's and beyond any rounding the other program can make (or, next to a
// pole where no bound holds for the other, kUnboundedHazardUlps against at most one).
std::optional<CellHazard> cell_hazard(const CellFloats& c);

}  // namespace racer::check
