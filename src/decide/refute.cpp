#include "decide/refute.hpp"

#include <iterator>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "decide/ball_eval.hpp"
#include "decide/boundary.hpp"
#include "decide/grid.hpp"
#include "expr/eval.hpp"
#include "expr/substitute.hpp"
#include "expr/walk.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

namespace {

constexpr size_t kMaxBoundaries = 24;
constexpr size_t kBoundaryBases = 2;
constexpr size_t kSymbolsPerBoundary = 3;
// Ball evaluation of a large DAG with many transcendental nodes costs milliseconds, and on
// equal sides it never succeeds: a few points at low precision, fewer at high.
constexpr size_t kBallPoints = 12;
constexpr size_t kBallEscalations = 2;
// Simple values make many symbols equal (ties in every max, equal scores), so a difference
// that needs one term to dominate, such as a softmax whose maximum lies in one block, never
// shows there: half of the ball points are kept for the random points.
constexpr size_t kBallPointsBeforeRandom = kBallPoints / 2;
static_assert(kBallPointsBeforeRandom + SearchOptions{}.random_ball_points == kBallPoints);

// Whether a side may be an infinity: a -inf constant (a masked logit) somewhere in either.
bool has_infinity(const expr::Store& s, ExprId a, ExprId b) {
  const ExprId roots[] = {a, b};
  return expr::any_node(s, roots, [&](ExprId x) {
    return s.kind(x) == Kind::Const && (s.const_kind(x) == expr::ConstKind::PosInf || s.const_kind(x) == expr::ConstKind::NegInf);
  });
}

// Sides that are an infinity and another value at p (-inf where the other is finite): the
// outputs differ as floats do, exactly.
std::optional<Refutation> infinite_refutation(const expr::Store& s, ExprId a, ExprId b, const Point& p, const expr::Assignment& at) {
  std::optional<expr::ExtendedValue> xa = expr::eval_extended(s, a, at);
  std::optional<expr::ExtendedValue> xb = xa ? expr::eval_extended(s, b, at) : std::nullopt;
  if (!xa || !xb || (xa->infinity == 0 && xb->infinity == 0) || *xa == *xb) return std::nullopt;
  return Refutation{p, xa->value, xb->value, false, 0, xa->infinity, xb->infinity};
}

// Whether exact evaluation can meet irrational values: any function but abs and wraps.
bool has_transcendental(const expr::Store& s, ExprId a, ExprId b) {
  std::unordered_set<uint32_t> seen{a.index, b.index};
  std::vector<ExprId> stack{a, b};
  while (!stack.empty()) {
    ExprId x = stack.back();
    stack.pop_back();
    if (s.kind(x) == Kind::Func && s.func_kind(x) != expr::FuncKind::Abs && !expr::is_wrap(s.func_kind(x))) return true;
    for (uint32_t i = 0; i < s.arity(x); ++i) {
      if (seen.insert(s.operand(x, i).index).second) stack.push_back(s.operand(x, i));
    }
  }
  return false;
}

size_t dag_size(const expr::Store& s, std::span<const ExprId> roots) {
  std::unordered_set<uint32_t> seen;
  std::vector<ExprId> stack;
  for (ExprId r : roots) {
    if (seen.insert(r.index).second) stack.push_back(r);
  }
  while (!stack.empty()) {
    ExprId x = stack.back();
    stack.pop_back();
    for (uint32_t i = 0; i < s.arity(x); ++i) {
      if (seen.insert(s.operand(x, i).index).second) stack.push_back(s.operand(x, i));
    }
  }
  return seen.size();
}

class Search {
 public:
  Search(const expr::Store& s, ExprId a, ExprId b, ExprId diff, PointSource& src, const SearchOptions& o)
      : s_(s), a_(a), b_(b), diff_(diff), src_(src), opt_(o) {
    result_.stats.transcendental = has_transcendental(s, a, b);
    infinities_ = has_infinity(s, a, b);
    // The difference screens points only where it is much smaller than the sides (what
    // they share cancelled); otherwise evaluating it would nearly double the cost.
    if (diff_.valid()) {
      ExprId sides[] = {a, b};
      ExprId d[] = {diff_};
      screen_ = 2 * dag_size(s, d) < dag_size(s, sides);
    }
  }

  SearchResult run() {
    if (opt_.random_only) {  // the random points only: those after the simple ones
      ball_cap_ = opt_.random_ball_points;
      try_points(src_.simple_count(), src_.simple_count() + opt_.points);
      return result_;
    }
    size_t simple = std::min(src_.simple_count(), opt_.points);
    if (try_points(0, simple) || boundaries()) return result_;
    ball_cap_ = ball_points_ + opt_.random_ball_points;
    try_points(simple, opt_.points);
    return result_;
  }

 private:
  // The source's points numbered [from, to), in order: true at the first that refutes.
  bool try_points(size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      ++result_.stats.points;
      if (try_point(src_.point(i))) return true;
    }
    return false;
  }

