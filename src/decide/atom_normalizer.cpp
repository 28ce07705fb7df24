#include "decide/atom_normalizer.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

#include "decide/separated_form.hpp"
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
  // A sum over groups of disjoint atoms (sum_j sigmoid(x_j)) group by group: the same function
  // written two ways meets there, where one fraction over all groups has 2^n terms.
  std::optional<ExprId> form = separated_form(s_, x, limits_);
  if (!form) form = expanded_form(s_, x, limits_);
  ExprId e = form.value_or(x);
  expanded_.emplace(x.index, e);
  return e;
}

// tanh(u) = 1 - 2/(exp(2u) + 1): one family of atoms (exp) for the logistic, the
// hyperbolic tangent and their compiled variants, which are then equal as rational
// functions of exp(u). exp(2u) is taken as an exp atom is (exp(2 log x) = x^2: tanh(log x)
// meets (x^2 - 1) / (x^2 + 1)).
ExprId AtomNormalizer::tanh_as_exp(ExprId u) {
  ExprId one = s_.one(), two = s_.add(one, one);
  const ExprId twice = expand(s_.add(u, u));
  const std::optional<ExprId> power = exp_of_log(twice);
  ExprId e = power ? product_forms(*power) : s_.exp(twice);
  return s_.sub(one, s_.div(two, s_.add(e, one)));
}

// v where `product` is tanh(v) written out as (exp(2v) - 1) / (exp(2v) + 1), for v a max, a min or
// a select only (where tanh_in_form takes tanh inside): the hand-written form of tanh of a max meets
// tanh of the max. (Elsewhere the fraction is tanh's own normal form already.)
std::optional<ExprId> AtomNormalizer::tanh_written_out(ExprId product) {
  if (s_.kind(product) != Kind::Mul || s_.coef(product) != 1 || s_.arity(product) != 2) return std::nullopt;
  std::optional<ExprId> above, below;
  for (uint32_t i = 0; i < 2; ++i) {
    const ExprId f = s_.operand(product, i);
    const mpq_class& w = s_.weight(product, i);
    if (s_.kind(f) != Kind::Add || s_.arity(f) != 1 || s_.weight(f, 0) != 1) return std::nullopt;
    if (w == 1 && s_.coef(f) == -1) above = s_.operand(f, 0);
    else if (w == -1 && s_.coef(f) == 1) below = s_.operand(f, 0);
  }
  if (!above || !below || *above != *below) return std::nullopt;
  // exp(2v) as the Store holds it, exp(u)^k: v = k u / 2.
  ExprId e = *above;
  mpq_class k = 1;
  if (s_.kind(e) == Kind::Mul && s_.coef(e) == 1 && s_.arity(e) == 1) k = s_.weight(e, 0), e = s_.operand(e, 0);
  if (s_.kind(e) != Kind::Func || s_.func_kind(e) != expr::FuncKind::Exp || k.get_den() != 1) return std::nullopt;
  const ExprId u = s_.operand(e, 0);
  const auto [c, m] = scaled_factor(s_, u);
  const bool reduced = s_.kind(u) == Kind::Max || s_.kind(u) == Kind::Select || (c == -1 && s_.kind(m) == Kind::Max);
  if (!reduced) return std::nullopt;
  return expand(s_.mul(s_.constant(k / 2), u));
}

