#include "decide/negligible_terms.hpp"

#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "expr/print.hpp"
#include "expr/sign_bounds.hpp"
#include "expr/walk.hpp"

namespace racer::decide {
namespace {

using expr::ExprId;
using expr::FuncKind;
using expr::Kind;

constexpr size_t kExampleChars = 160;

// Upper bounds on log|x| over the box (nullopt: none known), from the ranges: exact enough for
// a threshold of e^-1000 (doubles, each step rounded outward by a margin).
class LogMagnitude {
 public:
  LogMagnitude(const expr::Store& s, expr::SignBounds& bounds) : s_(s), bounds_(bounds) {}

  std::optional<double> upper(ExprId x) {
    if (auto it = memo_.find(x.index); it != memo_.end()) return it->second;
    std::optional<double> r = compute(x);
    memo_.emplace(x.index, r);
    return r;
  }

 private:
  static double outward(double v) { return v + 1e-9 * std::fabs(v) + 1e-9; }

  static std::optional<double> log_of(const std::optional<mpq_class>& q) {
    if (!q) return std::nullopt;
    if (*q == 0) return -std::numeric_limits<double>::infinity();
    return outward(std::log(std::fabs(q->get_d())));
  }

  // A lower bound on log|x| (nullopt: x may be 0), for factors with negative exponents.
  std::optional<double> lower(ExprId x) {
    if (s_.kind(x) == Kind::Func && s_.func_kind(x) == FuncKind::Exp) {
      expr::Bounds u = bounds_.of(s_.operand(x, 0));
      if (!u.lo) return std::nullopt;
      return -outward(-u.lo->get_d());
    }
    expr::Bounds b = bounds_.of(x);
    if (b.lo && *b.lo > 0) return -outward(-std::log(b.lo->get_d()));
    if (b.hi && *b.hi < 0) return -outward(-std::log(-b.hi->get_d()));
    return std::nullopt;
  }

  std::optional<double> compute(ExprId x) {
    if (s_.kind(x) == Kind::Func && s_.func_kind(x) == FuncKind::Exp) {
      expr::Bounds u = bounds_.of(s_.operand(x, 0));
      if (!u.hi) return std::nullopt;
      return outward(u.hi->get_d());
    }
    if (s_.kind(x) == Kind::Mul) {
      std::optional<double> total = log_of(s_.coef(x));
      for (uint32_t i = 0; i < s_.arity(x) && total; ++i) {
        const double w = s_.weight(x, i).get_d();
        std::optional<double> f = w > 0 ? upper(s_.operand(x, i)) : lower(s_.operand(x, i));
        total = f ? std::optional(outward(*total + w * *f)) : std::nullopt;
      }
      return total;
    }
    expr::Bounds b = bounds_.of(x);
    if (!b.lo || !b.hi) return std::nullopt;
    return log_of(std::max(abs(*b.lo), abs(*b.hi)));
  }

  const expr::Store& s_;
  expr::SignBounds& bounds_;
  std::unordered_map<uint32_t, std::optional<double>> memo_;
};

class Dropper {
 public:
  Dropper(expr::Store& s, std::unordered_set<uint32_t> drop, expr::SignBounds& bounds)
      : s_(s), drop_(std::move(drop)), bounds_(bounds) {}

  // Whether x reads a dropped term.
  bool touched(ExprId x) {
    expr::fold_post_order<bool>(
        x, touched_,
        [&](ExprId e) -> std::optional<bool> {
          if (drop_.count(e.index)) return true;
          if (s_.arity(e) == 0) return false;
          return std::nullopt;
        },
        expr::AllOperands{s_},
        [&](ExprId e) {
          for (uint32_t i = 0; i < s_.arity(e); ++i)
            if (touched_.at(s_.operand(e, i).index)) return true;
          return false;
        });
    return touched_.at(x.index);
  }

  // x with the dropped terms replaced by 0.
  ExprId without(ExprId x) {
    expr::fold_post_order<ExprId>(
        x, without_,
        [&](ExprId e) -> std::optional<ExprId> {
          if (drop_.count(e.index)) return s_.zero();
          if (!touched(e)) return e;
          return std::nullopt;
        },
        expr::AllOperands{s_}, [&](ExprId e) { return expr::rebuild_over(s_, e, without_); });
    return without_.at(x.index);
  }

  // Where dropping would change more than the terms' own size, what and where; "" where it
  // would not. Nodes that read no dropped term, and the dropped terms themselves, are not
  // looked into (a refusal may come before every dropped term is met).
  std::string refusal(std::span<const ExprId> roots) {
    std::vector<ExprId> stack(roots.begin(), roots.end());
    std::unordered_set<uint32_t> seen;
    while (!stack.empty()) {
      ExprId e = stack.back();
      stack.pop_back();
      if (!seen.insert(e.index).second) continue;
      if (drop_.count(e.index)) {
        if (outermost_.empty()) example_ = e;
        outermost_.push_back(e);
        continue;
      }
      if (!touched(e)) continue;
      if (std::string why = refusal_at(e); !why.empty()) return why;
      for (uint32_t i = 0; i < s_.arity(e); ++i) stack.push_back(s_.operand(e, i));
    }
    return {};
  }

