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

// A wrap's value lies in its type's range whatever its operand (rational_ops.hpp,
// wrap_value); where the operand's bounds already lie inside that range it is the operand.
Bounds SignBounds::wrapped(FuncKind f, ExprId u) {
  const unsigned bits = expr::wrap_bits(f);
  const mpz_class period = mpz_class(1) << bits;
  const mpq_class lo = expr::wrap_signed(f) ? mpq_class(-(period / 2)) : mpq_class(0);
  const Bounds& b = memo_.at(u.index);
  if (b.lo && b.hi && *b.lo >= lo && *b.hi < lo + period) return b;
  return {lo, mpq_class(lo + period - (s_.integral(u) ? 1 : 0))};
}

// Quotients u / max(..., |u|, ...) inside the product x, each bounded by 1 in magnitude (a
// value over the largest magnitude of a set it belongs to: a row's absmax scaling). u may be
// a product itself (c * y * z), whose factors x must hold with the same powers; the factors
// consumed are marked in `used`. Returns x's coefficient times the quotients' bounds.
Bounds SignBounds::normalized_ratios(ExprId x, std::vector<bool>& used) {
  Bounds acc{s_.coef(x), s_.coef(x)};
  const uint32_t n = s_.arity(x);
  auto factor_index = [&](ExprId f, const mpq_class& w) -> std::optional<uint32_t> {
    for (uint32_t i = 0; i < n; ++i)
      if (!used[i] && s_.operand(x, i) == f && s_.weight(x, i) == w) return i;
    return std::nullopt;
  };
  for (uint32_t d = 0; d < n; ++d) {
    const ExprId den = s_.operand(x, d);
    if (used[d] || s_.weight(x, d) != -1 || s_.kind(den) != Kind::Max) continue;
    // den >= 0 is enough: where x is defined den is not 0, and den >= |u| >= 0 makes it positive.
    const Bounds& db = memo_.at(den.index);
    if (!db.lo || *db.lo < 0) continue;
    for (uint32_t k = 0; k < s_.arity(den); ++k) {
      // The member: k |u| or k u with k > 0 (the Store takes a constant factor out of an abs),
      // the latter where u is never negative.
      ExprId m = s_.operand(den, k);
      mpq_class cu(1);
      if (s_.kind(m) == Kind::Mul && s_.arity(m) == 1 && s_.weight(m, 0) == 1 && s_.coef(m) > 0) {
        cu = s_.coef(m);
        m = s_.operand(m, 0);
      }
      ExprId u = m;
      if (s_.kind(m) == Kind::Func && s_.func_kind(m) == FuncKind::Abs) {
        u = s_.operand(m, 0);
      } else if (const Bounds& mb = memo_.at(m.index); !mb.lo || *mb.lo < 0) {
        continue;
      }
      // The member is cu * u = cu * (u's coefficient) * (u's factors): every factor must be
      // one of x's, not yet consumed.
      std::vector<uint32_t> taken;
      bool whole = true;
      if (s_.kind(u) == Kind::Mul) {
        cu *= s_.coef(u);
        for (uint32_t j = 0; j < s_.arity(u) && whole; ++j) {
          std::optional<uint32_t> i = factor_index(s_.operand(u, j), s_.weight(u, j));
          if (i && std::find(taken.begin(), taken.end(), *i) == taken.end()) taken.push_back(*i);
          else whole = false;
        }
      } else if (std::optional<uint32_t> i = factor_index(u, mpq_class(1))) {
        taken.push_back(*i);
      } else {
        whole = false;
      }
      if (!whole || taken.empty() || cu == 0) continue;
      for (uint32_t i : taken) used[i] = true;
      used[d] = true;
      // |cu (factors)| <= den, den > 0 where x is defined: (factors) / den in [-1/|cu|, 1/|cu|],
      // one-signed where u is (cu > 0 unless u's own coefficient is negative: the scaling flips it).
      const Bounds& ub = memo_.at(u.index);
      Bounds ratio{mpq_class(ub.lo && *ub.lo >= 0 ? 0 : -1), mpq_class(ub.hi && *ub.hi <= 0 ? 0 : 1)};
      acc = product(acc, scaled(ratio, 1 / cu));
      break;
    }
  }
  return acc;
}

