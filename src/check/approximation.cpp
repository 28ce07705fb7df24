#include "check/approximation.hpp"

#include <cmath>

#include "decide/ball_eval.hpp"
#include "expr/substitute.hpp"
#include "expr/walk.hpp"
#include "idiom/functions.hpp"

namespace racer::check {
namespace {

constexpr double kFloatMax = 3.4028234663852886e38;

// Whether x is piecewise: a select on a comparison somewhere in it. Straight formulas (a
// near miss like exp(x) * (1 + 1e-7)) are never read as another function.
bool piecewise(const expr::Store& st, expr::ExprId root) {
  return expr::any_node(st, root, [&](expr::ExprId e) { return st.kind(e) == expr::Kind::Select && !st.is_condition(e); });
}

}  // namespace

std::optional<RecognizedApproximation> recognize_approximation(expr::Store& st, expr::ExprId side) {
  std::vector<expr::ExprId> syms = expr::free_symbols(st, side);
  if (syms.size() != 1 || !piecewise(st, side)) return std::nullopt;
  std::vector<idiom::Sample> samples;
  for (long double p : idiom::probe_points()) {
    // The probe points as the f32 inputs a kernel would see.
    double t = static_cast<double>(static_cast<float>(p));
    expr::Assignment at{{syms[0], mpq_class(t)}};
    std::optional<double> v = decide::ball_value(st, side, at);
    if (!v) return std::nullopt;  // undefined or unsettled somewhere: no validation
    double y = std::fabs(*v) > kFloatMax ? std::copysign(INFINITY, *v) : *v;  // the f32 result overflows
    samples.push_back({t, y, false});
  }
  std::optional<idiom::Fit> fit = idiom::fit_routine(samples);
  if (!fit) return std::nullopt;
  return RecognizedApproximation{idiom::build(st, *fit, syms[0]), fit->describe()};
}

}  // namespace racer::check