  bool try_point(const Point& p) {
    expr::Assignment at = src_.assignment(p);
    if (screen_) {
      std::optional<mpq_class> vd = expr::eval_exact(s_, diff_, at);
      if (vd && *vd == 0) {
        ++result_.stats.agreed;
        return false;
      }
    }
    std::optional<mpq_class> va = expr::eval_exact(s_, a_, at);
    std::optional<mpq_class> vb = va ? expr::eval_exact(s_, b_, at) : std::nullopt;
    if (va && vb) {
      if (*va == *vb) {
        ++result_.stats.agreed;
        return false;
      }
      result_.refutation = Refutation{p, *va, *vb, false, 0};
      return true;
    }
    if (infinities_)
      if (auto r = infinite_refutation(s_, a_, b_, p, at)) {
        result_.refutation = std::move(*r);
        return true;
      }
    ++result_.stats.not_exact;
    if (!opt_.balls || !result_.stats.transcendental || ball_points_ >= ball_cap_) return false;
    ++ball_points_;
    ++result_.stats.ball_points;
    size_t levels = 1;
    if (ball_escalations_ < kBallEscalations) {
      ++ball_escalations_;
      levels = std::size(kBallPrecisions);
    }
    std::optional<BallSeparation> sep = balls_separate(s_, a_, b_, at, levels);
    if (!sep) return false;
    result_.refutation = Refutation{p, sep->mid_a, sep->mid_b, true, sep->precision};
    return true;
  }

  bool boundaries() {
    std::vector<ExprId> roots;
    if (diff_.valid()) roots.push_back(diff_);
    roots.push_back(a_);
    roots.push_back(b_);
    std::vector<Boundary> bds = find_boundaries(s_, roots, kMaxBoundaries);
    if (bds.empty()) return false;
    std::unordered_map<uint32_t, size_t> index_of;
    for (size_t k = 0; k < src_.size(); ++k) index_of.emplace(src_.symbols()[k].index, k);
    size_t bases = std::min({kBoundaryBases, src_.simple_count(), opt_.points});
    for (size_t base_i = 0; base_i < bases; ++base_i) {
      Point base = src_.point(base_i);
      for (const Boundary& bd : bds) {
        std::vector<ExprId> syms = expr::free_symbols(s_, bd.lhs);
        for (ExprId y : expr::free_symbols(s_, bd.rhs)) syms.push_back(y);
        std::unordered_set<uint32_t> done;
        size_t used = 0;
        for (ExprId y : syms) {
          if (used == kSymbolsPerBoundary || !done.insert(y.index).second) continue;
          ++used;
          size_t k = index_of.at(y.index);
          for (const mpq_class& v : boundary_values(s_, bd, src_, base, k)) {
            if (result_.stats.boundary_points >= opt_.boundary_points) return false;
            Point p = base;
            p[k] = v;
            ++result_.stats.boundary_points;
            if (try_point(p)) return true;
          }
        }
      }
    }
    return false;
  }

  const expr::Store& s_;
  ExprId a_, b_, diff_;
  PointSource& src_;
  SearchOptions opt_;
  SearchResult result_;
  size_t ball_points_ = 0, ball_escalations_ = 0;
  size_t ball_cap_ = kBallPointsBeforeRandom;
  bool screen_ = false;
  bool infinities_ = false;
};

}  // namespace

SearchResult search_refutation(const expr::Store& s, ExprId a, ExprId b, ExprId diff, PointSource& src,
                               const SearchOptions& options) {
  return Search(s, a, b, diff, src, options).run();
}

std::optional<Refutation> refutation_at(const expr::Store& s, ExprId a, ExprId b, const PointSource& src,
                                        const Point& p, bool balls) {
  for (size_t k = 0; k < p.size(); ++k) {
    if (!admissible(p[k], src.domain(k))) return std::nullopt;
  }
  expr::Assignment at = src.assignment(p);
  std::optional<mpq_class> va = expr::eval_exact(s, a, at);
  std::optional<mpq_class> vb = va ? expr::eval_exact(s, b, at) : std::nullopt;
  if (va && vb) {
    if (*va == *vb) return std::nullopt;
    return Refutation{p, *va, *vb, false, 0};
  }
  if (!balls) return std::nullopt;
  std::optional<BallSeparation> sep = balls_separate(s, a, b, at);
  if (!sep) return std::nullopt;
  return Refutation{p, sep->mid_a, sep->mid_b, true, sep->precision};
}

bool rounding_level(const Refutation& r) {
  if (r.infinite_a || r.infinite_b) return false;
  mpq_class scale = std::max(abs(r.value_a), abs(r.value_b));
  return scale > 0 && abs(r.value_a - r.value_b) * 262144 <= scale;
}

bool confirm_refutation(const expr::Store& s, ExprId a, ExprId b, const PointSource& src, const Refutation& r) {
  for (size_t k = 0; k < src.size(); ++k) {
    if (!admissible(r.point[k], src.domain(k))) return false;
  }
  expr::Assignment at = src.assignment(r.point);
  if (r.by_balls) return balls_separate(s, a, b, at).has_value();
  if (r.infinite_a || r.infinite_b) {
    std::optional<Refutation> again = infinite_refutation(s, a, b, r.point, at);
    return again && again->infinite_a == r.infinite_a && again->infinite_b == r.infinite_b && again->value_a == r.value_a &&
           again->value_b == r.value_b;
  }
  std::optional<mpq_class> va = expr::eval_exact(s, a, at), vb = expr::eval_exact(s, b, at);
  return va && vb && *va != *vb && *va == r.value_a && *vb == r.value_b;
}

}  // namespace racer::decide
