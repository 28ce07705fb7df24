// Unary functions. Folds are exact identities only: a value at a point where the function is
// rational (exp(0) = 1, sqrt(9/4) = 3/2), its extended-real limits at +-inf, and symmetries.
#include "expr/rational_ops.hpp"
#include "expr/store.hpp"

#include <optional>
#include <vector>

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
  if (is_wrap(f)) return wrap_func(f, a);

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
    // exp of a sum is a product: exp(x - m) = exp(x) * exp(m)^-1, so that softmax with and
    // without the max subtracted meet in the normal form. Terms with integer weights split
    // off; the rest (constant, fractional weights) stays one exp. Finite terms only: with
    // m = -inf, exp(m)^-1 would be 1/0 where exp(x - m) is +inf.
    // (A sum without an integer weight stays whole: nothing to build for it, which matters
    // for attention's exp(scale * (q . k)), a sum of fractional weights per key.)
    auto integer_weight = [&] {
      for (uint32_t i = 0; i < arity(a); ++i)
        if (weight(a, i).get_den() == 1) return true;
      return false;
    };
    if (f == FuncKind::Exp && k == Kind::Add && is_finite(a) && integer_weight()) {
      std::vector<ExprId> factors, rest{constant(coef(a))};
      for (uint32_t i = 0; i < arity(a); ++i) {
        const mpq_class& w = weight(a, i);
        if (w.get_den() == 1) factors.push_back(pow_int(exp(operand(a, i)), w.get_num()));
        else rest.push_back(mul(constant(w), operand(a, i)));
      }
      const ExprId rest_sum = add(rest);
      if (!factors.empty() && (factors.size() > 1 || !is_rational(rest_sum) || rational(rest_sum) != 0)) {
        if (!(is_rational(rest_sum) && rational(rest_sum) == 0)) factors.push_back(exp(rest_sum));
        return mul(factors);
      }
    }
    // exp of an integer multiple is a power: exp(-2x) = exp(x)^-2, so that exp(-x) in a
    // logistic and exp(x) elsewhere are one atom.
    if (f == FuncKind::Exp && k == Kind::Mul && is_finite(a)) {
      const mpq_class& c = coef(a);
      if (c.get_den() == 1 && c != 1) {
        ExprId unit = mul(constant(mpq_class(1) / c), a);
        return pow_int(exp(unit), c.get_num());
      }
    }
    // log of a product with exp factors: log(c * exp(u)^e * r) = e*u + log(c * r) for c > 0
    // (exp is positive, so both sides are defined exactly when c * r > 0). A sum whose terms
    // all carry the same exp factor is such a product: log(sum_i exp(x_i)/exp(m)) =
    // log(sum_i exp(x_i)) - m, which is how log-softmax with the max subtracted meets the
    // plain form.
    if (f == FuncKind::Log && is_finite(a) && (k == Kind::Mul || k == Kind::Add)) {
      auto exp_factor = [&](ExprId t, ExprId base) -> std::optional<mpq_class> {
        if (t == base) return mpq_class(1);
        if (kind(t) != Kind::Mul) return std::nullopt;
        for (uint32_t j = 0; j < arity(t); ++j)
          if (operand(t, j) == base) return weight(t, j);
        return std::nullopt;
      };
      ExprId first = k == Kind::Mul ? a : operand(a, 0);
      std::vector<ExprId> bases;
      if (kind(first) == Kind::Func && func_kind(first) == FuncKind::Exp) bases.push_back(first);
      if (kind(first) == Kind::Mul)
        for (uint32_t j = 0; j < arity(first); ++j) {
          ExprId b = operand(first, j);
          if (kind(b) == Kind::Func && func_kind(b) == FuncKind::Exp) bases.push_back(b);
        }
      for (ExprId base : bases) {
        if (!is_finite(operand(base, 0))) continue;
        auto e = exp_factor(first, base);
        if (!e || e->get_den() != 1) continue;
        ExprId stripped;
        if (k == Kind::Mul) {
          if (coef(a) <= 0) break;
          stripped = div(a, pow_int(base, e->get_num()));
        } else {
          if (coef(a) != 0) break;
          bool shared = true;
          std::vector<ExprId> terms;
          for (uint32_t i = 0; i < arity(a) && shared; ++i) {
            auto ei = exp_factor(operand(a, i), base);
            shared = ei && *ei == *e;
            if (shared) terms.push_back(mul(constant(weight(a, i)), div(operand(a, i), pow_int(base, e->get_num()))));
          }
          if (!shared) continue;
          stripped = add(terms);
        }
        return add(mul(constant(*e), operand(base, 0)), log(stripped));
      }
    }
    // log(exp(x)) = x for every real x (not for x = -inf: exp gives 0, log gives -inf; fine
    // too, but finiteness keeps the rule obviously right).
    if (f == FuncKind::Log && k == Kind::Func && func_kind(a) == FuncKind::Exp && is_finite(operand(a, 0))) {
      stands_for_routines_.insert(operand(a, 0).index);
      return operand(a, 0);
    }
    if (f == FuncKind::Abs && k == Kind::Func) {
      FuncKind g = func_kind(a);
      if (g == FuncKind::Abs || g == FuncKind::Exp || g == FuncKind::Sqrt) return a;  // already >= 0
    }
    // Pull a constant factor out where the function allows it, so f(-x) and -f(x) meet:
    // abs(c*x) = |c|*abs(x); odd f(-x) = -f(x); cos(-x) = cos(x).
    // A sum's scale too: abs(sum w_i t_i) = |w_0| abs(sum (w_i / w_0) t_i), so |x / 4| and
    // |x| / 4 meet however a program scaled its sum (the first term's weight made 1).
    if (f == FuncKind::Abs && k == Kind::Add && arity(a) > 0 && !unit_weights(a) && weight(a, 0) != 1) {
      const mpq_class w = weight(a, 0);
      return mul(constant(::abs(w)), abs(mul(constant(1 / w), a)));
    }
    if (k == Kind::Mul && coef(a) != 0) {
      mpq_class c = coef(a);
      if (f == FuncKind::Abs && c != 1) return mul(constant(::abs(c)), abs(unit_part(a)));
      if (c < 0 && is_odd_function(f)) return neg(func(f, mul(constant(-1), a)));
      if (c < 0 && f == FuncKind::Cos) return func(f, mul(constant(-1), a));
    }
  }

  // log may reach -inf at 0 (not where its argument is surely positive: log of a sum of exps),
  // and every function of something that may be infinite or NaN may be so too. A log is built
  // far less often than a comparison, and the lse of a split softmax is a sum of rows of
  // products of exps (13 rows of 24 factors: 326 nodes), so it may look further.
  bool finite = is_finite(a) && (f != FuncKind::Log || surely_positive(a, kShapeSignBudget));
  uint32_t op = a.index;
  return intern(Kind::Func, uint8_t(f), 0, std::span<const uint32_t>(&op, 1), finite ? kFinite : 0);
}

}  // namespace racer::expr
