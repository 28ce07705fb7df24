// Sums: Add{c, term -> weight}. Terms are never constants, sums, or products with a
// coefficient other than 1 (the coefficient moves into the weight), so like terms meet
// in one sorted list and merge.
#include <algorithm>
#include <cassert>

#include "expr/canonical.hpp"
#include "expr/store.hpp"

namespace racer::expr {

using detail::kFinite;
using detail::RationalTable;

struct Store::AddAcc {
  mpq_class c = 0;
  std::vector<Term> terms;
  bool pos_inf = false;
  bool neg_inf = false;
  bool undefined = false;
};

namespace {

template <class Terms>
void sort_by_id(Terms& v) {
  std::sort(v.begin(), v.end(), [](const auto& l, const auto& r) { return l.id < r.id; });
}

}  // namespace

ExprId Store::unit_part(ExprId product) {
  const detail::Node& n = node(product);
  assert(n.kind == Kind::Mul);
  if (n.n == 1 && term_w(n, 0) == RationalTable::kOne) return ExprId{term_id(n, 0)};
  // (The same slots as stored: shared, not copied.)
  return intern_stored(Kind::Mul, 0, RationalTable::kOne, n.n, slots(n), n.unit, slot_sums_[product.index], n.flags);
}

// Adds scale * x to the accumulator. scale may be 0: that is how a zero-weighted term of a
// sum being rebuilt comes back, and it must keep its "NaN if infinite" meaning.
void Store::collect_add(AddAcc& acc, ExprId x, uint32_t scale) {
  require_number(x);
  const detail::Node n = node(x);
  switch (n.kind) {
    case Kind::Const:
      switch (ConstKind(n.op)) {
        case ConstKind::Rational: acc.c += rats_[scale] * rats_[n.a]; return;
        case ConstKind::Undefined: acc.undefined = true; return;
        case ConstKind::PosInf:
        case ConstKind::NegInf: {
          if (scale == RationalTable::kZero) {
            acc.undefined = true;  // 0 * inf
            return;
          }
          bool positive = (ConstKind(n.op) == ConstKind::PosInf) == (rat_sign(scale) > 0);
          (positive ? acc.pos_inf : acc.neg_inf) = true;
          return;
        }
      }
      return;
    case Kind::Add: {
      acc.c += rats_[scale] * rats_[n.a];
      for (uint32_t i = 0; i < n.n; ++i) {
        ExprId t{term_id(n, i)};
        uint32_t w = rat_mul(scale, term_w(n, i));
        if (is_inf(t)) {
          collect_add(acc, t, w);
        } else {
          acc.terms.push_back({t, w});
        }
      }
      return;
    }
    case Kind::Mul:
      if (n.a != RationalTable::kOne) {
        uint32_t w = rat_mul(scale, n.a);
        acc.terms.push_back({unit_part(x), w});
        return;
      }
      break;
    default:
      break;
  }
  acc.terms.push_back({x, scale});
}

ExprId Store::finish_add(AddAcc& acc) {
  if (acc.undefined || (acc.pos_inf && acc.neg_inf)) return undefined_;
  auto& terms = acc.terms;
  sort_by_id(terms);
  size_t out = 0;
  for (size_t i = 0; i < terms.size();) {
    size_t j = i + 1;
    for (; j < terms.size() && terms[j].id == terms[i].id; ++j) terms[i].w = rat_add(terms[i].w, terms[j].w);
    // x - x = 0 only for finite x: for s = -inf it is NaN, which the zero weight keeps.
    if (terms[i].w != RationalTable::kZero || !is_finite(terms[i].id)) terms[out++] = terms[i];
    i = j;
  }
  terms.resize(out);

  if (acc.pos_inf || acc.neg_inf) {
    // c + finite terms + inf = inf, whatever the finite part is; what is left are terms that
    // may themselves be infinite or NaN, and only their signs matter next to an infinity.
    ExprId inf = acc.pos_inf ? pos_inf_ : neg_inf_;
    std::erase_if(terms, [&](const Term& t) { return is_finite(t.id); });
    if (terms.empty()) return inf;
    for (Term& t : terms) {
      int sg = rat_sign(t.w);
      t.w = sg > 0 ? RationalTable::kOne : sg < 0 ? RationalTable::kMinusOne : RationalTable::kZero;
    }
    terms.push_back({inf, RationalTable::kOne});
    sort_by_id(terms);
    acc.c = 0;
  }

  if (terms.empty()) return constant(acc.c);
  if (terms.size() == 1 && acc.c == 0) {
    // A lone term k*t is a product, the one canonical spelling of k*t.
    if (terms[0].w == RationalTable::kOne) return terms[0].id;
    return mul(constant_at(terms[0].w), terms[0].id);
  }
  std::vector<uint32_t> ops;
  ops.reserve(2 * terms.size());
  bool finite = true;
  for (const Term& t : terms) {
    ops.push_back(t.id.index);
    ops.push_back(t.w);
    finite = finite && is_finite(t.id);
  }
  ExprId r = intern(Kind::Add, 0, rats_.intern(acc.c), ops, finite ? kFinite : 0);
  assert(is_canonical(*this, r));
  return r;
}

// k * sum, without re-sorting when the sum is finite and k != 0 (scaling keeps the order).
ExprId Store::scale_add(ExprId sum, uint32_t k) {
  assert(kind(sum) == Kind::Add);
  if (k == RationalTable::kOne) return sum;
  const detail::Node n = node(sum);
  if (k == RationalTable::kZero || !(n.flags & kFinite)) {
    AddAcc acc;
    collect_add(acc, sum, k);
    return finish_add(acc);
  }
  std::vector<uint32_t> ops(2 * size_t(n.n));
  for (uint32_t i = 0; i < n.n; ++i) {
    ops[2 * i] = term_id(n, i);
    ops[2 * i + 1] = rat_mul(k, term_w(n, i));
  }
  return intern(Kind::Add, 0, rat_mul(k, n.a), ops, n.flags);
}

ExprId Store::rebuild_add(ExprId sum, std::span<const ExprId> terms) {
  AddAcc acc;
  acc.c = coef(sum);
  const detail::Node n = node(sum);
  for (uint32_t i = 0; i < terms.size(); ++i) collect_add(acc, terms[i], term_w(n, i));
  return finish_add(acc);
}

// sum + x for a finite sum and one finite term that is neither a sum nor a constant: the
// canonical result is the sum's sorted term list with x merged in at its place, so a dot
// product accumulated term by term costs a copy per step instead of a sort and rational
// arithmetic on every term. nullopt where the general path's special forms may apply.
std::optional<ExprId> Store::add_one_term(ExprId sum, ExprId x) {
  const detail::Node n = node(sum);
  if (n.kind != Kind::Add || !(n.flags & kFinite) || !is_finite(x)) return std::nullopt;
  Kind kx = kind(x);
  if (kx == Kind::Add || kx == Kind::Const || is_condition(x)) return std::nullopt;
  uint32_t w = RationalTable::kOne;
  ExprId term = x;
  if (kx == Kind::Mul && node(x).a != RationalTable::kOne) {
    w = node(x).a;
    if (w == RationalTable::kZero) return std::nullopt;  // a NaN guard, kept by the general path
    term = unit_part(x);
  }
  const uint32_t pos = first_not_below(n, term.index);
  if (pos == n.n) return append_term(sum, term.index, w);
  // The terms as pairs, term merged in at pos (intern stores them as ids where all weights are 1).
  const bool merge = term_id(n, pos) == term.index;
  if (merge) {
    w = rat_add(term_w(n, pos), w);  // may move rats_, never pool_
    if (w == RationalTable::kZero && n.n <= 2) return std::nullopt;  // a lone term or a constant is left
  }
  ExprId r = intern(Kind::Add, 0, n.a, pairs_with(n, pos, merge, term.index, w), kFinite);
  assert(is_canonical(*this, r));
  return r;
}

// A term collect_add keeps whole with weight 1: finite, neither a constant, a sum, nor a
// product with a coefficient other than 1.
bool Store::plain_term(ExprId x) const {
  const detail::Node& n = node(x);
  if (!(n.flags & kFinite) || (n.flags & detail::kBoolean)) return false;
  if (n.kind == Kind::Const || n.kind == Kind::Add) return false;
  return n.kind != Kind::Mul || n.a == RationalTable::kOne;
}

ExprId Store::add(ExprId a, ExprId b) {
  if (is_rational(a) && is_rational(b)) return constant(rational(a) + rational(b));
  if (a != b && plain_term(a) && plain_term(b)) {
    // Two distinct plain terms (an elementwise a + b): the sum finish_add would build, without
    // its buffers and rational arithmetic.
    const std::array<uint32_t, 4> ops = unit_pair(a, b);
    ExprId r = intern(Kind::Add, 0, RationalTable::kZero, ops, kFinite);
    assert(is_canonical(*this, r));
    return r;
  }
  if (std::optional<ExprId> r = add_one_term(a, b)) return *r;
  if (std::optional<ExprId> r = add_one_term(b, a)) return *r;
  AddAcc acc;
  collect_add(acc, a, RationalTable::kOne);
  collect_add(acc, b, RationalTable::kOne);
  return finish_add(acc);
}

ExprId Store::add(std::span<const ExprId> xs) {
  AddAcc acc;
  for (ExprId x : xs) collect_add(acc, x, RationalTable::kOne);
  return finish_add(acc);
}

ExprId Store::sub(ExprId a, ExprId b) {
  if (is_rational(a) && is_rational(b)) return constant(rational(a) - rational(b));
  AddAcc acc;
  collect_add(acc, a, RationalTable::kOne);
  collect_add(acc, b, RationalTable::kMinusOne);
  return finish_add(acc);
}

ExprId Store::neg(ExprId a) { return mul(constant_at(RationalTable::kMinusOne), a); }

}  // namespace racer::expr