// tanh of a max is the max of the tanh's (tanh is increasing), of a min (-max(-u)) the min, of a
// select the select of the tanh's: one form whether a program reduced tanh's or took tanh of the
// reduction, hoisted tanh out of a where or not, or wrote tanh as its exp form by hand (whose
// fractions no rule takes back out of a max).
ExprId AtomNormalizer::tanh_in_form(ExprId u) {
  if (s_.kind(u) == Kind::Max) {
    std::vector<ExprId> ops;
    for (uint32_t i = 0; i < s_.arity(u); ++i) ops.push_back(expand(tanh_in_form(s_.operand(u, i))));
    return max_in_form(ops);
  }
  if (const auto [c, m] = scaled_factor(s_, u); c == -1 && s_.kind(m) == Kind::Max) return expand(s_.neg(tanh_in_form(m)));
  if (s_.kind(u) == Kind::Select && !s_.is_condition(u))
    return select_terms_out(s_.operand(u, 0), expand(tanh_in_form(s_.operand(u, 1))), expand(tanh_in_form(s_.operand(u, 2))));
  return tanh_as_exp(u);
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

// A comparison whose sides' difference has a sign its shape proves (exp(x) / exp(m) != 0, a
// sum of exps above 0): its truth, so that a guard such as where(s != 0, s, eps) before a log
// leaves only the branch every point takes; nullopt where the sign is not proved. (By shape
// alone: interval bounds over every comparison of two dot products cost attention 10%.)
std::optional<bool> AtomNormalizer::sign_decided(expr::CmpOp op, ExprId a, ExprId b) {
  if (!s_.is_finite(a) || !s_.is_finite(b)) return std::nullopt;
  const ExprId d = s_.sub(a, b);
  const int sign = s_.surely_positive(d) ? 1 : s_.surely_positive(s_.neg(d)) ? -1 : 0;
  if (sign == 0) return std::nullopt;
  switch (op) {
    case expr::CmpOp::Lt: return sign < 0;
    case expr::CmpOp::Le: return sign < 0;
    case expr::CmpOp::Eq: return false;
    case expr::CmpOp::Ne: return true;
    default: return std::nullopt;  // (Gt and Ge are stored swapped)
  }
}

// select(a <= b, t, e) = select(b < a, e, t) and select(a != b, t, e) = select(a == b, e, t):
// one orientation of each comparison (the order is total, so the negation is exact), so that a
// branch taken on x <= 0 meets a select on 0 < x. Then the terms both branches share leave the
// select: select(c, s + g, s) = s + select(c, g, 0), exact for finite branches (where the shared
// part is undefined, so is either branch). A sum accumulated under a data-dependent branch
// (if (x > 0) s += y) then meets the same terms summed through selects (s += x > 0 ? y : 0).
ExprId AtomNormalizer::select_terms_out(ExprId cond, ExprId t, ExprId e) {
  if (s_.kind(cond) == Kind::Cmp && (s_.cmp_op(cond) == expr::CmpOp::Le || s_.cmp_op(cond) == expr::CmpOp::Ne)) {
    const bool le = s_.cmp_op(cond) == expr::CmpOp::Le;
    ExprId a = s_.operand(cond, 0), b = s_.operand(cond, 1);
    cond = le ? s_.cmp(expr::CmpOp::Lt, b, a) : s_.cmp(expr::CmpOp::Eq, a, b);
    std::swap(t, e);
  }
  // select(p < q, q, p) = max(p, q) and select(p < q, p, q) = min(p, q) (equal at a tie): a relu
  // written as a branch or a where meets fmaxf, and a sum of them needs no case split.
  if (s_.kind(cond) == Kind::Cmp && s_.cmp_op(cond) == expr::CmpOp::Lt) {
    ExprId p = s_.operand(cond, 0), q = s_.operand(cond, 1);
    if (t == q && e == p) return max_in_form({p, q});
    if (t == p && e == q) return min_in_form({p, q});
    // select(0 < u, u, -u) = |u| and select(u < 0, -u, u) = |u| (a where written for fabsf);
    // with the branches swapped, -|u|.
    const bool above = p == s_.zero(), below = q == s_.zero();
    if ((above || below) && !s_.is_condition(t) && e == expand(s_.neg(t))) {
      const ExprId u = above ? q : p;
      if (t == u) return above ? abs_of(u) : s_.neg(abs_of(u));
      if (e == u) return above ? s_.neg(abs_of(u)) : abs_of(u);
    }
  }
  if (s_.is_condition(t) || s_.is_condition(e) || !s_.is_finite(t) || !s_.is_finite(e)) return s_.select(cond, t, e);
  // Each branch as its terms: (operand, weight), a sum's constant apart.
  auto terms_of = [&](ExprId x, std::vector<std::pair<ExprId, mpq_class>>& out) {
    if (s_.kind(x) != Kind::Add) return out.emplace_back(x, mpq_class(1)), mpq_class(0);
    for (uint32_t i = 0; i < s_.arity(x); ++i) out.emplace_back(s_.operand(x, i), s_.weight(x, i));
    return s_.coef(x);
  };
  std::vector<std::pair<ExprId, mpq_class>> in_t, in_e;
  const mpq_class ct = terms_of(t, in_t), ce = terms_of(e, in_e);
  if (in_t.size() > limits_.max_terms || in_e.size() > limits_.max_terms) return s_.select(cond, t, e);
  std::unordered_map<uint32_t, const mpq_class*> weight_in_e;
  for (const auto& [op, w] : in_e) weight_in_e.emplace(op.index, &w);
  std::vector<ExprId> shared;
  if (ct == ce && ct != 0) shared.push_back(s_.constant(ct));
  for (const auto& [op, w] : in_t) {
    auto it = weight_in_e.find(op.index);
    if (it != weight_in_e.end() && *it->second == w && !s_.is_rational(op)) shared.push_back(s_.mul(s_.constant(w), op));
  }
  if (shared.empty()) return s_.select(cond, t, e);
  ExprId common = s_.add(shared);
  return s_.add(common, s_.select(cond, s_.sub(t, common), s_.sub(e, common)));
}

// select(c, t1, e1) + select(c, t2, e2) = select(c, t1 + t2, e1 + e2): one select per condition
// in a sum, so that the difference of two selects on one comparison (nvcc selecting each operand
// of a subtraction) meets the select of the differences. Exact where the sum is defined: each
// branch of the merged select is defined where the selected branches are.
ExprId AtomNormalizer::selects_merged(ExprId sum) {
  if (s_.kind(sum) != Kind::Add || s_.arity(sum) < 2) return sum;
  std::unordered_map<uint32_t, std::vector<uint32_t>> by_condition;
  std::vector<uint32_t> order;
  bool shared = false;
  for (uint32_t i = 0; i < s_.arity(sum); ++i) {
    const ExprId op = s_.operand(sum, i);
    if (s_.kind(op) != Kind::Select || s_.is_condition(op)) continue;
    auto& terms = by_condition[s_.operand(op, 0).index];
    if (terms.empty()) order.push_back(s_.operand(op, 0).index);
    terms.push_back(i);
    shared |= terms.size() > 1;
  }
  if (!shared) return sum;
  std::vector<ExprId> terms{s_.constant(s_.coef(sum))};
  std::vector<bool> merged(s_.arity(sum), false);
  for (uint32_t c : order) {
    const std::vector<uint32_t>& at = by_condition[c];
    if (at.size() < 2) continue;
    std::vector<ExprId> taken, other;
    for (uint32_t i : at) {
      const ExprId w = s_.constant(s_.weight(sum, i)), op = s_.operand(sum, i);
      taken.push_back(s_.mul(w, s_.operand(op, 1)));
      other.push_back(s_.mul(w, s_.operand(op, 2)));
      merged[i] = true;
    }
    terms.push_back(select_terms_out(ExprId{c}, expand(s_.add(taken)), expand(s_.add(other))));
  }
  for (uint32_t i = 0; i < s_.arity(sum); ++i)
    if (!merged[i]) terms.push_back(s_.mul(s_.constant(s_.weight(sum, i)), s_.operand(sum, i)));
  return s_.add(terms);
}

ExprId AtomNormalizer::factorwise(ExprId product) {
  std::vector<ExprId> factors{s_.constant(s_.coef(product))};
  for (uint32_t i = 0; i < s_.arity(product); ++i)
    factors.push_back(s_.pow_int(expand(s_.operand(product, i)), s_.weight(product, i).get_num()));
  return s_.mul(factors);
}

ExprId AtomNormalizer::product_forms(ExprId product) {
  return distribute_monomial(cos_squares_as_sin(sqrt_powers(exp_log_powers(product))));
}

ExprId AtomNormalizer::rewrite(ExprId x, std::vector<ExprId>& ops) {
  std::vector<ExprId> written;
  switch (s_.kind(x)) {
    case Kind::Mul:
      // A factor that is a sum in its normal form: 1 - sigmoid(-x) and 1 / (1 + exp(-x)) are
      // then the same factor, and a product of n such factors needs no 2^n-term expansion.
      for (ExprId& op : ops)
        if (s_.kind(op) == Kind::Add) op = expand(op);
      if (auto v = tanh_written_out(s_.rebuild(x, ops))) return tanh_in_form(*v);
      return product_forms(s_.rebuild(x, ops));
    case Kind::Add: return selects_merged(s_.rebuild(x, ops));  // (else as built: the normal form expands sums itself)
    case Kind::Func: {
      const expr::FuncKind f = s_.func_kind(x);
      // log of a product: its factors in their normal forms, the product not multiplied out (a
      // product of sums distributed is one sum, which log no longer takes apart).
      if (f == expr::FuncKind::Log && s_.kind(ops[0]) == Kind::Mul)
        if (auto r = log_of_product(factorwise(ops[0]))) return *r;
      if (f == expr::FuncKind::Log)
        if (auto r = log_of_fractions(ops[0])) return *r;
      for (ExprId& op : ops) op = expand(op);
      if (f == expr::FuncKind::Tanh) return tanh_in_form(ops[0]);
      if (f == expr::FuncKind::Log) return log_of(ops[0]);
      if (f == expr::FuncKind::Exp)
        if (auto r = exp_of_log(ops[0])) return product_forms(*r);
      if (f == expr::FuncKind::Abs) return abs_of(ops[0]);
      if (f == expr::FuncKind::Sqrt)
        if (auto r = sqrt_of_even_powers(ops[0])) return *r;
      const bool negated = sign_taken_out(f, ops[0]);
      ExprId value = s_.rebuild(x, ops);
      if (f == expr::FuncKind::Cos || f == expr::FuncKind::Sin) {
        if (auto half = halved(ops[0])) {
          // cos(2u) = 1 - 2 sin(u)^2, sin(2u) = 2 sin(u) cos(u): the atoms of u alone.
          ExprId su = s_.sin(*half), two = s_.add(s_.one(), s_.one());
          value = f == expr::FuncKind::Cos ? s_.sub(s_.one(), s_.mul(two, s_.pow_int(su, 2))) : s_.mul(two, s_.mul(su, s_.cos(*half)));
        }
      }
      return negated ? s_.neg(value) : value;
    }
    case Kind::Min:
      // min(x1, ..., xn) = -max(-x1, ..., -xn): one of the two, so that a minimum taken over
      // negated values (a max reduction written as -min(-x)) meets the maximum.
      for (ExprId op : ops) written.push_back(s_.neg(op));
      for (ExprId& op : ops) op = expand(op);
      if (auto out = increasing_out(ops, true)) return *out;
      for (ExprId& op : ops) op = expand(s_.neg(op));
      return s_.neg(max_of(ops, written).value_or(s_.max(ops)));
    case Kind::Max:
      written = ops;
      for (ExprId& op : ops) op = expand(op);
      if (auto r = max_of(ops, written)) return *r;
      break;
    case Kind::Cmp:
      for (ExprId& op : ops) op = expand(op);
      if (auto decided = sign_decided(s_.cmp_op(x), ops[0], ops[1])) return *decided ? s_.true_value() : s_.false_value();
      break;
    case Kind::Select:
      for (ExprId& op : ops) op = expand(op);
      return select_terms_out(ops[0], ops[1], ops[2]);
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
