#include "check/hazard_points.hpp"
#include "check/number_text.hpp"

#include <cmath>
#include <sstream>
#include <unordered_set>

#include "check/float_model.hpp"

namespace racer::check {
namespace {

// The largest (or smallest) exp argument at a point; nullopt where none has a value there.
std::optional<long double> extreme_argument(const expr::Store& st, const std::vector<expr::ExprId>& args,
                                            const expr::Assignment& at, bool largest) {
  decide::RoundingBound exact = exact_values(st, at);
  std::optional<long double> best;
  for (expr::ExprId a : args) {
    auto v = exact.at(a);
    if (v && (!best || (largest ? v->value > *best : v->value < *best))) best = v->value;
  }
  return best;
}

// Along the line of inputs all at the same fraction t of their ranges, the t where the
// largest (smallest) exp argument crosses `threshold`, taken just beyond it; nullopt when it
// does not cross between the ends of the ranges.
std::optional<double> crossing(Execution& ex, PointSampler& line, const std::vector<expr::ExprId>& args, long double threshold,
                               bool largest) {
  auto beyond = [&](double t) -> std::optional<bool> {
    Point p = line.uniform(t);
    auto v = extreme_argument(ex.store(), args, p.at, largest);
    if (!v) return std::nullopt;
    return largest ? *v > threshold : *v < threshold;
  };
  auto b0 = beyond(0), b1 = beyond(1);
  if (!b0 || !b1 || *b0 == *b1) return std::nullopt;
  double in = *b0 ? 1 : 0, out = *b0 ? 0 : 1;
  for (int i = 0; i < 40; ++i) {
    double mid = (in + out) / 2;
    auto b = beyond(mid);
    if (!b) return std::nullopt;
    (*b ? out : in) = mid;
  }
  return out;
}

}  // namespace

std::vector<expr::ExprId> exp_arguments(const expr::Store& st, const std::vector<expr::ExprId>& roots, size_t limit) {
  std::vector<expr::ExprId> args, stack(roots.begin(), roots.end());
  std::unordered_set<uint32_t> seen, found;
  size_t visited = 0;
  while (!stack.empty() && args.size() < limit && visited++ < 200000) {
    expr::ExprId e = stack.back();
    stack.pop_back();
    if (!seen.insert(e.index).second) continue;
    if (st.kind(e) == expr::Kind::Func && st.func_kind(e) == expr::FuncKind::Exp && found.insert(st.operand(e, 0).index).second)
      args.push_back(st.operand(e, 0));
    for (uint32_t i = 0; i < st.arity(e); ++i) stack.push_back(st.operand(e, i));
  }
  return args;
}

std::vector<ProvokingPoint> provoking_points(Execution& ex, const std::vector<expr::ExprId>& roots,
                                             const decide::FloatModel& narrowest, unsigned count, uint64_t seed) {
  std::vector<ProvokingPoint> out;
  if (count == 0) return out;
  PointSampler sampler(ex, seed ^ 0xF10A7ull);
  out.push_back({sampler.draw(PointStyle::Largest), "every input cell at the end of its range with the largest magnitude"});
  // Where exp of an argument leaves the format: beyond its largest finite value, or below
  // half its smallest subnormal (it rounds to zero there).
  std::vector<expr::ExprId> args = exp_arguments(ex.store(), roots, 64);
  if (!args.empty()) {
    long double p = -std::log2(narrowest.unit_roundoff);
    long double overflow = std::log(narrowest.max_finite), underflow = std::log(narrowest.absolute_floor) - (p - 1) * std::log(2.0L) - 0.7L;
    PointSampler line(ex, seed ^ 0x11AEull);
    for (auto [threshold, largest, what] : {std::tuple{overflow, true, "overflow"}, std::tuple{underflow, false, "underflow to zero"}}) {
      if (out.size() >= count) break;
      if (auto t = crossing(ex, line, args, threshold, largest))
        out.push_back({line.uniform(*t), "every input cell at fraction " + number_text(*t, 6) + " of its range, where an exp argument of the exact expressions crosses " +
                                             number_text(threshold, 6) + " (" + what + " of exp in the narrowest format)"});
    }
  }
  const std::pair<PointStyle, const char*> cycle[] = {
      {PointStyle::NearlyEqualLargest, "nearly equal inputs at the largest magnitude of their ranges"},
      {PointStyle::Spread, "inputs spread over their ranges"},
      {PointStyle::Ends, "inputs at the ends of their ranges"},
      {PointStyle::NearlyEqual, "nearly equal inputs within each tensor"},
      {PointStyle::Small, "inputs at the smallest magnitudes of their ranges"},
      {PointStyle::Spread, "inputs spread over their ranges"},
  };
  for (size_t i = 0; out.size() < count; ++i) {
    auto [style, how] = cycle[i % std::size(cycle)];
    out.push_back({sampler.draw(style), how});
  }
  out.resize(std::min<size_t>(out.size(), count));
  return out;
}

}  // namespace racer::check
