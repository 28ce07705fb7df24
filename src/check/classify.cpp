#include "check/classify.hpp"
#include "check/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "check/concrete_run.hpp"
#include "check/float_model.hpp"
#include "check/points.hpp"
#include "decide/ball_eval.hpp"
#include "decide/rounding_bound.hpp"
#include "expr/print.hpp"

namespace racer::check {
namespace {

constexpr int kPointsPerStyle = 3;
constexpr size_t kReplays = 6;   // concrete runs beyond the witness's own

// "A few units of the output format's rounding": 4 for f16 and wider, where the roundings
// before the output add up to some; 1 for fp8, whose one rounding into the output is far
// coarser than all before it, so that the outputs of one exact value lie at most an ulp apart
// (4 ulp of e4m3 would pass a clamp at 240 for one at 448).
double rounding_ulps(ptx::Type t) { return unit_roundoff(t) >= 0x1p-4L ? 1 : 4; }

// The exact value of e at `at` as a long double: from the rounding bound's evaluation, or
// where that gives none (a step function at its step, a select within its error of its
// boundary) from exact rational evaluation, or with `balls` from a 128-bit ball's midpoint.
std::optional<long double> exact_value(const expr::Store& st, decide::RoundingBound& exact, expr::ExprId e, const expr::Assignment& at,
                                       bool balls) {
  if (auto v = exact.at(e)) return v->value;
  if (auto q = expr::eval_exact(st, e, at)) return static_cast<long double>(q->get_d());
  if (auto b = balls ? decide::ball_value(st, e, at) : std::nullopt) return static_cast<long double>(*b);
  return std::nullopt;
}

struct CellAt {
  size_t output;  // index into prep.output_tensors()
  int64_t cell;
};

// Where the two programs' float outputs at this run differ because their exact outputs do,
// by more than rounding level: the float outputs are more than rounding_ulps apart, and the
// exact difference is more than twice the rounding each program actually made there (its
// float output against its own exact value). A difference that the rounding alone could
// produce, or one of a few ulps, is not evidence of a bug that shows in the format.
std::optional<CellAt> manifest_cell(Execution& ex, const ConcreteRun& run, decide::RoundingBound& exact, const expr::Assignment& at,
                                    CellAt first) {
  const Prepared& prep = ex.prep();
  std::vector<size_t> outs = prep.output_tensors();
  auto differs = [&](CellAt c) {
    const exec::TensorSpec& t = prep.tensors()[outs[c.output]];
    uint64_t ba = run.outputs[0][c.output][static_cast<size_t>(c.cell)], bb = run.outputs[1][c.output][static_cast<size_t>(c.cell)];
    if (ba == bb) return false;
    double fa = cell_value(t.elem, ba), fb = cell_value(t.elem, bb);
    if (!float_format(t.elem)) return true;  // integers: any difference is a difference
    if (std::isnan(fa) != std::isnan(fb) || std::isinf(fa) != std::isinf(fb)) return true;
    if (std::isnan(fa) || std::isinf(fa)) return false;  // both non-finite (+inf and -inf aside)
    const bool balls = c.cell == first.cell && c.output == first.output;  // (one cell's worth of ball evaluations)
    auto a = exact_value(ex.store(), exact, ex.cell('a', outs[c.output], c.cell), at, balls);
    auto b = exact_value(ex.store(), exact, ex.cell('b', outs[c.output], c.cell), at, balls);
    if (!a || !b) return false;  // no exact value there: not evidence either way
    long double noise = std::fabs(fa - *a) + std::fabs(fb - *b);
    long double ulps = rounding_ulps(t.elem) * 2 * unit_roundoff(t.elem) * std::max(std::fabs(fa), std::fabs(fb));
    return std::fabs(*a - *b) > 2 * noise && std::fabs(static_cast<long double>(fa) - fb) > ulps;
  };
  if (differs(first)) return first;
  for (size_t oi = 0; oi < outs.size(); ++oi)
    for (uint64_t c = 0; c < prep.tensors()[outs[oi]].cell_count(); ++c)
      if (differs({oi, static_cast<int64_t>(c)})) return CellAt{oi, static_cast<int64_t>(c)};
  return std::nullopt;
}

}  // namespace

std::string_view classification_name(Classification::Kind k) {
  switch (k) {
    case Classification::Kind::Manifest: return "manifest";
    case Classification::Kind::Rounding: return "rounding";
    case Classification::Kind::Hidden: return "hidden";
    case Classification::Kind::NotReplayed: return "not_replayed";
  }
  return "?";
}

namespace {

// The witness and points of every style, with how far apart the exact outputs of the refuted
// cell lie at each (no emulation: exact values and the rounding bound only).
struct ExactScan {
  std::vector<Point> points;
  struct Ranked {
    size_t point;
    long double signal;  // exact difference over rounding noise
  };
  std::vector<Ranked> ranked;  // most different first
  long double largest = 0, ratio_lo = INFINITY, ratio_hi = -INFINITY;
  // Whether at every point the exact outputs differ by no more than rounding could make them:
  // rounding_ulps of the output, or the rounding bound of the two computations where that is
  // larger (outputs that cancel to near 0 from large terms). False where no point had exact
  // values to compare (nothing then shows the difference to be rounding).
  bool within_rounding = true;
  size_t compared = 0;  // points where both exact outputs were known
};

ExactScan scan_exact(Execution& ex, const Counterexample& cx, uint64_t seed) {
  ExactScan scan;
  const Prepared& prep = ex.prep();
  size_t tensor = prep.output_tensors()[cx.output];
  const exec::TensorSpec& out = prep.tensors()[tensor];
  expr::ExprId ea = ex.cell('a', tensor, cx.flat_cell), eb = ex.cell('b', tensor, cx.flat_cell);
  PointSampler sampler(ex, seed ^ 0x9E3779B97F4A7C15ull);
  std::vector<Point>& points = scan.points;
  points.push_back(sampler.around(cx.values));
  for (PointStyle s : {PointStyle::Spread, PointStyle::Ends, PointStyle::Small, PointStyle::NearlyEqual})
    for (int k = 0; k < kPointsPerStyle; ++k) points.push_back(sampler.draw(s));
  const decide::FloatModel model = coarser(float_model(prep, 'a'), float_model(prep, 'b'));
  const long double ulp = 2 * unit_roundoff(out.elem);
  for (size_t i = 0; i < points.size(); ++i) {
    decide::RoundingBound exact = exact_values(ex.store(), points[i].at);
    auto a = exact_value(ex.store(), exact, ea, points[i].at, true), b = exact_value(ex.store(), exact, eb, points[i].at, true);
    if (!a || !b) {
      scan.ranked.push_back({i, i == 0 ? INFINITY : 0});
      continue;
    }
    long double diff = std::fabs(*a - *b), scale = std::max(std::fabs(*a), std::fabs(*b));
    if (scale > 0) scan.largest = std::max(scan.largest, diff / scale);
    decide::RoundingBound rounding(ex.store(), model, points[i].at);
    auto ra = rounding.at(ea), rb = rounding.at(eb);
    long double allowed = std::max(rounding_ulps(out.elem) * ulp * scale, ra && rb ? ra->error + rb->error : 0.0L);
    scan.within_rounding &= diff <= allowed;
    ++scan.compared;
    if (*b != 0) {
      scan.ratio_lo = std::min(scan.ratio_lo, *a / *b);
      scan.ratio_hi = std::max(scan.ratio_hi, *a / *b);
    }
    scan.ranked.push_back({i, i == 0 ? INFINITY : diff / std::max(scale, 1e-300L)});
  }
  scan.within_rounding &= scan.compared > 0;
  std::stable_sort(scan.ranked.begin(), scan.ranked.end(),
                   [](const ExactScan::Ranked& x, const ExactScan::Ranked& y) { return x.signal > y.signal; });
  return scan;
}

}  // namespace

bool exact_outputs_within_rounding(Execution& ex, const Counterexample& cx, uint64_t seed) {
  return 2 * unit_roundoff(ex.prep().tensors()[ex.prep().output_tensors()[cx.output]].elem) > 0 &&
         scan_exact(ex, cx, seed).within_rounding;
}

Classification classify_refutation(Execution& ex, const Counterexample& cx, uint64_t seed) {
  Classification res;
  const Prepared& prep = ex.prep();
  std::vector<size_t> outs = prep.output_tensors();
  const exec::TensorSpec& out = prep.tensors()[outs[cx.output]];
  ExactScan scan = scan_exact(ex, cx, seed);
  const std::vector<Point>& points = scan.points;
  long double largest = scan.largest, ratio_lo = scan.ratio_lo, ratio_hi = scan.ratio_hi;
  bool within_rounding = scan.within_rounding;
  const long double ulp = 2 * unit_roundoff(out.elem);
  res.largest_relative_difference = static_cast<double>(largest);

  size_t replays = 0;
  for (const ExactScan::Ranked& r : scan.ranked) {
    if (replays++ > kReplays) break;
    ex.session().check_limits();  // the check's own time and memory limits bound the replays too
    const Point& p = points[r.point];
    ConcreteRun run = run_concrete(prep, p.concrete(), Defects::Skip);
    if (!run.refusal.empty()) {
      res.summary = "not replayed: the emulation refused (" + run.refusal.substr(0, run.refusal.find('\n')) + ")";
      return res;
    }
    decide::RoundingBound exact = exact_values(ex.store(), p.at);
    auto where = manifest_cell(ex, run, exact, p.at, {cx.output, cx.flat_cell});
    if (!where) continue;
    res.kind = Classification::Kind::Manifest;
    const exec::TensorSpec& t = prep.tensors()[outs[where->output]];
    std::string cell = t.cell_name(where->cell);
    double fa = cell_value(t.elem, run.outputs[0][where->output][static_cast<size_t>(where->cell)]);
    double fb = cell_value(t.elem, run.outputs[1][where->output][static_cast<size_t>(where->cell)]);
    res.summary = "manifest: replayed on the emulator " + std::string(r.point == 0 ? "at the witness" : "at a further point") +
                  ", " + cell + " is " + number_text(fa) + " in program a and " + number_text(fb) +
                  " in program b: more than " + number_text(rounding_ulps(t.elem)) + " ulp apart, and more than twice the rounding either program made there";
    if (r.point != 0) {
      expr::ExprId ma = ex.cell('a', outs[where->output], where->cell), mb = ex.cell('b', outs[where->output], where->cell);
      auto va = expr::eval_exact(ex.store(), ma, p.at), vb = expr::eval_exact(ex.store(), mb, p.at);
      std::string how = "exact evaluation";
      if (!va || !vb || *va == *vb) {
        auto balls = decide::balls_separate(ex.store(), ma, mb, p.at);
        if (!balls) {
          res.summary += " (the decider's witness is kept: the exact outputs at that point are not separated)";
          return res;
        }
        va = balls->mid_a, vb = balls->mid_b;
        how = "ball arithmetic (Arb, " + std::to_string(balls->precision) + " bits); values are ball midpoints";
      }
      Counterexample m = cx;
      m.cell = cell;
      m.output = where->output;
      m.flat_cell = where->cell;
      m.values = p.values();
      m.value_a = va;
      m.value_b = vb;
      m.expr_a = expr::to_string(ex.store(), ma);
      m.expr_b = expr::to_string(ex.store(), mb);
      m.step = "refuted by " + how + "; the decider's witness replays to outputs within rounding, so the witness shown is a point where they differ in " +
                std::string(ptx::type_name(t.elem));
      res.manifest = std::move(m);
    }
    return res;
  }
  std::string largest_text = number_text(static_cast<double>(largest)) + " relative" +
                             (ulp > 0 ? " (" + number_text(static_cast<double>(largest / ulp)) + " ulp of " + std::string(ptx::type_name(out.elem)) + ")" : "");
  if (ulp > 0 && within_rounding) {
    res.kind = Classification::Kind::Rounding;
    bool constant_factor = std::isfinite(ratio_lo) && ratio_hi - ratio_lo <= 1e-3L * std::fabs(ratio_hi - 1) + 1e-15L && ratio_lo != 1;
    std::string why = constant_factor
                          ? "the sides differ by a constant factor of about 1 " + std::string(ratio_lo < 1 ? "- " : "+ ") +
                                number_text(static_cast<double>(std::fabs(ratio_lo - 1))) + " (a constant folded or rounded differently, or one routine read two ways)"
                          : "the sides differ by at most " + largest_text + " (a constant or a routine read two ways)";
    res.summary = "rounding: no replay at " + std::to_string(std::min(points.size(), kReplays + 1)) +
                  " points shows a difference beyond rounding, and over " + std::to_string(points.size()) +
                  " points the exact outputs differ by at most " + largest_text + ", within what rounding can make; " + why;
    return res;
  }
  res.kind = Classification::Kind::Hidden;
  res.summary = "hidden: no replay shows a difference beyond rounding, but the exact outputs differ by up to " + largest_text +
                " at the points tried, more than rounding can make there";
  return res;
}

}  // namespace racer::check