  // After refusal(): the dropped terms that are not inside another, and the first of them.
  size_t outermost() const { return outermost_.size(); }
  std::string example() const { return clipped(example_); }

 private:
  // Sums, maxima, selects' branches and the continuous functions move by no more than what is
  // dropped from them (or, for sqrt, its root). A product moves by that times its other factors,
  // so those must be bounded; a dropped factor of a product that is not itself dropped is
  // refused outright (the product's other factors are what keep it from being small).
  std::string refusal_at(ExprId e) {
    const Kind k = s_.kind(e);
    if (k == Kind::Cmp) return "a comparison reads one of them: " + clipped(e);
    if (k == Kind::Mul) {
      for (uint32_t i = 0; i < s_.arity(e); ++i) {
        ExprId f = s_.operand(e, i);
        if (!touched(f)) continue;
        if (s_.weight(e, i) < 0) {
          if (!clear_of_zero(without(f))) return "a denominator may reach 0 without them: " + clipped(f);
        } else if (drop_.count(f.index)) {
          return "a product keeps one of them as a factor and is not small itself: " + clipped(e);
        }
        for (uint32_t j = 0; j < s_.arity(e); ++j)
          if (j != i && !bounded(s_.operand(e, j), s_.weight(e, j) < 0))
            return "a product's other factors are not bounded on the box: " + clipped(e);
      }
      return {};
    }
    if (k != Kind::Func) return {};
    const FuncKind f = s_.func_kind(e);
    if (expr::is_wrap(f)) return "an integer wrap-around reads one of them: " + clipped(e);
    if (f == FuncKind::Log || f == FuncKind::Sqrt) {
      expr::Bounds u = bounds_.of(without(s_.operand(e, 0)));
      const bool defined = u.lo && (f == FuncKind::Log ? *u.lo > 0 : *u.lo >= 0);
      if (!defined) return std::string(f == FuncKind::Log ? "a log" : "a sqrt") + "'s operand may leave its domain without them: " + clipped(e);
    }
    return {};
  }

  bool clear_of_zero(ExprId x) {
    expr::Bounds b = bounds_.of(x);
    return (b.lo && *b.lo > 0) || (b.hi && *b.hi < 0);
  }

  bool bounded(ExprId x, bool inverted) {
    if (inverted) return clear_of_zero(x) && clear_of_zero(without(x));
    expr::Bounds b = bounds_.of(x);
    return b.lo && b.hi;
  }

  std::string clipped(ExprId x) const { return expr::to_string(s_, x, kExampleChars); }

  expr::Store& s_;
  std::unordered_set<uint32_t> drop_;  // the terms replaced by 0
  expr::SignBounds& bounds_;
  std::unordered_map<uint32_t, bool> touched_;
  std::unordered_map<uint32_t, ExprId> without_;
  std::vector<ExprId> outermost_;
  ExprId example_;
};

}  // namespace

std::optional<WithoutNegligible> drop_negligible_terms(expr::Store& s, ExprId a, ExprId b, std::string& why) {
  const ExprId roots[] = {a, b};
  expr::SignBounds bounds(s);
  LogMagnitude magnitude(s, bounds);
  std::unordered_set<uint32_t> drop;
  // The terms: exps and products of them whose size the ranges bound below e^-1000 (exp(x - m)
  // is the product exp(x) exp(m)^-1 in the Store, with a constant part as an exp factor of its own).
  expr::any_node(s, roots, [&](ExprId e) {
    const bool term = s.kind(e) == Kind::Mul || (s.kind(e) == Kind::Func && s.func_kind(e) == FuncKind::Exp);
    if (!term) return false;
    std::optional<double> log_size = magnitude.upper(e);
    if (log_size && *log_size <= -static_cast<double>(kNegligibleExponent)) drop.insert(e.index);
    return false;
  });
  if (drop.empty()) return std::nullopt;
  Dropper d(s, std::move(drop), bounds);
  why = d.refusal(roots);
  if (!why.empty()) {
    why = "terms below e^-" + std::to_string(kNegligibleExponent) + " were not dropped: " + why;
    return std::nullopt;
  }
  WithoutNegligible w{d.without(a), d.without(b), d.outermost(), d.example()};
  if (s.is_undefined(w.a) || s.is_undefined(w.b)) {
    why = "terms below e^-" + std::to_string(kNegligibleExponent) + " were not dropped: a side is undefined without them";
    return std::nullopt;
  }
  return w;
}

}  // namespace racer::decide
