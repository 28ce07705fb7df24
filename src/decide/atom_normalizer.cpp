#include "decide/atom_normalizer.hpp"

#include <vector>

#include "expr/walk.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

ExprId AtomNormalizer::expand(ExprId x) {
  if (s_.is_condition(x)) return x;  // conditions are not numbers; their parts were normalized
  Kind k = s_.kind(x);
  if (k == Kind::Symbol || k == Kind::Const) return x;
  auto it = expanded_.find(x.index);
  if (it != expanded_.end()) return it->second;
  ExprId e = expanded_form(s_, x, limits_).value_or(x);
  expanded_.emplace(x.index, e);
  return e;
}

// tanh(u) = 1 - 2/(exp(2u) + 1): one family of atoms (exp) for the logistic, the
// hyperbolic tangent and their compiled variants, which are then equal as rational
// functions of exp(u).
ExprId AtomNormalizer::tanh_as_exp(ExprId u) {
  ExprId one = s_.one(), two = s_.add(one, one);
  ExprId e = s_.exp(expand(s_.add(u, u)));
  return s_.sub(one, s_.div(two, s_.add(e, one)));
}

// cos(u)^2 = 1 - sin(u)^2: even powers of cos become powers of sin, so that sin^2 + cos^2
// and its compiled forms meet 1 in the polynomial normal form.
// u where x = 2u and every coefficient of u is no larger than x's (x = 2y, 2y + 4z, ...).
std::optional<ExprId> AtomNormalizer::halved(ExprId x) {
  auto even = [](const mpq_class& q) { return q.get_den() == 1 && mpz_even_p(q.get_num_mpz_t()); };
  Kind k = s_.kind(x);
  if (k == Kind::Mul) {
    if (!even(s_.coef(x)) || s_.coef(x) == 0) return std::nullopt;
  } else if (k == Kind::Add) {
    if (!even(s_.coef(x))) return std::nullopt;
    for (uint32_t i = 0; i < s_.arity(x); ++i)
      if (!even(s_.weight(x, i))) return std::nullopt;
  } else {
    return std::nullopt;
  }
  return s_.mul(s_.constant(mpq_class(1, 2)), x);
}

ExprId AtomNormalizer::cos_squares_as_sin(ExprId product) {
  if (s_.kind(product) != Kind::Mul) return product;
  bool any = false;
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    ExprId f = s_.operand(product, i);
    const mpq_class& w = s_.weight(product, i);
    if (w.get_den() != 1) return product;
    any |= s_.kind(f) == Kind::Func && s_.func_kind(f) == expr::FuncKind::Cos && w >= 2;
  }
  if (!any) return product;
  ExprId out = s_.constant(s_.coef(product));
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    ExprId f = s_.operand(product, i);
    mpz_class w = s_.weight(product, i).get_num();
    if (s_.kind(f) == Kind::Func && s_.func_kind(f) == expr::FuncKind::Cos && w >= 2) {
      ExprId sin2 = s_.pow_int(s_.sin(s_.operand(f, 0)), 2);
      out = s_.mul(out, s_.pow_int(s_.sub(s_.one(), sin2), mpz_class(w / 2)));
      w %= 2;
    }
    out = s_.mul(out, s_.pow_int(f, w));
  }
  return out;
}

// m * (c + w1 t1 + ... + wn tn) = c m + w1 m t1 + ... + wn m tn for a monomial m (finite
// factors that are not sums, integer powers). Online softmax multiplies a running sum by
// exp(m_old - m_new); distributed, its terms become the directly summed ones, which the
// Store's flattened sums then merge, so the two sides of an attention cell mostly meet
// before any polynomial arithmetic. Exact for finite values, as the guards require.
ExprId AtomNormalizer::distribute_monomial(ExprId product) {
  if (s_.kind(product) != Kind::Mul || s_.coef(product) == 0 || !s_.is_finite(product)) return product;
  std::optional<uint32_t> sum_at;
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    ExprId f = s_.operand(product, i);
    const mpq_class& w = s_.weight(product, i);
    if (w.get_den() != 1 || !s_.is_finite(f)) return product;
    if (s_.kind(f) == Kind::Add) {
      if (w != 1 || sum_at) return product;
      sum_at = i;
    }
  }
  if (!sum_at) return product;
  ExprId sum = s_.operand(product, *sum_at);
  if (s_.arity(sum) > limits_.max_terms) return product;
  std::vector<ExprId> factors{s_.constant(s_.coef(product))};
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    if (i != *sum_at) factors.push_back(s_.pow_int(s_.operand(product, i), s_.weight(product, i).get_num()));
  }
  ExprId monomial = s_.mul(factors);
  std::vector<ExprId> terms{s_.mul(s_.constant(s_.coef(sum)), monomial)};
  for (uint32_t i = 0; i < s_.arity(sum); ++i) {
    terms.push_back(s_.mul(s_.mul(s_.constant(s_.weight(sum, i)), s_.operand(sum, i)), monomial));
  }
  return s_.add(terms);
}

ExprId AtomNormalizer::rewrite(ExprId x, std::vector<ExprId>& ops) {
  switch (s_.kind(x)) {
    case Kind::Mul: return distribute_monomial(cos_squares_as_sin(s_.rebuild(x, ops)));
    case Kind::Add: break;  // structure only: the normal form expands sums and products itself
    case Kind::Func:
      for (ExprId& op : ops) op = expand(op);
      if (s_.func_kind(x) == expr::FuncKind::Tanh) return tanh_as_exp(ops[0]);
      if (s_.func_kind(x) == expr::FuncKind::Cos || s_.func_kind(x) == expr::FuncKind::Sin) {
        if (auto half = halved(ops[0])) {
          // cos(2u) = 1 - 2 sin(u)^2, sin(2u) = 2 sin(u) cos(u): the atoms of u alone.
          ExprId su = s_.sin(*half), two = s_.add(s_.one(), s_.one());
          if (s_.func_kind(x) == expr::FuncKind::Cos) return s_.sub(s_.one(), s_.mul(two, s_.pow_int(su, 2)));
          return s_.mul(two, s_.mul(su, s_.cos(*half)));
        }
      }
      break;
    case Kind::Min:
    case Kind::Max:
    case Kind::Cmp:
    case Kind::Select:
      for (ExprId& op : ops) op = expand(op);
      break;
    default: return x;
  }
  return s_.rebuild(x, ops);
}

ExprId AtomNormalizer::normalize(ExprId root) {
  std::vector<ExprId> ops;
  auto no_leaf = [](ExprId) -> std::optional<ExprId> { return std::nullopt; };
  expr::fold_post_order(root, memo_, no_leaf, expr::AllOperands{s_}, [&](ExprId x) {
    uint32_t n = s_.arity(x);
    if (n == 0) return x;
    ops.clear();
    for (uint32_t i = 0; i < n; ++i) ops.push_back(memo_.at(s_.operand(x, i).index));
    return rewrite(x, ops);
  });
  return memo_.at(root.index);
}

}  // namespace racer::decide
