#include "decide/branch_flips.hpp"

#include <array>
#include <cmath>

#include "decide/float_tape.hpp"
#include "decide/grid.hpp"

namespace racer::decide {

using expr::ExprId;

namespace {

// Fractions of a symbol's range one gradient step tries, largest first: a full step puts every
// input the margin depends on at an end of its range.
constexpr std::array<double, 4> kStepFractions = {1.0, 0.25, 1.0 / 16, 1.0 / 64};
// Relative differences in doubles below which a flipped point is not worth an exact look.
constexpr double kBeyondRounding = 0x1p-16;  // above refute.hpp's rounding level (2^-18), with room
constexpr double kAnyDifference = 0x1p-40;

class Search {
 public:
  Search(const expr::Store& s, ExprId a, ExprId b, const PointSource& src, const Point& start, const FlipOptions& o)
      : s_(s), a_(a), b_(b), src_(src), start_(start), o_(o), roots_{a, b}, tape_(s, roots_, src.symbols()) {
    const size_t n = src.size();
    x0_.resize(n);
    lo_.assign(n, -HUGE_VAL);
    hi_.assign(n, HUGE_VAL);
    width_.resize(n);
    for (size_t k = 0; k < n; ++k) {
      x0_[k] = start[k].get_d();
      const SymbolDomain& d = src.domain(k);
      if (d.lo) lo_[k] = d.lo->get_d();
      if (d.hi) hi_[k] = d.hi->get_d();
      width_[k] = d.lo && d.hi ? hi_[k] - lo_[k] : std::max(1.0, 2 * std::fabs(x0_[k]));
    }
    stop_ = std::min(o.deadline, std::chrono::steady_clock::now() + o.budget);
  }

  std::optional<Refutation> run() {
    if (!tape_.usable() || !tape_.evaluate(x0_)) return std::nullopt;
    const std::vector<uint32_t>& branches = tape_.branch_points();
    for (size_t i = 0; i < branches.size() && i < o_.branches; ++i) {
      if (std::chrono::steady_clock::now() > stop_ || confirmations_ >= o_.confirmations) break;
      if (std::optional<Refutation> r = flip(branches[i])) return r;
    }
    return std::nullopt;
  }

 private:
  // Steps from the start until `branch` takes another branch, then compares the sides there.
  std::optional<Refutation> flip(uint32_t branch) {
    std::vector<double> x = x0_, grad(x.size()), next(x.size());
    if (!tape_.evaluate(x)) return std::nullopt;
    const uint32_t before = tape_.taken(branch);
    for (size_t step = 0; step < o_.steps; ++step) {
      const std::vector<std::pair<uint32_t, double>> seeds = tape_.flip_margin(branch);
      if (seeds.empty()) return std::nullopt;
      const double margin = weighted(seeds);
      tape_.gradient(seeds, grad);
      double best = margin;
      std::vector<double> best_x;
      for (double t : kStepFractions) {
        for (size_t k = 0; k < x.size(); ++k)
          next[k] = grad[k] == 0 ? x[k] : std::clamp(x[k] + (grad[k] > 0 ? t : -t) * width_[k], lo_[k], hi_[k]);
        if (!tape_.evaluate(next)) continue;
        if (tape_.taken(branch) != before) return compare_at(next);
        const double m = weighted(seeds);
        if (m > best) best = m, best_x = next;
      }
      if (best_x.empty()) return std::nullopt;
      x = std::move(best_x);
      if (!tape_.evaluate(x)) return std::nullopt;
    }
    return std::nullopt;
  }

  double weighted(const std::vector<std::pair<uint32_t, double>>& seeds) const {
    double m = 0;
    for (auto [slot, w] : seeds) m += w * tape_.value(slot);
    return m;
  }

  // The sides at the admissible point nearest x: exactly, where doubles show them apart.
  std::optional<Refutation> compare_at(const std::vector<double>& x) {
    Point p(x.size());
    std::vector<double> at(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
      std::optional<mpq_class> v = x[k] == x0_[k] ? std::optional<mpq_class>(start_[k]) : snap(mpq_class(x[k]), src_.domain(k));
      p[k] = v ? *v : start_[k];
      at[k] = p[k].get_d();
    }
    if (!tape_.evaluate(at)) return std::nullopt;
    const double va = tape_.value(tape_.slot(a_)), vb = tape_.value(tape_.slot(b_));
    const double scale = std::max(std::fabs(va), std::fabs(vb));
    if (scale == 0 || std::fabs(va - vb) <= scale * (o_.beyond_rounding ? kBeyondRounding : kAnyDifference))
      return std::nullopt;
    ++confirmations_;
    std::optional<Refutation> r = refutation_at(s_, a_, b_, src_, p, o_.balls);
    if (r && o_.beyond_rounding && rounding_level(*r)) return std::nullopt;
    return r;
  }

  const expr::Store& s_;
  ExprId a_, b_;
  const PointSource& src_;
  const Point& start_;
  const FlipOptions& o_;
  std::array<ExprId, 2> roots_;
  FloatTape tape_;
  std::vector<double> x0_, lo_, hi_, width_;
  std::chrono::steady_clock::time_point stop_;
  size_t confirmations_ = 0;
};

}  // namespace

std::optional<Refutation> flip_branches(const expr::Store& s, ExprId a, ExprId b, const PointSource& src,
                                        const Point& start, const FlipOptions& options) {
  if (start.size() != src.size()) return std::nullopt;
  return Search(s, a, b, src, start, options).run();
}

}  // namespace racer::decide
