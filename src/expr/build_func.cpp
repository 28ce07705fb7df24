// Unary functions. Folds are exact identities only: a value at a point where the function is
// rational (exp(0) = 1, sqrt(9/4) = 3/2), its extended-real limits at +-inf, and symmetries.
#include "expr/rational_ops.hpp"
#include "expr/store.hpp"

namespace racer::expr {

using detail::kFinite;

namespace {

bool is_odd_function(FuncKind f) {
  return f == FuncKind::Sin || f == FuncKind::Tanh || f == FuncKind::Erf;
}

}  // namespace

ExprId Store::func(FuncKind f, ExprId a) {
  require_number(a);
  if (a == undefined_) return undefined_;

  if (is_rational(a)) {
    const mpq_class q = rational(a);
    switch (f) {
      case FuncKind::Exp:
        if (q == 0) return one_;
        break;
      case FuncKind::Log:
        if (q == 1) return zero_;
        if (q == 0) return neg_inf_;  // the limit from the right, as IEEE logf(0) has it
        if (q < 0) return undefined_;
        break;
      case FuncKind::Sqrt: {
        if (q < 0) return undefined_;
        if (std::optional<mpq_class> r = detail::exact_sqrt(q)) return constant(*r);
        break;
      }
      case FuncKind::Tanh:
      case FuncKind::Erf:
      case FuncKind::Sin:
        if (q == 0) return zero_;
        break;
      case FuncKind::Cos:
        if (q == 0) return one_;
        break;
      case FuncKind::Abs: return constant(::abs(q));
    }
  } else if (is_inf(a)) {
    bool pos = a == pos_inf_;
    switch (f) {
      case FuncKind::Exp: return pos ? pos_inf_ : zero_;
      case FuncKind::Log:
      case FuncKind::Sqrt: return pos ? pos_inf_ : undefined_;
      case FuncKind::Tanh:
      case FuncKind::Erf: return constant(pos ? 1 : -1);
      case FuncKind::Sin:
      case FuncKind::Cos: return undefined_;  // no limit
      case FuncKind::Abs: return pos_inf_;
    }
  } else {
    Kind k = kind(a);
    // log(exp(x)) = x for every real x (not for x = -inf: exp gives 0, log gives -inf; fine
    // too, but finiteness keeps the rule obviously right).
    if (f == FuncKind::Log && k == Kind::Func && func_kind(a) == FuncKind::Exp && is_finite(operand(a, 0))) {
      return operand(a, 0);
    }
    if (f == FuncKind::Abs && k == Kind::Func) {
      FuncKind g = func_kind(a);
      if (g == FuncKind::Abs || g == FuncKind::Exp || g == FuncKind::Sqrt) return a;  // already >= 0
    }
    // Pull a constant factor out where the function allows it, so f(-x) and -f(x) meet:
    // abs(c*x) = |c|*abs(x); odd f(-x) = -f(x); cos(-x) = cos(x).
    if (k == Kind::Mul && coef(a) != 0) {
      mpq_class c = coef(a);
      if (f == FuncKind::Abs && c != 1) return mul(constant(::abs(c)), abs(unit_part(a)));
      if (c < 0 && is_odd_function(f)) return neg(func(f, mul(constant(-1), a)));
      if (c < 0 && f == FuncKind::Cos) return func(f, mul(constant(-1), a));
    }
  }

  // log may reach -inf at 0, and every function of something that may be infinite or NaN may be so too.
  bool finite = is_finite(a) && f != FuncKind::Log;
  uint32_t op = a.index;
  return intern(Kind::Func, uint8_t(f), 0, std::span<const uint32_t>(&op, 1), finite ? kFinite : 0);
}

}  // namespace racer::expr
