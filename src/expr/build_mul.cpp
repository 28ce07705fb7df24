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

mpq_class checked_pow(const mpq_class& q, const mpq_class& e) {
  std::optional<mpq_class> r = detail::rat_pow(q, e.get_num());
  if (!r) throw Error(ExitCode::Unknown, "expr: exact constant " + q.get_str() + "^" + e.get_str() + " is too large");
  return *r;
}

template <class Terms>
void sort_by_id(Terms& v) {
  std::sort(v.begin(), v.end(), [](const auto& l, const auto& r) { return l.id < r.id; });
}

}  // namespace

// Multiplies x^e into the accumulator; e indexes a nonzero integer.
void Store::collect_mul(MulAcc& acc, ExprId x, uint32_t e) {
  require_number(x);
  const detail::Node n = node(x);
  bool negative_e = rat_sign(e) < 0;
  switch (n.kind) {
    case Kind::Const:
      switch (ConstKind(n.op)) {
        case ConstKind::Rational:
          if (n.a == RationalTable::kZero && negative_e) {
            acc.undefined = true;  // 1/0 has no extended-real value (its sign is unknown)
          } else {
            acc.c *= e == RationalTable::kOne ? rats_[n.a] : checked_pow(rats_[n.a], rats_[e]);
          }
          return;
        case ConstKind::Undefined: acc.undefined = true; return;
        case ConstKind::PosInf:
        case ConstKind::NegInf:
          if (negative_e) {
            acc.c = 0;  // 1/inf = 0 exactly; a later infinity turns this into 0 * inf
          } else {
            acc.has_inf = true;
            bool odd = mpz_odd_p(rats_[e].get_num_mpz_t());
            if (ConstKind(n.op) == ConstKind::NegInf && odd) acc.inf_negative = !acc.inf_negative;
          }
          return;
      }
      return;
    case Kind::Mul: {
      if (n.a == RationalTable::kZero && negative_e) {
        acc.undefined = true;  // 1/(0*s): division by zero, or by NaN
        return;
      }
      // (A unit coefficient, most products' own, costs no rational arithmetic.)
      if (n.a != RationalTable::kOne) acc.c *= e == RationalTable::kOne ? rats_[n.a] : checked_pow(rats_[n.a], rats_[e]);
      for (uint32_t i = 0; i < n.n; ++i) {
        ExprId b{term_id(n, i)};
        collect_mul(acc, b, rat_mul(term_w(n, i), e));
      }
      return;
    }
    case Kind::Add: {
      // Content extraction: (2x + 2y) * z and 2 * (x + y) * z must meet, so a sum used as a
      // factor is scaled to leading weight 1. Finite sums only: an infinite term's weight is
      // a sign, and dividing by it would move the infinity.
      uint32_t k1 = term_w(n, 0);
      bool small = ::abs(rats_[e]) <= kMaxContentExponent || ::abs(rats_[k1]) == 1;
      if ((n.flags & kFinite) && k1 != RationalTable::kOne && small) {
        mpq_class k = rats_[k1];
        acc.c *= checked_pow(k, rats_[e]);
        ExprId primitive = scale_add(x, rats_.intern(1 / k));
        acc.factors.push_back({primitive, e});
        return;
      }
      break;
    }
    default:
      break;
  }
  acc.factors.push_back({x, e});
}

ExprId Store::finish_mul(MulAcc& acc) {
  if (acc.undefined) return undefined_;
  auto& fs = acc.factors;
  sort_by_id(fs);
  std::vector<ExprId> guards;
  size_t out = 0;
  for (size_t i = 0; i < fs.size();) {
    size_t j = i + 1;
    for (; j < fs.size() && fs[j].id == fs[i].id; ++j) fs[i].w = rat_add(fs[i].w, fs[j].w);
    if (fs[i].w != RationalTable::kZero) {
      fs[out++] = fs[i];
    } else if (!is_finite(fs[i].id)) {
      guards.push_back(fs[i].id);  // s/s is 1 only where s is finite
    }
    i = j;
  }
  fs.resize(out);

  if (acc.c == 0) {
    if (acc.has_inf) return undefined_;
    // 0 * (finite part) * (rest) is 0 where the rest is finite and NaN where it is not;
    // only which bases may be infinite, and whether any of them multiplies, still matters.
    std::vector<Term> rest;
    for (const Term& f : fs) {
      if (!is_finite(f.id)) rest.push_back({f.id, rat_sign(f.w) > 0 ? RationalTable::kOne : RationalTable::kMinusOne});
    }
    for (ExprId g : guards) rest.push_back({g, RationalTable::kOne});
    sort_by_id(rest);
    size_t k = 0;
    for (size_t i = 0; i < rest.size();) {
      size_t j = i + 1;
      bool positive = rest[i].w == RationalTable::kOne;
      for (; j < rest.size() && rest[j].id == rest[i].id; ++j) positive = positive || rest[j].w == RationalTable::kOne;
      rest[k++] = {rest[i].id, positive ? RationalTable::kOne : RationalTable::kMinusOne};
      i = j;
    }
    rest.resize(k);
    if (rest.empty()) return zero_;
    return make_mul(RationalTable::kZero, rest);
  }

  ExprId r;
  if (acc.has_inf) {
    // A nonzero finite coefficient only contributes its sign next to an infinity.
    bool negative = acc.inf_negative != (acc.c < 0);
    ExprId inf = negative ? neg_inf_ : pos_inf_;
    // (So do finite factors that are surely positive: -inf / t is -inf for a temperature t > 0.)
    const bool positive_rest = std::all_of(fs.begin(), fs.end(), [&](const Term& f) { return surely_positive(f.id); });
    if (fs.empty() || positive_rest) {
      r = inf;
    } else {
      fs.push_back({inf, RationalTable::kOne});
      sort_by_id(fs);
      r = make_mul(RationalTable::kOne, fs);
    }
  } else {
    r = make_mul(rats_.intern(acc.c), fs);
  }
  for (ExprId g : guards) r = mul(r, add(one_, mul(zero_, g)));
  return r;
}

