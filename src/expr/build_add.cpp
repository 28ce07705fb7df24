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

ExprId Store::unit_part(ExprId product) {
  const detail::Node& n = node(product);
  assert(n.kind == Kind::Mul);
  if (n.n == 1 && pool_[n.off + 1] == RationalTable::kOne) return ExprId{pool_[n.off]};
  return intern(Kind::Mul, 0, RationalTable::kOne, slots(n), n.flags);
}

// Adds scale * x to the accumulator. scale may be 0: that is how a zero-weighted term of a
// sum being rebuilt comes back, and it must keep its "NaN if infinite" meaning.
void Store::collect_add(AddAcc& acc, ExprId x, const mpq_class& scale) {
  require_number(x);
  const detail::Node& n = node(x);
  switch (n.kind) {
    case Kind::Const:
      switch (ConstKind(n.op)) {
        case ConstKind::Rational: acc.c += scale * rats_[n.a]; return;
        case ConstKind::Undefined: acc.undefined = true; return;
        case ConstKind::PosInf:
        case ConstKind::NegInf: {
          if (scale == 0) {
            acc.undefined = true;  // 0 * inf
            return;
          }
          bool positive = (ConstKind(n.op) == ConstKind::PosInf) == (scale > 0);
          (positive ? acc.pos_inf : acc.neg_inf) = true;
          return;
        }
      }
      return;
    case Kind::Add: {
      acc.c += scale * rats_[n.a];
      for (uint32_t i = 0; i < n.n; ++i) {
        // Copy out of the pool first: collecting may intern and reallocate it.
        uint32_t t = pool_[n.off + 2 * i], w = pool_[n.off + 2 * i + 1];
        mpq_class sw = scale * rats_[w];
        if (is_inf(ExprId{t})) {
          collect_add(acc, ExprId{t}, sw);
        } else {
          acc.terms.push_back({ExprId{t}, std::move(sw)});
        }
      }
      return;
    }
    case Kind::Mul:
      if (n.a != RationalTable::kOne) {
        mpq_class k = scale * rats_[n.a];
        acc.terms.push_back({unit_part(x), std::move(k)});
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
  std::sort(terms.begin(), terms.end(), [](const Term& l, const Term& r) { return l.id < r.id; });
  size_t out = 0;
  for (size_t i = 0; i < terms.size();) {
    size_t j = i + 1;
    for (; j < terms.size() && terms[j].id == terms[i].id; ++j) terms[i].w += terms[j].w;
    // x - x = 0 only for finite x: for s = -inf it is NaN, which the zero weight keeps.
    if (terms[i].w != 0 || !is_finite(terms[i].id)) terms[out++] = std::move(terms[i]);
    i = j;
  }
  terms.resize(out);

  if (acc.pos_inf || acc.neg_inf) {
    // c + finite terms + inf = inf, whatever the finite part is; what is left are terms that
    // may themselves be infinite or NaN, and only their signs matter next to an infinity.
    ExprId inf = acc.pos_inf ? pos_inf_ : neg_inf_;
    std::erase_if(terms, [&](const Term& t) { return is_finite(t.id); });
    if (terms.empty()) return inf;
    for (Term& t : terms) t.w = sgn(t.w);
    terms.push_back({inf, mpq_class(1)});
    std::sort(terms.begin(), terms.end(), [](const Term& l, const Term& r) { return l.id < r.id; });
    acc.c = 0;
  }

  if (terms.empty()) return constant(acc.c);
  if (terms.size() == 1 && acc.c == 0) {
    // A lone term k*t is a product, the one canonical spelling of k*t.
    if (terms[0].w == 1) return terms[0].id;
    return mul(constant(terms[0].w), terms[0].id);
  }
  std::vector<uint32_t> ops;
  ops.reserve(2 * terms.size());
  bool finite = true;
  for (const Term& t : terms) {
    ops.push_back(t.id.index);
    ops.push_back(rats_.intern(t.w));
    finite = finite && is_finite(t.id);
  }
  ExprId r = intern(Kind::Add, 0, rats_.intern(acc.c), ops, finite ? kFinite : 0);
  assert(is_canonical(*this, r));
  return r;
}

// k * sum, without re-sorting when the sum is finite and k != 0 (scaling keeps the order).
ExprId Store::scale_add(ExprId sum, const mpq_class& k) {
  assert(kind(sum) == Kind::Add);
  if (k == 1) return sum;
  const detail::Node n = node(sum);
  if (k == 0 || !(n.flags & kFinite)) {
    AddAcc acc;
    collect_add(acc, sum, k);
    return finish_add(acc);
  }
  std::vector<uint32_t> ops(2 * size_t(n.n));
  for (uint32_t i = 0; i < n.n; ++i) {
    ops[2 * i] = pool_[n.off + 2 * i];
    ops[2 * i + 1] = rats_.intern(k * rats_[pool_[n.off + 2 * i + 1]]);
  }
  return intern(Kind::Add, 0, rats_.intern(k * rats_[n.a]), ops, n.flags);
}

ExprId Store::add(ExprId a, ExprId b) {
  if (is_rational(a) && is_rational(b)) return constant(rational(a) + rational(b));
  AddAcc acc;
  collect_add(acc, a, 1);
  collect_add(acc, b, 1);
  return finish_add(acc);
}

ExprId Store::add(std::span<const ExprId> xs) {
  AddAcc acc;
  for (ExprId x : xs) collect_add(acc, x, 1);
  return finish_add(acc);
}

ExprId Store::sub(ExprId a, ExprId b) {
  if (is_rational(a) && is_rational(b)) return constant(rational(a) - rational(b));
  AddAcc acc;
  collect_add(acc, a, 1);
  collect_add(acc, b, -1);
  return finish_add(acc);
}

ExprId Store::rebuild_add(ExprId sum, std::span<const ExprId> terms) {
  AddAcc acc;
  acc.c = coef(sum);
  for (uint32_t i = 0; i < terms.size(); ++i) {
    mpq_class w = weight(sum, i);  // a copy: collecting may grow the rational table
    collect_add(acc, terms[i], w);
  }
  return finish_add(acc);
}

ExprId Store::neg(ExprId a) { return mul(constant(-1), a); }

}  // namespace racer::expr
