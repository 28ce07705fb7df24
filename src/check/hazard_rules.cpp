#include "check/hazard_rules.hpp"

#include <algorithm>
#include <cmath>

namespace racer::check {

long double error_in_ulps(ieee::Format f, double value, long double exact) {
  const ieee::FormatInfo& fi = ieee::info(f);
  long double magnitude = std::fabs(exact);
  int exponent = magnitude >= std::ldexp(1.0L, fi.emin()) ? std::ilogb(magnitude) : fi.emin();
  return std::fabs(static_cast<long double>(value) - exact) / std::ldexp(1.0L, exponent - (fi.precision() - 1));
}

bool floats_alike(ieee::Format f, double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b) || (a == 0) != (b == 0)) return false;
  // Two negatives are as alike as their magnitudes (measured against the larger magnitude
  // itself, -x and -x would lie 2x apart).
  if (a == b) return true;  // (most cells of two programs that agree: no ulps to measure)
  if (a < 0 && b < 0) a = -a, b = -b;
  long double larger = std::max(std::fabs(a), std::fabs(b));
  return error_in_ulps(f, a, b) <= 2 && error_in_ulps(f, b, larger) <= 2 && error_in_ulps(f, a, larger) <= 2;
}

bool needs_bounds(const CellFloats& c) {
  if (!c.exact_a || !c.exact_b || !std::isfinite(c.a) || !std::isfinite(c.b)) return false;
  return std::max(error_in_ulps(c.format, c.a, *c.exact_a), error_in_ulps(c.format, c.b, *c.exact_b)) >= kHazardUlps;
}

std::optional<CellHazard> cell_hazard(const CellFloats& c) {
  bool nan_a = std::isnan(c.a), nan_b = std::isnan(c.b);
  if (nan_a != nan_b) return CellHazard{"nan", nan_a ? 'a' : 'b'};
  if (nan_a) return std::nullopt;
  bool inf_a = std::isinf(c.a), inf_b = std::isinf(c.b);
  if (inf_a != inf_b) {
    char p = inf_a ? 'a' : 'b';
    const auto& exact = p == 'a' ? c.exact_a : c.exact_b;
    // Infinite where the exact value is finite: an overflow on the way (the expression has none).
    return CellHazard{exact && std::isfinite(*exact) ? "overflow" : "infinity", p};
  }
  if (inf_a || !c.exact_a || !c.exact_b || !c.bounds_known) return std::nullopt;
  long double min_normal = std::ldexp(1.0L, ieee::info(c.format).emin());
  for (char p : {'a', 'b'}) {
    double mine = p == 'a' ? c.a : c.b, other = p == 'a' ? c.b : c.a;
    long double exact = p == 'a' ? *c.exact_a : *c.exact_b;
    const auto& bound = p == 'a' ? c.bound_a : c.bound_b;
    bool cancelled = bound && std::fabs(exact) <= *bound;
    if (mine == 0 && other != 0 && std::fabs(exact) >= min_normal && !cancelled) return CellHazard{"underflow", p};
  }
  long double ea = error_in_ulps(c.format, c.a, *c.exact_a), eb = error_in_ulps(c.format, c.b, *c.exact_b);
  char worse = ea >= eb ? 'a' : 'b';
  long double e_worse = std::max(ea, eb), e_other = std::min(ea, eb);
  const auto& other_bound = worse == 'a' ? c.bound_b : c.bound_a;
  long double abs_error = worse == 'a' ? std::fabs(c.a - *c.exact_a) : std::fabs(c.b - *c.exact_b);
  // The other program's own rounding bound is what its formats could make of this cell: an
  // error beyond it is one the other program cannot have, whatever order it summed in.
  if (e_worse >= kHazardUlps && e_worse >= kHazardRatio * std::max(e_other, 1.0L) && other_bound && abs_error > *other_bound)
    return CellHazard{"precision", worse, e_worse, e_other};
  // Near a pole or a logarithm's zero no first-order bound holds; the other program's result
  // within an ulp of the exact value shows what its formats can do there.
  // Below the smallest normal the formats' absolute floor explains any error.
  if (c.near_pole && !other_bound && e_worse >= kUnboundedHazardUlps && e_other <= 1 && abs_error >= min_normal)
    return CellHazard{"precision", worse, e_worse, e_other};
  return std::nullopt;
}

}  // namespace racer::check
