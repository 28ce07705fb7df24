#include "decide/bounded_choices.hpp"

#include <optional>
#include <unordered_map>
#include <vector>

#include "decide/piecewise.hpp"
#include "expr/sign_bounds.hpp"
#include "expr/walk.hpp"

namespace racer::decide {
namespace {

using expr::Bounds;
using expr::CmpOp;
using expr::ExprId;
using expr::Kind;

// Whether a <= b at every point (strictly: a < b), by a's upper and b's lower bound.
bool below(const Bounds& a, const Bounds& b, bool strict) {
  if (!a.hi || !b.lo) return false;
  return strict ? *a.hi < *b.lo : *a.hi <= *b.lo;
}

class Settler {
 public:
  explicit Settler(expr::Store& s) : s_(s), bounds_(s) {}

  ExprId run(ExprId root) {
    auto leaf = [&](ExprId x) -> std::optional<ExprId> {
      if (s_.arity(x) == 0 || !pw_.has_branch(x)) return x;
      return std::nullopt;
    };
    expr::fold_post_order(root, done_, leaf, expr::AllOperands{s_},
                          [&](ExprId x) { return settled(expr::rebuild_over(s_, x, done_)); });
    return done_.at(root.index);
  }

 private:
  // x (its operands settled already) replaced by its one choice where the bounds make it.
  ExprId settled(ExprId x) {
    switch (s_.kind(x)) {
      case Kind::Cmp: {
        const Bounds a = bounds_.of(s_.operand(x, 0)), b = bounds_.of(s_.operand(x, 1));
        const bool lt = below(a, b, true), le = below(a, b, false), gt = below(b, a, true), ge = below(b, a, false);
        std::optional<bool> v;
        switch (s_.cmp_op(x)) {
          case CmpOp::Lt: v = lt ? std::optional(true) : ge ? std::optional(false) : std::nullopt; break;
          case CmpOp::Le: v = le ? std::optional(true) : gt ? std::optional(false) : std::nullopt; break;
          case CmpOp::Eq: v = lt || gt ? std::optional(false) : std::nullopt; break;
          case CmpOp::Ne: v = lt || gt ? std::optional(true) : std::nullopt; break;
          default: break;
        }
        return v ? (*v ? s_.true_value() : s_.false_value()) : x;
      }
      case Kind::Min:
      case Kind::Max: {
        const bool is_max = s_.kind(x) == Kind::Max;
        const uint32_t n = s_.arity(x);
        std::vector<Bounds> b;
        for (uint32_t i = 0; i < n; ++i) b.push_back(bounds_.of(s_.operand(x, i)));
        // Argument i goes where another argument j is always at least as extreme (the first
        // of two that are alike stays).
        std::vector<ExprId> kept;
        for (uint32_t i = 0; i < n; ++i) {
          bool dominated = false;
          for (uint32_t j = 0; j < n && !dominated; ++j) {
            if (j == i) continue;
            const bool j_wins = is_max ? below(b[i], b[j], false) : below(b[j], b[i], false);
            const bool i_wins = is_max ? below(b[j], b[i], false) : below(b[i], b[j], false);
            dominated = j_wins && !(i_wins && i < j);
          }
          if (!dominated) kept.push_back(s_.operand(x, i));
        }
        if (kept.size() == n) return x;
        return kept.size() == 1 ? kept[0] : is_max ? s_.max(kept) : s_.min(kept);
      }
      case Kind::Func: {
        if (s_.func_kind(x) != expr::FuncKind::Abs) return x;
        const ExprId u = s_.operand(x, 0);
        const Bounds b = bounds_.of(u);
        if (b.lo && *b.lo >= 0) return u;
        if (b.hi && *b.hi <= 0) return s_.neg(u);
        return x;
      }
      default: return x;
    }
  }

  expr::Store& s_;
  expr::SignBounds bounds_;
  Piecewise pw_{s_};
  std::unordered_map<uint32_t, ExprId> done_;
};

}  // namespace

std::vector<ExprId> settle_bounded_choices(expr::Store& s, std::span<const ExprId> roots) {
  Settler settler(s);
  std::vector<ExprId> out;
  for (ExprId r : roots) out.push_back(settler.run(r));
  return out;
}

ExprId settle_bounded_choices(expr::Store& s, ExprId x) { return settle_bounded_choices(s, std::span(&x, 1)).front(); }

}  // namespace racer::decide