// Pairs of terms w A / D - w k / D inside the sum x, D = a (max(S) - min(S)), A = min(S) or
// max(S), k one of S: w (A - k) / D, a value's offset from the set's least (or largest) over the
// set's span (asymmetric min-max scaling, a zero point and a scale), in [0, 1] in magnitude. The
// terms consumed are marked in `used`. Returns x's constant plus the pairs' bounds.
Bounds SignBounds::offsets_over_spans(ExprId x, std::vector<bool>& used) {
  Bounds acc{s_.coef(x), s_.coef(x)};
  const uint32_t n = s_.arity(x);
  // Term i as (its weight times its product's coefficient, the factor other than D, D): where
  // its operand is a product of exactly that factor and D^-1.
  struct Split {
    mpq_class w;
    ExprId other, span;
  };
  auto split = [&](uint32_t i) -> std::optional<Split> {
    const ExprId t = s_.operand(x, i);
    if (s_.kind(t) != Kind::Mul || s_.arity(t) != 2) return std::nullopt;
    for (uint32_t d = 0; d < 2; ++d)
      if (s_.weight(t, d) == -1 && s_.weight(t, 1 - d) == 1 && s_.kind(s_.operand(t, d)) == Kind::Add)
        return Split{s_.weight(x, i) * s_.coef(t), s_.operand(t, 1 - d), s_.operand(t, d)};
    return std::nullopt;
  };
  auto same_set = [&](ExprId p, ExprId q) {
    if (s_.arity(p) != s_.arity(q)) return false;
    for (uint32_t k = 0; k < s_.arity(p); ++k)
      if (s_.operand(p, k) != s_.operand(q, k)) return false;
    return true;
  };
  auto member = [&](ExprId set, ExprId k) {
    for (uint32_t j = 0; j < s_.arity(set); ++j)
      if (s_.operand(set, j) == k) return true;
    return false;
  };
  for (uint32_t i = 0; i < n; ++i) {
    std::optional<Split> e = used[i] ? std::nullopt : split(i);
    if (!e || (s_.kind(e->other) != Kind::Min && s_.kind(e->other) != Kind::Max)) continue;
    // D = a max(S) + b min(S), b = -a, over the set S of the extreme A.
    const ExprId D = e->span;
    if (s_.coef(D) != 0 || s_.arity(D) != 2 || s_.weight(D, 0) != -s_.weight(D, 1)) continue;
    std::optional<mpq_class> a;
    bool both = true;
    for (uint32_t k = 0; k < 2 && both; ++k) {
      const ExprId ext = s_.operand(D, k);
      both = (s_.kind(ext) == Kind::Min || s_.kind(ext) == Kind::Max) && same_set(ext, e->other);
      if (both && s_.kind(ext) == Kind::Max) a = s_.weight(D, k);
    }
    if (!both || !a || s_.kind(s_.operand(D, 0)) == s_.kind(s_.operand(D, 1))) continue;
    for (uint32_t j = 0; j < n; ++j) {
      std::optional<Split> f = j == i || used[j] ? std::nullopt : split(j);
      if (!f || f->span != D || f->w != -e->w || !member(e->other, f->other)) continue;
      // w (A - k) / (a (max - min)): (k - min) / (max - min) and (max - k) / (max - min) lie in [0, 1].
      const bool from_min = s_.kind(e->other) == Kind::Min;
      const mpq_class scale = (from_min ? -e->w : e->w) / *a;
      acc = {acc.lo ? Bound(*acc.lo + std::min(mpq_class(0), scale)) : std::nullopt,
             acc.hi ? Bound(*acc.hi + std::max(mpq_class(0), scale)) : std::nullopt};
      used[i] = used[j] = true;
      break;
    }
  }
  return acc;
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
      std::vector<bool> used(s_.arity(x), false);
      Bounds acc = offsets_over_spans(x, used);
      for (uint32_t i = 0; i < s_.arity(x); ++i) {
        if (used[i]) continue;
        Bounds t = scaled(memo_.at(s_.operand(x, i).index), s_.weight(x, i));
        acc.lo = acc.lo && t.lo ? Bound(*acc.lo + *t.lo) : std::nullopt;
        acc.hi = acc.hi && t.hi ? Bound(*acc.hi + *t.hi) : std::nullopt;
      }
      return acc;
    }
    case Kind::Mul: {
      std::vector<bool> used(s_.arity(x), false);
      Bounds acc = normalized_ratios(x, used);
      for (uint32_t i = 0; i < s_.arity(x); ++i) {
        if (used[i]) continue;
        const mpq_class& w = s_.weight(x, i);
        if (w.get_den() != 1 || !w.get_num().fits_slong_p()) return {};
        acc = product(acc, power(memo_.at(s_.operand(x, i).index), w.get_num().get_si()));
      }
      return acc;
    }
    case Kind::Func:
      if (expr::is_wrap(s_.func_kind(x))) return wrapped(s_.func_kind(x), s_.operand(x, 0));
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
