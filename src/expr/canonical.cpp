#include "expr/canonical.hpp"

namespace racer::expr {

namespace {

bool fail(std::string* why, const char* rule) {
  if (why) *why = rule;
  return false;
}

bool sorted_strictly(const Store& s, ExprId x) {
  for (uint32_t i = 1; i < s.arity(x); ++i) {
    if (!(s.operand(x, i - 1) < s.operand(x, i))) return false;
  }
  return true;
}

bool check_add(const Store& s, ExprId x, std::string* why) {
  uint32_t n = s.arity(x);
  if (n == 0) return fail(why, "add: no terms");
  if (n == 1 && s.coef(x) == 0) return fail(why, "add: a lone term is a product");
  if (!sorted_strictly(s, x)) return fail(why, "add: terms not sorted and merged");
  bool has_inf = false;
  for (uint32_t i = 0; i < n; ++i) {
    ExprId t = s.operand(x, i);
    const mpq_class& w = s.weight(x, i);
    if (s.is_condition(t)) return fail(why, "add: a condition term");
    if (s.is_inf(t)) {
      has_inf = true;
      if (w != 1) return fail(why, "add: an infinite term has weight 1");
      continue;
    }
    if (s.kind(t) == Kind::Const) return fail(why, "add: a constant term");
    if (s.kind(t) == Kind::Add) return fail(why, "add: a nested sum");
    if (s.kind(t) == Kind::Mul && s.coef(t) != 1) return fail(why, "add: a product term with a coefficient");
    if (w == 0 && s.is_finite(t)) return fail(why, "add: a zero weight on a finite term");
  }
  if (has_inf) {
    if (s.coef(x) != 0) return fail(why, "add: a constant next to an infinity");
    for (uint32_t i = 0; i < n; ++i) {
      ExprId t = s.operand(x, i);
      if (s.is_inf(t)) continue;
      if (s.is_finite(t)) return fail(why, "add: a finite term next to an infinity");
      if (abs(s.weight(x, i)) > 1) return fail(why, "add: a weight other than a sign next to an infinity");
    }
  }
  bool finite = !has_inf;
  for (uint32_t i = 0; i < n; ++i) finite = finite && s.is_finite(s.operand(x, i));
  if (finite != s.is_finite(x)) return fail(why, "add: wrong finite flag");
  return true;
}

bool check_mul(const Store& s, ExprId x, std::string* why) {
  uint32_t n = s.arity(x);
  const mpq_class& c = s.coef(x);
  if (n == 0) return fail(why, "mul: no factors");
  if (!sorted_strictly(s, x)) return fail(why, "mul: factors not sorted and merged");
  if (n == 1 && s.weight(x, 0) == 1) {
    if (c == 1) return fail(why, "mul: a lone factor");
    if (s.kind(s.operand(x, 0)) == Kind::Add) return fail(why, "mul: a number times a sum is distributed");
  }
  bool finite = true;
  for (uint32_t i = 0; i < n; ++i) {
    ExprId b = s.operand(x, i);
    const mpq_class& e = s.weight(x, i);
    if (s.is_condition(b)) return fail(why, "mul: a condition factor");
    if (e == 0 || e.get_den() != 1) return fail(why, "mul: exponents are nonzero integers");
    if (s.is_inf(b)) {
      if (e != 1 || c != 1) return fail(why, "mul: an infinity appears once, with coefficient 1");
    } else if (s.kind(b) == Kind::Const) {
      return fail(why, "mul: a constant factor");
    }
    if (s.kind(b) == Kind::Mul) return fail(why, "mul: a nested product");
    if (s.kind(b) == Kind::Add && s.is_finite(b) && s.weight(b, 0) != 1 && abs(e) <= 64) {
      return fail(why, "mul: a sum factor with leading weight other than 1");
    }
    if (c == 0 && (s.is_finite(b) || abs(e) != 1)) return fail(why, "mul: 0 * ... keeps only non-finite bases");
    finite = finite && s.is_finite(b);
  }
  if (finite != s.is_finite(x)) return fail(why, "mul: wrong finite flag");
  return true;
}

bool check_minmax(const Store& s, ExprId x, std::string* why) {
  if (s.arity(x) < 2) return fail(why, "min/max: fewer than two arguments");
  if (!sorted_strictly(s, x)) return fail(why, "min/max: arguments not sorted and unique");
  int constants = 0;
  for (uint32_t i = 0; i < s.arity(x); ++i) {
    ExprId a = s.operand(x, i);
    if (s.kind(a) == s.kind(x)) return fail(why, "min/max: nested");
    if (s.kind(a) == Kind::Const) {
      ++constants;
      if (a == (s.kind(x) == Kind::Max ? s.neg_inf() : s.pos_inf())) return fail(why, "min/max: identity argument");
      if (s.is_undefined(a)) return fail(why, "min/max: undefined argument");
    }
  }
  if (constants > 1) return fail(why, "min/max: constants not folded");
  return true;
}

}  // namespace

bool is_canonical(const Store& s, ExprId x, std::string* why) {
  switch (s.kind(x)) {
    case Kind::Const:
    case Kind::Bool:
    case Kind::Symbol: return true;
    case Kind::Add: return check_add(s, x, why);
    case Kind::Mul: return check_mul(s, x, why);
    case Kind::Min:
    case Kind::Max: return check_minmax(s, x, why);
    case Kind::Func:
      if (s.kind(s.operand(x, 0)) == Kind::Const) {
        // Only constants without an exact value stay unevaluated.
        if (!s.is_rational(s.operand(x, 0))) return fail(why, "func: of a special constant");
      }
      return true;
    case Kind::Cmp: {
      CmpOp op = s.cmp_op(x);
      if (op == CmpOp::Gt || op == CmpOp::Ge) return fail(why, "cmp: Gt/Ge are stored swapped");
      ExprId a = s.operand(x, 0), b = s.operand(x, 1);
      if ((op == CmpOp::Eq || op == CmpOp::Ne) && b < a) return fail(why, "cmp: symmetric operands not sorted");
      // s == s stays only where s may be NaN.
      if (a == b && s.is_finite(a)) return fail(why, "cmp: of a finite value with itself");
      if (s.kind(s.operand(x, 0)) == Kind::Const && s.kind(s.operand(x, 1)) == Kind::Const) {
        return fail(why, "cmp: of two constants");
      }
      return true;
    }
    case Kind::Select:
      if (!s.is_condition(s.operand(x, 0)) || s.kind(s.operand(x, 0)) == Kind::Bool) {
        return fail(why, "select: condition not an undecided condition");
      }
      if (s.operand(x, 1) == s.operand(x, 2)) return fail(why, "select: equal branches");
      return true;
  }
  return true;
}

}  // namespace racer::expr
