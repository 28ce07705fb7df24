#include "check/hazard_points.hpp"
#include "check/number_text.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <unordered_set>

#include "check/float_model.hpp"
#include "expr/walk.hpp"

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

using Value = std::optional<long double>;

// Along `line`, a point where g is positive but as close to 0 as the inputs' formats allow
// (the end of the bisection on g's positive side); nullopt when g has the same sign at both
// ends of the line (its values there v0 and v1), or no value somewhere on the way.
std::optional<std::pair<Point, double>> near_zero(const expr::Store& st, expr::ExprId g, const std::function<Point(double)>& line, Value v0,
                                                  Value v1) {
  if (!v0 || !v1 || (*v0 > 0) == (*v1 > 0)) return std::nullopt;
  auto value = [&](double t) -> Value {
    Point p = line(t);
    decide::RoundingBound exact = exact_values(st, p.at);
    if (auto v = exact.at(g)) return v->value;
    return std::nullopt;
  };
  double pos = *v0 > 0 ? 0 : 1, other = 1 - pos;
  for (int i = 0; i < 40; ++i) {
    double mid = (pos + other) / 2;
    auto v = value(mid);
    if (!v) return std::nullopt;
    (*v > 0 ? pos : other) = mid;
  }
  return std::pair{line(pos), pos};
}

}  // namespace

std::vector<expr::ExprId> pole_operands(const expr::Store& st, const std::vector<expr::ExprId>& roots, bool logarithms, size_t limit) {
  std::vector<expr::ExprId> found;
  std::unordered_set<uint32_t> listed;
  size_t visited = 0;
  auto add = [&](expr::ExprId g) {
    // A constant has no zero to cross; an input symbol's zero is a range end the sampler visits.
    expr::Kind k = st.kind(g);
    if (k != expr::Kind::Const && k != expr::Kind::Symbol && listed.insert(g.index).second) found.push_back(g);
  };
  expr::any_node(st, roots, [&](expr::ExprId e) {
    expr::Kind k = st.kind(e);
    if (logarithms && k == expr::Kind::Func && st.func_kind(e) == expr::FuncKind::Log) add(st.operand(e, 0));
    if (!logarithms && k == expr::Kind::Mul)
      for (uint32_t i = 0; i < st.arity(e); ++i)
        if (sgn(st.weight(e, i)) < 0) add(st.operand(e, i));
    return found.size() >= limit || ++visited == 200000;
  });
  found.resize(std::min(found.size(), limit));
  return found;
}

std::vector<expr::ExprId> exp_arguments(const expr::Store& st, const std::vector<expr::ExprId>& roots, size_t limit) {
  std::vector<expr::ExprId> args;
  std::unordered_set<uint32_t> found;
  size_t visited = 0;
  expr::any_node(st, roots, [&](expr::ExprId e) {
    if (st.kind(e) == expr::Kind::Func && st.func_kind(e) == expr::FuncKind::Exp && found.insert(st.operand(e, 0).index).second)
      args.push_back(st.operand(e, 0));
    return args.size() >= limit || ++visited == 200000;
  });
  return args;
}

std::vector<ProvokingPoint> provoking_points(Execution& ex, const std::vector<expr::ExprId>& roots,
                                             const decide::FloatModel& narrowest, unsigned count, uint64_t seed) {
  std::vector<ProvokingPoint> out;
  if (count == 0) return out;
  PointSampler sampler(ex, hazard_sampler_seed(seed));
  out.push_back({sampler.draw_keyed_largest(), "every input cell at the end of its range with the largest magnitude"});
  // Where exp of an argument leaves the format: beyond its largest finite value, or below
  // half its smallest subnormal (it rounds to zero there).
  std::vector<expr::ExprId> args;
  if (out.size() < count) args = exp_arguments(ex.store(), roots, 64);
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
  // Where a logarithm's argument or a division's denominator crosses 0 within the ranges: the
  // point on its positive side nearest 0, along the line of equal fractions or the crossed one.
  // Each operand's values at the two ends of both lines come from one evaluation per end.
  std::vector<expr::ExprId> operands[2];
  if (out.size() < count)
    for (int k = 0; k < 2; ++k) operands[k] = pole_operands(ex.store(), roots, k == 0, 16);
  PointSampler line(ex, seed ^ 0x9013ull);
  std::function<Point(double)> lines[] = {[&](double t) { return line.uniform(t); }, [&](double t) { return line.crossed(t); }};
  std::map<std::pair<int, uint32_t>, std::pair<Value, Value>> ends;  // (line, operand) -> values at t = 0 and 1
  if (!operands[0].empty() || !operands[1].empty())
    for (int l = 0; l < 2; ++l) {
      Point p0 = lines[l](0), p1 = lines[l](1);
      decide::RoundingBound e0 = exact_values(ex.store(), p0.at), e1 = exact_values(ex.store(), p1.at);
      for (const auto& gs : operands)
        for (expr::ExprId g : gs) {
          auto v0 = e0.at(g), v1 = e1.at(g);
          ends[{l, g.index}] = {v0 ? Value(v0->value) : std::nullopt, v1 ? Value(v1->value) : std::nullopt};
        }
    }
  for (bool logarithms : {true, false}) {
    if (out.size() >= count) break;
    bool done = false;
    for (expr::ExprId g : operands[logarithms ? 0 : 1]) {
      for (int l = 0; l < 2 && !done; ++l)
        if (auto p = near_zero(ex.store(), g, lines[l], ends[{l, g.index}].first, ends[{l, g.index}].second)) {
          out.push_back({std::move(p->first), std::string(l == 0 ? "every input cell at fraction " : "input cells at fraction ") + number_text(p->second, 6) +
                                                   (l == 0 ? " of its range" : " or 1 minus it, alternately, of their ranges") + ", where " +
                                                   (logarithms ? "a logarithm's argument" : "a division's denominator") +
                                                   " in the exact expressions crosses 0 (next to it, on its positive side)",
                         true});
          done = true;
        }
      if (done) break;
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