// c * prod(factors) for sorted, merged factors with nonzero exponents.
ExprId Store::make_mul(uint32_t c, std::vector<Term>& factors) {
  if (factors.empty()) return constant_at(c);
  if (factors.size() == 1 && factors[0].w == RationalTable::kOne) {
    ExprId base = factors[0].id;
    if (c == RationalTable::kOne) return base;
    if (kind(base) == Kind::Add) return scale_add(base, c);  // 2*(x+y) = 2x + 2y
  }
  std::vector<uint32_t> ops;
  ops.reserve(2 * factors.size());
  bool finite = true;
  for (const Term& f : factors) {
    ops.push_back(f.id.index);
    ops.push_back(f.w);
    finite = finite && is_finite(f.id);
  }
  ExprId r = intern(Kind::Mul, 0, c, ops, finite ? kFinite : 0);
  assert(is_canonical(*this, r));
  return r;
}

ExprId Store::rebuild_mul(ExprId product, std::span<const ExprId> bases) {
  MulAcc acc;
  acc.c = coef(product);
  const detail::Node n = node(product);
  for (uint32_t i = 0; i < bases.size(); ++i) collect_mul(acc, bases[i], term_w(n, i));
  return finish_mul(acc);
}

void Store::prefetch_product(ExprId a, ExprId b) const {
  // Only the product of two distinct plain bases, whose pairs mul interns as they are (below).
  if (a == b || !plain_base(a) || !plain_base(b)) return;
  const std::array<uint32_t, 4> ops = unit_pair(a, b);
  __builtin_prefetch(&table_[node_hash(Kind::Mul, 0, RationalTable::kOne, slots_hash(ops)) & (table_.size() - 1)]);
}

ExprId Store::mul(ExprId a, ExprId b) {
  if (is_rational(a) && is_rational(b)) return constant(rational(a) * rational(b));
  if (plain_base(a) && plain_base(b)) {
    // Two bases that collect_mul would take as they are (a product of two inputs, as every
    // step of a dot product makes): the product finish_mul would build, without its buffers.
    require_number(a), require_number(b);
    bool finite = is_finite(a) && is_finite(b);
    if (a == b) {
      const uint32_t ops[] = {a.index, rat_add(RationalTable::kOne, RationalTable::kOne)};
      return intern(Kind::Mul, 0, RationalTable::kOne, ops, finite ? kFinite : 0);
    }
    const std::array<uint32_t, 4> ops = unit_pair(a, b);
    return intern(Kind::Mul, 0, RationalTable::kOne, ops, finite ? kFinite : 0);
  }
  if (std::optional<ExprId> r = mul_one_factor(a, b)) return *r;
  if (std::optional<ExprId> r = mul_one_factor(b, a)) return *r;
  MulAcc acc;
  collect_mul(acc, a, RationalTable::kOne);
  collect_mul(acc, b, RationalTable::kOne);
  return finish_mul(acc);
}

// product * x for a finite product with a nonzero coefficient and a finite plain base x: the
// canonical result is the product's sorted factor list with x merged in at its place (an
// exponent one higher, or a new factor of exponent 1), so a factor multiplied into a product
// (attention's p * v) costs a copy instead of collecting, sorting and re-interning rationals.
// nullopt where the general path's special forms may apply (an exponent that cancels to 0).
std::optional<ExprId> Store::mul_one_factor(ExprId product, ExprId x) {
  const detail::Node n = node(product);
  if (n.kind != Kind::Mul || !(n.flags & kFinite) || n.a == RationalTable::kZero) return std::nullopt;
  if (!plain_base(x) || !is_finite(x) || is_condition(x)) return std::nullopt;
  const uint32_t pos = first_not_below(n, x.index);
  const bool merge = pos < n.n && term_id(n, pos) == x.index;
  uint32_t e = RationalTable::kOne;
  if (merge) {
    e = rat_add(term_w(n, pos), RationalTable::kOne);
    if (e == RationalTable::kZero) return std::nullopt;  // x^-1 * x: the factor goes, and with it maybe the product
  }
  ExprId r = intern(Kind::Mul, 0, n.a, pairs_with(n, pos, merge, x.index, e), kFinite);
  assert(is_canonical(*this, r));
  return r;
}

ExprId Store::mul(std::span<const ExprId> xs) {
  MulAcc acc;
  for (ExprId x : xs) collect_mul(acc, x, RationalTable::kOne);
  return finish_mul(acc);
}

ExprId Store::div(ExprId a, ExprId b) {
  MulAcc acc;
  collect_mul(acc, a, RationalTable::kOne);
  collect_mul(acc, b, RationalTable::kMinusOne);
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
  collect_mul(acc, a, rats_.intern(mpq_class(n)));
  return finish_mul(acc);
}

}  // namespace racer::expr
