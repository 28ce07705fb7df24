// Products: Mul{c, base -> integer exponent}. Bases are never constants, products, or
// sums with a leading weight other than 1 (that weight moves into c), so equal factors meet
// in one sorted list and merge; a lone sum times a number is distributed instead.
#include <algorithm>
#include <cassert>

#include "expr/canonical.hpp"
#include "expr/rational_ops.hpp"
#include "expr/store.hpp"
#include "support/error.hpp"

namespace racer::expr {

using detail::kFinite;
using detail::RationalTable;

struct Store::MulAcc {
  mpq_class c = 1;
  std::vector<Term> factors;  // (base, integer exponent)
  bool has_inf = false;
  bool inf_negative = false;
  bool undefined = false;
};

namespace {

// Above this exponent a sum's leading weight is not pulled out (k^e would be huge); the
// form is then merely less canonical, never wrong.
constexpr long kMaxContentExponent = 64;

mpq_class checked_pow(const mpq_class& q, const mpz_class& e) {
  std::optional<mpq_class> r = detail::rat_pow(q, e);
  if (!r) throw Error(ExitCode::Unknown, "expr: exact constant " + q.get_str() + "^" + e.get_str() + " is too large");
  return *r;
}

}  // namespace

// Multiplies x^e into the accumulator, e != 0.
void Store::collect_mul(MulAcc& acc, ExprId x, const mpz_class& e) {
  require_number(x);
  const detail::Node n = node(x);
  switch (n.kind) {
    case Kind::Const:
      switch (ConstKind(n.op)) {
        case ConstKind::Rational:
          if (rats_[n.a] == 0 && e < 0) {
            acc.undefined = true;  // 1/0 has no extended-real value (its sign is unknown)
          } else {
            acc.c *= checked_pow(rats_[n.a], e);
          }
          return;
        case ConstKind::Undefined: acc.undefined = true; return;
        case ConstKind::PosInf:
        case ConstKind::NegInf:
          if (e < 0) {
            acc.c = 0;  // 1/inf = 0 exactly; a later infinity turns this into 0 * inf
          } else {
            acc.has_inf = true;
            if (ConstKind(n.op) == ConstKind::NegInf && mpz_odd_p(e.get_mpz_t())) acc.inf_negative ^= true;
          }
          return;
      }
      return;
    case Kind::Mul: {
      if (rats_[n.a] == 0 && e < 0) {
        acc.undefined = true;  // 1/(0*s): division by zero, or by NaN
        return;
      }
      acc.c *= checked_pow(rats_[n.a], e);
      for (uint32_t i = 0; i < n.n; ++i) {
        ExprId b{pool_[n.off + 2 * i]};
        mpz_class be = rats_[pool_[n.off + 2 * i + 1]].get_num() * e;
        collect_mul(acc, b, be);
      }
      return;
    }
    case Kind::Add: {
      // Content extraction: (2x + 2y) * z and 2 * (x + y) * z must meet, so a sum used as a
      // factor is scaled to leading weight 1. Finite sums only: an infinite term's weight is
      // a sign, and dividing by it would move the infinity.
      const mpq_class& k1 = rats_[pool_[n.off + 1]];
      bool small = ::abs(e) <= kMaxContentExponent || ::abs(k1) == 1;
      if ((n.flags & kFinite) && k1 != 1 && small) {
        mpq_class k = k1;
        acc.c *= checked_pow(k, e);
        ExprId primitive = scale_add(x, 1 / k);
        acc.factors.push_back({primitive, mpq_class(e)});
        return;
      }
      break;
    }
    default:
      break;
  }
  acc.factors.push_back({x, mpq_class(e)});
}

ExprId Store::finish_mul(MulAcc& acc) {
  if (acc.undefined) return undefined_;
  auto& fs = acc.factors;
  std::sort(fs.begin(), fs.end(), [](const Term& l, const Term& r) { return l.id < r.id; });
  std::vector<ExprId> guards;
  size_t out = 0;
  for (size_t i = 0; i < fs.size();) {
    size_t j = i + 1;
    for (; j < fs.size() && fs[j].id == fs[i].id; ++j) fs[i].w += fs[j].w;
    if (fs[i].w != 0) {
      fs[out++] = std::move(fs[i]);
    } else if (!is_finite(fs[i].id)) {
      guards.push_back(fs[i].id);  // s/s is 1 only where s is finite
    }
    i = j;
  }
  fs.resize(out);

  if (acc.c == 0) {
    if (acc.has_inf) return undefined_;
    // 0 * (finite part) * (rest) is 0 where the rest is finite and NaN where it is not;
    // only which bases may be infinite, and whether they divide, still matters.
    std::vector<Term> rest;
    for (Term& f : fs) {
      if (!is_finite(f.id)) rest.push_back({f.id, mpq_class(sgn(f.w))});
    }
    for (ExprId g : guards) rest.push_back({g, mpq_class(1)});
    std::sort(rest.begin(), rest.end(), [](const Term& l, const Term& r) { return l.id < r.id; });
    size_t k = 0;
    for (size_t i = 0; i < rest.size();) {
      size_t j = i + 1;
      bool positive = rest[i].w > 0;
      for (; j < rest.size() && rest[j].id == rest[i].id; ++j) positive = positive || rest[j].w > 0;
      rest[k++] = {rest[i].id, mpq_class(positive ? 1 : -1)};
      i = j;
    }
    rest.resize(k);
    if (rest.empty()) return zero_;
    return make_mul(mpq_class(0), rest);
  }

  ExprId r;
  if (acc.has_inf) {
    // A nonzero finite coefficient only contributes its sign next to an infinity.
    bool negative = acc.inf_negative != (acc.c < 0);
    ExprId inf = negative ? neg_inf_ : pos_inf_;
    if (fs.empty()) {
      r = inf;
    } else {
      fs.push_back({inf, mpq_class(1)});
      std::sort(fs.begin(), fs.end(), [](const Term& l, const Term& rr) { return l.id < rr.id; });
      r = make_mul(mpq_class(1), fs);
    }
  } else {
    r = make_mul(acc.c, fs);
  }
  for (ExprId g : guards) r = mul(r, add(one_, mul(zero_, g)));
  return r;
}

// c * prod(factors) for sorted, merged factors with nonzero exponents.
ExprId Store::make_mul(const mpq_class& c, std::vector<Term>& factors) {
  if (factors.empty()) return constant(c);
  if (factors.size() == 1 && factors[0].w == 1) {
    ExprId base = factors[0].id;
    if (c == 1) return base;
    if (kind(base) == Kind::Add) return scale_add(base, c);  // 2*(x+y) = 2x + 2y
  }
  std::vector<uint32_t> ops;
  ops.reserve(2 * factors.size());
  bool finite = true;
  for (const Term& f : factors) {
    ops.push_back(f.id.index);
    ops.push_back(rats_.intern(f.w));
    finite = finite && is_finite(f.id);
  }
  ExprId r = intern(Kind::Mul, 0, rats_.intern(c), ops, finite ? kFinite : 0);
  assert(is_canonical(*this, r));
  return r;
}

ExprId Store::mul(ExprId a, ExprId b) {
  if (is_rational(a) && is_rational(b)) return constant(rational(a) * rational(b));
  MulAcc acc;
  collect_mul(acc, a, 1);
  collect_mul(acc, b, 1);
  return finish_mul(acc);
}

ExprId Store::mul(std::span<const ExprId> xs) {
  MulAcc acc;
  for (ExprId x : xs) collect_mul(acc, x, 1);
  return finish_mul(acc);
}

ExprId Store::div(ExprId a, ExprId b) {
  MulAcc acc;
  collect_mul(acc, a, 1);
  collect_mul(acc, b, -1);
  return finish_mul(acc);
}

ExprId Store::rebuild_mul(ExprId product, std::span<const ExprId> bases) {
  MulAcc acc;
  acc.c = coef(product);
  for (uint32_t i = 0; i < bases.size(); ++i) {
    mpz_class e = weight(product, i).get_num();
    collect_mul(acc, bases[i], e);
  }
  return finish_mul(acc);
}

ExprId Store::recip(ExprId a) { return pow_int(a, -1); }

ExprId Store::pow_int(ExprId a, long n) { return pow_int(a, mpz_class(n)); }

ExprId Store::pow_int(ExprId a, const mpz_class& n) {
  require_number(a);
  if (a == undefined_) return undefined_;
  if (n == 0) return one_;  // x^0 = 1 for every x, as pow() has it; s/s is a different thing
  if (n == 1) return a;
  MulAcc acc;
  collect_mul(acc, a, n);
  return finish_mul(acc);
}

}  // namespace racer::expr
