#include "expr/sign_bounds.hpp"

#include <algorithm>
#include <vector>

#include "expr/walk.hpp"

namespace racer::expr {
namespace {

using expr::ExprId;
using expr::FuncKind;
using expr::Kind;
using Bound = std::optional<mpq_class>;

// exp(m) <= 3^ceil(m) for m > 0 (e < 3); beyond this no bound is worth its digits.
constexpr long kMaxExpArgument = 4096;

Bound exp_upper(const mpq_class& m) {
  if (m <= 0) return mpq_class(1);
  mpz_class n = m.get_num() / m.get_den() + 1;
  if (n > kMaxExpArgument) return std::nullopt;
  mpz_class p;
  mpz_ui_pow_ui(p.get_mpz_t(), 3, n.get_ui());
  return mpq_class(p);
}

// exp(l) >= 1 + l for l >= 0, and 1 / exp(-l) otherwise.
mpq_class exp_lower(const mpq_class& l) {
  if (l >= 0) return 1 + l;
  Bound up = exp_upper(-l);
  return up ? mpq_class(1 / *up) : mpq_class(0);
}

Bounds scaled(const Bounds& b, const mpq_class& w) {
  if (w == 0) return {mpq_class(0), mpq_class(0)};
  Bounds r;
  if (b.lo) (w > 0 ? r.lo : r.hi) = w * *b.lo;
  if (b.hi) (w > 0 ? r.hi : r.lo) = w * *b.hi;
  return r;
}

Bounds product(const Bounds& a, const Bounds& b) {
  if (a.lo && a.hi && b.lo && b.hi) {
    const mpq_class c[] = {*a.lo * *b.lo, *a.lo * *b.hi, *a.hi * *b.lo, *a.hi * *b.hi};
    return {*std::min_element(std::begin(c), std::end(c)), *std::max_element(std::begin(c), std::end(c))};
  }
  if (a.lo && b.lo && *a.lo >= 0 && *b.lo >= 0) {
    Bounds r{*a.lo * *b.lo, std::nullopt};
    return r;
  }
  return {};
}

Bounds power(const Bounds& a, long k) {
  if (k == 0) return {mpq_class(1), mpq_class(1)};
  if (k > 64 || k < -64) return {};
  auto raise = [](const Bound& v, long e) -> Bound {
    if (!v) return std::nullopt;
    mpq_class r(1);
    for (long i = 0; i < e; ++i) r *= *v;
    return r;
  };
  const long e = k > 0 ? k : -k;
  Bounds p;
  if (e % 2 == 1) {
    p = {raise(a.lo, e), raise(a.hi, e)};
  } else if (a.lo && *a.lo >= 0) {
    p = {raise(a.lo, e), raise(a.hi, e)};
  } else if (a.hi && *a.hi <= 0) {
    p = {raise(a.hi, e), raise(a.lo, e)};
  } else {
    Bound m;
    if (a.lo && a.hi) m = std::max(mpq_class(-*a.lo), *a.hi);
    p = {mpq_class(0), raise(m, e)};
  }
  if (k > 0) return p;
  // 1/p where p keeps one sign; 1/(+-inf) bounds by 0.
  if (p.lo && *p.lo > 0) return {p.hi ? Bound(1 / *p.hi) : Bound(mpq_class(0)), mpq_class(1 / *p.lo)};
  if (p.hi && *p.hi < 0) return {mpq_class(1 / *p.hi), p.lo ? Bound(1 / *p.lo) : Bound(mpq_class(0))};
  return {};
}

Bound min_of(const Bound& a, const Bound& b) { return a && b ? Bound(std::min(*a, *b)) : std::nullopt; }
Bound max_of(const Bound& a, const Bound& b) { return a && b ? Bound(std::max(*a, *b)) : std::nullopt; }

}  // namespace

Bounds SignBounds::func(FuncKind f, const Bounds& u) {
  switch (f) {
    case FuncKind::Exp: return {u.lo ? exp_lower(*u.lo) : mpq_class(0), u.hi ? exp_upper(*u.hi) : std::nullopt};
    // 1 - 1/a <= log(a) <= a - 1 for a > 0.
    case FuncKind::Log: return {u.lo && *u.lo > 0 ? Bound(1 - 1 / *u.lo) : std::nullopt, u.hi ? Bound(*u.hi - 1) : std::nullopt};
    // min(a, 1) <= sqrt(a) <= max(a, 1).
    case FuncKind::Sqrt:
      return {u.lo && *u.lo > 0 ? std::min(*u.lo, mpq_class(1)) : mpq_class(0), u.hi ? Bound(std::max(*u.hi, mpq_class(1))) : std::nullopt};
    case FuncKind::Tanh:
    case FuncKind::Erf:
      return {u.lo && *u.lo >= 0 ? mpq_class(0) : mpq_class(-1), u.hi && *u.hi <= 0 ? mpq_class(0) : mpq_class(1)};
    case FuncKind::Sin:
    case FuncKind::Cos: return {mpq_class(-1), mpq_class(1)};
    case FuncKind::Abs:
      if (u.lo && *u.lo >= 0) return u;
      if (u.hi && *u.hi <= 0) return scaled(u, -1);
      return {mpq_class(0), u.lo && u.hi ? Bound(std::max(mpq_class(-*u.lo), *u.hi)) : std::nullopt};
    default: return {};
  }
}

Bounds SignBounds::compute(ExprId x) {
  switch (s_.kind(x)) {
    case Kind::Const:
      if (s_.is_rational(x)) return {s_.rational(x), s_.rational(x)};
      return {};
    case Kind::Symbol: {
      const expr::Range* r = s_.symbol_info(x).range;
      if (!r) return {};
      return {r->lo, r->hi};
    }
    case Kind::Add: {
      Bounds acc{s_.coef(x), s_.coef(x)};
      for (uint32_t i = 0; i < s_.arity(x); ++i) {
        Bounds t = scaled(memo_.at(s_.operand(x, i).index), s_.weight(x, i));
        acc.lo = acc.lo && t.lo ? Bound(*acc.lo + *t.lo) : std::nullopt;
        acc.hi = acc.hi && t.hi ? Bound(*acc.hi + *t.hi) : std::nullopt;
      }
      return acc;
    }
    case Kind::Mul: {
      Bounds acc{s_.coef(x), s_.coef(x)};
      for (uint32_t i = 0; i < s_.arity(x); ++i) {
        const mpq_class& w = s_.weight(x, i);
        if (w.get_den() != 1 || !w.get_num().fits_slong_p()) return {};
        acc = product(acc, power(memo_.at(s_.operand(x, i).index), w.get_num().get_si()));
      }
      return acc;
    }
    case Kind::Func:
      if (expr::is_wrap(s_.func_kind(x))) return {};
      return func(s_.func_kind(x), memo_.at(s_.operand(x, 0).index));
    case Kind::Max:
    case Kind::Min: {
      const bool max = s_.kind(x) == Kind::Max;
      Bounds acc = memo_.at(s_.operand(x, 0).index);
      for (uint32_t i = 1; i < s_.arity(x); ++i) {
        const Bounds& b = memo_.at(s_.operand(x, i).index);
        // max: at least each operand's lower bound, at most the largest upper bound.
        if (max) {
          acc.lo = acc.lo && b.lo ? Bound(std::max(*acc.lo, *b.lo)) : acc.lo ? acc.lo : b.lo;
          acc.hi = max_of(acc.hi, b.hi);
        } else {
          acc.hi = acc.hi && b.hi ? Bound(std::min(*acc.hi, *b.hi)) : acc.hi ? acc.hi : b.hi;
          acc.lo = min_of(acc.lo, b.lo);
        }
      }
      return acc;
    }
    case Kind::Select: {
      const Bounds& t = memo_.at(s_.operand(x, 1).index);
      const Bounds& e = memo_.at(s_.operand(x, 2).index);
      return {min_of(t.lo, e.lo), max_of(t.hi, e.hi)};
    }
    default: return {};
  }
}

Bounds SignBounds::of(ExprId root) {
  auto no_leaf = [](ExprId) -> std::optional<Bounds> { return std::nullopt; };
  expr::fold_post_order(root, memo_, no_leaf, expr::AllOperands{s_}, [&](ExprId x) { return compute(x); });
  return memo_.at(root.index);
}

bool SignBounds::positive(ExprId x) {
  if (s_.kind(x) == Kind::Func && s_.func_kind(x) == FuncKind::Exp) return true;
  if (s_.kind(x) == Kind::Mul && s_.coef(x) > 0) {
    bool all = true;
    for (uint32_t i = 0; i < s_.arity(x) && all; ++i) all = positive(s_.operand(x, i));
    if (all) return true;
  }
  // A sum of positive terms with positive weights (a running sum of exps; the difference of two
  // prefixes of one): positive whatever the ranges, which its interval may not show.
  if (s_.kind(x) == Kind::Add && s_.coef(x) >= 0 && s_.arity(x) > 0) {
    bool all = true;
    for (uint32_t i = 0; i < s_.arity(x) && all; ++i) all = s_.weight(x, i) > 0 && positive(s_.operand(x, i));
    if (all) return true;
  }
  Bounds b = of(x);
  return b.lo && *b.lo > 0;
}

}  // namespace racer::expr
