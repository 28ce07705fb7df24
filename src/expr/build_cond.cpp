// Comparisons and select. A comparison folds when its truth is certain: between constants
// (extended-real order), against an infinity, or when the difference of two finite sides
// is a constant or bounded by symbol ranges.
#include <algorithm>
#include <array>

#include "expr/store.hpp"
#include "support/error.hpp"

namespace racer::expr {

using detail::kBoolean;
using detail::kFinite;

namespace {

bool holds(CmpOp op, int sign) {  // sign of a - b
  switch (op) {
    case CmpOp::Lt: return sign < 0;
    case CmpOp::Le: return sign <= 0;
    case CmpOp::Eq: return sign == 0;
    case CmpOp::Ne: return sign != 0;
    default: return false;
  }
}

struct Bounds {
  mpq_class lo, hi;
};

// Interval of x over the symbols' ranges, for constants, ranged symbols, their multiples
// and linear sums of them; deeper shapes are left to the decider.
std::optional<Bounds> bounds(const Store& s, ExprId x) {
  switch (s.kind(x)) {
    case Kind::Const:
      if (!s.is_rational(x)) return std::nullopt;
      return Bounds{s.rational(x), s.rational(x)};
    case Kind::Symbol: {
      const auto& r = s.symbol_info(x).range;
      if (!r) return std::nullopt;
      return Bounds{r->lo, r->hi};
    }
    case Kind::Mul: {
      if (s.arity(x) != 1 || s.weight(x, 0) != 1) return std::nullopt;
      std::optional<Bounds> b = bounds(s, s.operand(x, 0));
      if (!b) return std::nullopt;
      const mpq_class& c = s.coef(x);
      mpq_class lo = c * (c > 0 ? b->lo : b->hi), hi = c * (c > 0 ? b->hi : b->lo);
      return Bounds{lo, hi};
    }
    case Kind::Add: {
      Bounds b{s.coef(x), s.coef(x)};
      for (uint32_t i = 0; i < s.arity(x); ++i) {
        ExprId t = s.operand(x, i);
        if (s.kind(t) != Kind::Symbol) return std::nullopt;
        std::optional<Bounds> tb = bounds(s, t);
        if (!tb) return std::nullopt;
        const mpq_class& w = s.weight(x, i);
        b.lo += w * (w > 0 ? tb->lo : tb->hi);
        b.hi += w * (w > 0 ? tb->hi : tb->lo);
      }
      return b;
    }
    default:
      return std::nullopt;
  }
}

int inf_rank(const Store& s, ExprId x) { return x == s.pos_inf() ? 1 : x == s.neg_inf() ? -1 : 0; }

}  // namespace

std::optional<bool> Store::decide_cmp(CmpOp op, ExprId a, ExprId b) {
  if (a == b && is_finite(a)) return holds(op, 0);
  int ra = inf_rank(*this, a), rb = inf_rank(*this, b);
  if (ra != 0 && (rb != 0 || is_finite(b))) return holds(op, ra == rb ? 0 : ra < rb ? -1 : 1);
  if (rb != 0 && is_finite(a)) return holds(op, -rb);
  if (!is_finite(a) || !is_finite(b)) return std::nullopt;
  if (is_rational(a) && is_rational(b)) return holds(op, sgn(rational(a) - rational(b)));
  // A value positive by its shape (a sum of exps: a softmax's denominator, which a log
  // routine tests against 0) against a constant at or below 0.
  for (int side = 0; side < 2; ++side) {
    const ExprId k = side ? a : b, v = side ? b : a;
    if (!is_rational(k) || rational(k) > 0 || is_rational(v) || !surely_positive(v, kShapeSignBudget)) continue;
    return holds(op, side ? -1 : 1);
  }
  // Building a - b may add a node to the store; it is also the form a decider would want.
  std::optional<Bounds> d = bounds(*this, sub(a, b));
  if (!d) return std::nullopt;
  // Decided when every sign the difference can take gives the same answer.
  std::array<int, 3> signs{-1, 0, 1};
  std::optional<bool> answer;
  for (int sg : signs) {
    bool possible = sg < 0 ? d->lo < 0 : sg > 0 ? d->hi > 0 : (d->lo <= 0 && d->hi >= 0);
    if (!possible) continue;
    bool h = holds(op, sg);
    if (answer && *answer != h) return std::nullopt;
    answer = h;
  }
  return answer;
}

ExprId Store::cmp(CmpOp op, ExprId a, ExprId b) {
  if (op == CmpOp::Gt) return cmp(CmpOp::Lt, b, a);
  if (op == CmpOp::Ge) return cmp(CmpOp::Le, b, a);
  require_number(a);
  require_number(b);
  if (a == undefined_ || b == undefined_) return undefined_;
  if (std::optional<bool> d = decide_cmp(op, a, b)) return *d ? true_ : false_;
  if ((op == CmpOp::Eq || op == CmpOp::Ne) && b < a) std::swap(a, b);
  std::array<uint32_t, 2> ops{a.index, b.index};
  return intern(Kind::Cmp, uint8_t(op), 0, ops, kFinite | kBoolean);
}

ExprId Store::select(ExprId cond, ExprId then_value, ExprId else_value) {
  if (cond == undefined_) return undefined_;
  if (!is_condition(cond)) throw Error(ExitCode::Internal, "expr: select on a number, not a condition");
  // Undefined is of either sort, so an undefined comparison can be a branch of a condition.
  bool t_cond = is_condition(then_value), e_cond = is_condition(else_value);
  if (t_cond != e_cond && then_value != undefined_ && else_value != undefined_) {
    throw Error(ExitCode::Internal, "expr: select between a number and a condition");
  }
  if (cond == true_) return then_value;
  if (cond == false_) return else_value;
  // Inside a branch of cond, cond's value is known.
  if (kind(then_value) == Kind::Select && operand(then_value, 0) == cond) then_value = operand(then_value, 1);
  if (kind(else_value) == Kind::Select && operand(else_value, 0) == cond) else_value = operand(else_value, 2);
  if (then_value == else_value) return then_value;
  if (then_value == true_ && else_value == false_) return cond;
  uint8_t flags = (is_finite(then_value) && is_finite(else_value)) ? kFinite : 0;
  if (t_cond || e_cond) flags |= kBoolean;
  std::array<uint32_t, 3> ops{cond.index, then_value.index, else_value.index};
  return intern(Kind::Select, 0, 0, ops, flags);
}

ExprId Store::rebuild(ExprId x, std::span<const ExprId> operands) {
  if (operands.size() != arity(x)) throw Error(ExitCode::Internal, "expr: rebuild with the wrong operand count");
  bool same = true;
  for (uint32_t i = 0; i < operands.size() && same; ++i) same = operands[i] == operand(x, i);
  if (same) return x;
  switch (kind(x)) {
    case Kind::Const:
    case Kind::Bool:
    case Kind::Symbol: return x;
    case Kind::Add: return rebuild_add(x, operands);
    case Kind::Mul: return rebuild_mul(x, operands);
    case Kind::Func: return func(func_kind(x), operands[0]);
    case Kind::Min:
    case Kind::Max: return minmax(kind(x), operands);
    case Kind::Select: return select(operands[0], operands[1], operands[2]);
    case Kind::Cmp: return cmp(cmp_op(x), operands[0], operands[1]);
  }
  return x;
}

}  // namespace racer::expr
