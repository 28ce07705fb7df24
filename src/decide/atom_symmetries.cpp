// The atom normalizer's rewrites that use what a function is: sqrt(u)^2 is u, erf and sin are
// odd, cos and abs even, log increasing (so it passes through a max or a min of exps). Each is
// an identity wherever the original is defined (see atom_normalizer.hpp); none defines less.
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "decide/atom_normalizer.hpp"
#include "decide/quadratic_form.hpp"

#include <unordered_map>

namespace racer::decide {

using expr::ExprId;
using expr::FuncKind;
using expr::Kind;

namespace {

bool is_func(const expr::Store& s, ExprId x, FuncKind f) { return s.kind(x) == Kind::Func && s.func_kind(x) == f; }

// x = -y with y's leading coefficient positive: of x and -x exactly one leads with a negative
// coefficient (a product's constant, a sum's first term's weight).
bool leads_negative(const expr::Store& s, ExprId x) {
  if (s.kind(x) == Kind::Mul) return s.coef(x) < 0;
  if (s.kind(x) == Kind::Add && s.arity(x) > 0) return s.weight(x, 0) < 0;
  return false;
}

}  // namespace

std::pair<mpq_class, ExprId> scaled_factor(const expr::Store& s, ExprId x) {
  if (s.kind(x) == Kind::Mul && s.arity(x) == 1 && s.weight(x, 0) == 1) return {s.coef(x), s.operand(x, 0)};
  return {mpq_class(1), x};
}

// u^m sqrt(u)^k in one product is u^(e div 2) sqrt(u)^(e mod 2), e = 2m + k: a factor
// x / sqrt(x) meets sqrt(x), sqrt(x)^2 meets x, and 1/sqrt(x) is sqrt(x)/x. Wherever
// u^m sqrt(u)^k is defined (u >= 0, and u != 0 under a negative power) so is the result, with
// the same value; where u is infinite (a log of data may reach -inf, a quotient +inf) the
// original is undefined or is the result's infinity (sqrt(-inf) and inf * 0 are undefined),
// which is the convention's "may define more".
ExprId AtomNormalizer::sqrt_powers(ExprId product) {
  if (s_.kind(product) != Kind::Mul) return product;
  std::map<uint32_t, mpz_class> halves;  // base -> exponent of u in halves, for bases with a sqrt factor
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    ExprId f = s_.operand(product, i);
    if (s_.weight(product, i).get_den() != 1) return product;
    if (is_func(s_, f, FuncKind::Sqrt)) halves[s_.operand(f, 0).index] += s_.weight(product, i).get_num();
  }
  if (halves.empty()) return product;
  bool changes = false;
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    ExprId f = s_.operand(product, i);
    auto it = halves.find(f.index);
    if (it != halves.end()) it->second += 2 * s_.weight(product, i).get_num(), changes = true;
    if (is_func(s_, f, FuncKind::Sqrt) && s_.weight(product, i) != 1) changes = true;  // (1/sqrt(u) too: u^-1 sqrt(u))
  }
  if (!changes) return product;
  std::vector<ExprId> factors{s_.constant(s_.coef(product))};
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    ExprId f = s_.operand(product, i);
    if (is_func(s_, f, FuncKind::Sqrt) || halves.count(f.index)) continue;
    factors.push_back(s_.pow_int(f, s_.weight(product, i).get_num()));
  }
  for (const auto& [base, e] : halves) {
    mpz_class whole, odd;
    mpz_fdiv_qr_ui(whole.get_mpz_t(), odd.get_mpz_t(), e.get_mpz_t(), 2);
    factors.push_back(s_.pow_int(ExprId{base}, whole));
    if (odd != 0) factors.push_back(s_.sqrt(ExprId{base}));
  }
  return s_.mul(factors);
}

// sqrt(c u1^(2 k1) ... un^(2 kn)) = sqrt(c) |u1|^k1 ... |un|^kn for a rational square c > 0:
// sqrt(x * x) meets |x| (and x itself where x's range is at or above 0).
std::optional<ExprId> AtomNormalizer::sqrt_of_even_powers(ExprId arg) {
  if (s_.kind(arg) != Kind::Mul || s_.coef(arg) <= 0) return std::nullopt;
  const mpq_class& c = s_.coef(arg);
  if (!mpz_perfect_square_p(c.get_num_mpz_t()) || !mpz_perfect_square_p(c.get_den_mpz_t())) return std::nullopt;
  for (uint32_t i = 0; i < s_.arity(arg); ++i) {
    const mpq_class& w = s_.weight(arg, i);
    if (w.get_den() != 1 || !mpz_even_p(w.get_num_mpz_t())) return std::nullopt;
  }
  mpz_class num, den;
  mpz_sqrt(num.get_mpz_t(), c.get_num_mpz_t());
  mpz_sqrt(den.get_mpz_t(), c.get_den_mpz_t());
  std::vector<ExprId> factors{s_.constant(mpq_class(num, den))};
  for (uint32_t i = 0; i < s_.arity(arg); ++i)
    factors.push_back(s_.pow_int(abs_of(s_.operand(arg, i)), s_.weight(arg, i).get_num() / 2));
  return s_.mul(factors);
}

// For the odd erf and sin and the even cos and abs, arg's sign taken out: erf(-x) = -erf(x),
// abs(-x) = abs(x). Replaces arg by -arg where it leads negative; true where the function's
// value must then be negated.
bool AtomNormalizer::sign_taken_out(FuncKind f, ExprId& arg) {
  const bool odd = f == FuncKind::Erf || f == FuncKind::Sin, even = f == FuncKind::Cos || f == FuncKind::Abs;
  if ((!odd && !even) || !leads_negative(s_, arg)) return false;
  arg = expand(s_.neg(arg));
  return odd;
}

// log(max(p_i)) = max(log(p_i)) where every p_i is positive (an exp, a product of exps, or a
// value the symbols' ranges keep above 0): log is increasing, so a max reduction taken through
// exp and log meets the plain one; a min (-max(-x_i) after the normalizer's rewrite) the same
// way. An exp is not moved into a max: exp(max(x)) is the atom that softmax's exp(x - max(x))
// and a sigmoid or tanh of a max share.
std::optional<ExprId> AtomNormalizer::log_of_extremum(ExprId arg) {
  auto [c, m] = scaled_factor(s_, arg);  // arg = max(xs) (c = 1), or -max(-ys) = min(ys) (c = -1)
  if (s_.kind(m) != Kind::Max || (c != 1 && c != -1)) return std::nullopt;
  const int sign = c > 0 ? 1 : -1;
  std::vector<ExprId> args;  // the logs of the extremum's operands
  for (uint32_t i = 0; i < s_.arity(m); ++i) {
    ExprId v = sign > 0 ? s_.operand(m, i) : expand(s_.neg(s_.operand(m, i)));
    if (!bounds_.positive(v)) return std::nullopt;
    ExprId l = expand(log_of(v));  // (a max's operands are in their normal forms)
    args.push_back(sign > 0 ? l : expand(s_.neg(l)));
  }
  ExprId out = max_in_form(args);
  return sign > 0 ? out : s_.neg(out);
}

// log(c * prod f_i^k_i) = log(c * R) + sum k_i log(f_i) over the factors that are positive
// wherever the product's log is defined: exps (log(exp(u)) = u), square roots (positive where
// the product is, log(sqrt(u)) = log(u) / 2), and factors the symbols' ranges keep above 0. R,
// the other factors, stays under one log with c: where the original is defined c * R > 0, so
// every log taken is defined too, with the same sum.
std::optional<ExprId> AtomNormalizer::log_of_product(ExprId arg) {
  if (s_.kind(arg) != Kind::Mul || s_.coef(arg) == 0) return std::nullopt;
  std::vector<ExprId> terms, rest;
  // A sum the ranges keep below 0 is -1 times a positive one (the Store takes a sum's sign out
  // of it: 1/2 - x with x < 0 is stored as -(x - 1/2)). (A sum only: the negation of any other
  // factor is a product holding it again.)
  mpq_class coef = s_.coef(arg);
  for (uint32_t i = 0; i < s_.arity(arg); ++i) {
    ExprId f = s_.operand(arg, i);
    const mpq_class& w = s_.weight(arg, i);
    if (is_func(s_, f, FuncKind::Exp)) {
      terms.push_back(s_.mul(s_.constant(w), s_.operand(f, 0)));
    } else if (is_func(s_, f, FuncKind::Sqrt)) {
      terms.push_back(s_.mul(s_.constant(w / 2), log_of(s_.operand(f, 0))));
    } else if (bounds_.positive(f)) {
      terms.push_back(s_.mul(s_.constant(w), log_of(f)));
    } else if (const Bounds b = s_.kind(f) == Kind::Add ? bounds_.of(f) : Bounds{}; b.hi && *b.hi < 0) {
      terms.push_back(s_.mul(s_.constant(w), log_of(expand(s_.neg(f)))));
      if (mpz_odd_p(w.get_num_mpz_t())) coef = -coef;
    } else {
      rest.push_back(s_.pow_int(f, w.get_num()));
    }
  }
  if (terms.empty()) return std::nullopt;
  rest.insert(rest.begin(), s_.constant(coef));
  ExprId r = s_.mul(rest);
  if (r == s_.one()) return s_.add(terms);
  if (rest.size() == 1 && coef < 0) return std::nullopt;  // undefined everywhere: left alone
  terms.push_back(s_.log(expand(r)));  // (the rest multiplied out, as any log's argument is)
  return s_.add(terms);
}

// log(v) for v in its normal form, through the rules above.
ExprId AtomNormalizer::log_of(ExprId v) {
  if (is_func(s_, v, FuncKind::Exp)) return s_.operand(v, 0);  // (over the extended reals too)
  if (is_func(s_, v, FuncKind::Sqrt)) return s_.mul(s_.constant(mpq_class(1, 2)), log_of(s_.operand(v, 0)));
  if (auto r = log_of_extremum(v)) return *r;
  if (auto r = log_of_product(v)) return *r;
  return s_.log(v);
}

// log of a sum of fractions over their common denominator, kept a product: log(1 + e^x / (e^z S))
// = log(e^z S + e^x) - z - log(S), where the normal form would multiply e^z S out into one sum that
// log no longer takes apart (a softplus of lse - x against log(sum exp) - x). Only where the sum and
// every denominator factor are positive, so that both sides are defined at the same points.
std::optional<ExprId> AtomNormalizer::log_of_fractions(ExprId sum) {
  if (s_.kind(sum) != Kind::Add || s_.arity(sum) > limits_.max_terms) return std::nullopt;
  std::map<uint32_t, long> power;  // denominator factor -> its highest power among the terms
  for (uint32_t i = 0; i < s_.arity(sum); ++i) {
    const ExprId t = s_.operand(sum, i);
    if (s_.kind(t) != Kind::Mul) continue;
    for (uint32_t j = 0; j < s_.arity(t); ++j) {
      const mpq_class& w = s_.weight(t, j);
      if (w >= 0 || !w.get_num().fits_slong_p()) continue;
      long& k = power[s_.operand(t, j).index];
      k = std::max(k, -w.get_num().get_si());
    }
  }
  if (power.empty() || !bounds_.positive(sum)) return std::nullopt;
  std::vector<ExprId> denominator{s_.one()}, logs;
  for (auto [f, k] : power) {
    const ExprId factor{f};
    if (!bounds_.positive(factor)) return std::nullopt;
    denominator.push_back(s_.pow_int(factor, k));
    logs.push_back(s_.mul(s_.constant(-k), log_of(expand(factor))));
  }
  logs.push_back(log_of(expand(s_.mul(sum, s_.mul(denominator)))));
  return s_.add(logs);
}

// A factor exp(q log(u))^k of a product is exp(k q log(u)): taken to u^(k q) where exp_of_log
// takes that (exp(-log(x)/4)^2 = 1/sqrt(x) once log(1/sqrt(x)) is -log(x)/2). A factor
// exp(s / k)^k of a sum s with integer weights is exp(s), which the Store takes apart term by
// term as it does every such exp (exp(x/4 + y/4)^4 meets exp(x) exp(y)).
ExprId AtomNormalizer::exp_log_powers(ExprId product) {
  if (s_.kind(product) != Kind::Mul) return product;
  auto integer_sum = [&](ExprId x) {
    if (s_.kind(x) != Kind::Add || !s_.is_finite(x) || s_.coef(x).get_den() != 1) return false;
    for (uint32_t i = 0; i < s_.arity(x); ++i)
      if (s_.weight(x, i).get_den() != 1) return false;
    return true;
  };
  std::vector<ExprId> factors{s_.constant(s_.coef(product))};
  bool any = false;
  for (uint32_t i = 0; i < s_.arity(product); ++i) {
    ExprId f = s_.operand(product, i);
    const mpq_class& w = s_.weight(product, i);
    std::optional<ExprId> power;
    if (is_func(s_, f, FuncKind::Exp) && w != 1) {
      const ExprId scaled = expand(s_.mul(s_.constant(w), s_.operand(f, 0)));
      power = exp_of_log(scaled);
      if (!power && integer_sum(scaled)) power = s_.exp(scaled);
    }
    any |= power.has_value();
    factors.push_back(power ? *power : s_.pow_int(f, w.get_num()));
  }
  return any ? s_.mul(factors) : product;
}

// exp(q log(u)) for q = +-1, +-2, ... or a half of one: u^q, through sqrt(u) for the half. Equal
// wherever log(u) is defined (u >= 0; at u = 0 both are 0 for a positive q).
std::optional<ExprId> AtomNormalizer::exp_of_log(ExprId arg) {
  // exp(c + sum q_i log(u_i) + r) = prod exp(q_i log(u_i)) exp(c + r): the log of a quotient
  // taken apart (log(a / b) = log(a) - log(b)) comes back whole.
  if (s_.kind(arg) == Kind::Add && s_.is_finite(arg)) {
    std::vector<ExprId> factors, rest{s_.constant(s_.coef(arg))};
    for (uint32_t i = 0; i < s_.arity(arg); ++i) {
      ExprId term = s_.mul(s_.constant(s_.weight(arg, i)), s_.operand(arg, i));
      if (auto power = exp_of_log(term)) factors.push_back(*power);
      else rest.push_back(term);
    }
    if (factors.empty()) return std::nullopt;
    if (rest.size() > 1 || s_.coef(arg) != 0) factors.push_back(s_.exp(expand(s_.add(rest))));
    return s_.mul(factors);
  }
  auto [q, lg] = scaled_factor(s_, arg);
  if (!is_func(s_, lg, FuncKind::Log) || q == 0) return std::nullopt;
  ExprId u = s_.operand(lg, 0);
  // A negative q only where u > 0 on the whole box: at u = 0 exp(q log u) is +inf and u^q has
  // no value.
  if (q < 0 && !bounds_.positive(u)) return std::nullopt;
  const mpq_class twice = 2 * abs(q);
  if (twice.get_den() != 1 || twice.get_num() > 64) return std::nullopt;
  mpz_class whole = twice.get_num() / 2;
  ExprId power = s_.pow_int(u, whole);
  ExprId r = mpz_odd_p(twice.get_num_mpz_t()) ? s_.mul(power, s_.sqrt(u)) : power;
  return q > 0 ? r : s_.pow_int(r, -1);
}

// |u| in one form: u where the ranges keep u >= 0, -u where they keep it <= 0, else with the
// argument's sign dropped as a Func's is (abs(-x) = abs(x)).
ExprId AtomNormalizer::abs_of(ExprId u) {
  const Bounds b = bounds_.of(u);
  if (b.lo && *b.lo >= 0) return u;
  if (b.hi && *b.hi <= 0) return expand(s_.neg(u));
  sign_taken_out(FuncKind::Abs, u);
  // |select(c, t, e)| = select(c, |t|, |e|): fabsf of a where meets the where of fabsf's, and
  // each branch's sign is then read off its own range (|log(x + 3/2)| is the log itself).
  if (s_.kind(u) == Kind::Select && !s_.is_condition(s_.operand(u, 1)) && !s_.is_condition(s_.operand(u, 2)))
    return select_terms_out(s_.operand(u, 0), abs_of(s_.operand(u, 1)), abs_of(s_.operand(u, 2)));
  // |erf(v)| = erf(|v|): erf is odd and increasing (erff(fabsf(x)) meets fabsf(erff(x))).
  if (s_.kind(u) == Kind::Func && s_.func_kind(u) == FuncKind::Erf) return s_.erf(abs_of(s_.operand(u, 0)));
  return s_.abs(u);
}

// max(..., u, ..., -u, ...) = max(..., |u|, ...): an absolute value written as fmaxf(x, -x)
// (or fminf(x, -x) = -|x|, a min being the negated max of the negated operands) meets fabsf;
// so does max(S, -max(S)) where the Store flattened max(max(S), -max(S)). Then an operand
// that the symbols' ranges keep at or below another is dropped (max(-1, tanh(x)) = tanh(x)).
// Operands already in their normal forms.
std::optional<ExprId> AtomNormalizer::max_of(std::vector<ExprId> ops, const std::vector<ExprId>& unexpanded) {
  bool changed = false;
  // Pair by pair until none is left (a row's max of fmaxf(w, -w), flattened: one |w| each).
  for (bool found = true; found;) {
    found = false;
    std::unordered_map<uint32_t, size_t> at;
    for (size_t i = 0; i < ops.size(); ++i) at.emplace(ops[i].index, i);
    for (size_t i = 0; i < ops.size() && !found; ++i) {
      // Of u and -u exactly one leads negative: only those need their negation's form.
      if (!leads_negative(s_, ops[i])) continue;
      auto it = at.find(expand(s_.neg(ops[i])).index);
      if (it != at.end() && it->second != i) {
        const size_t j = it->second;
        ops[i] = abs_of(ops[i]);
        ops.erase(ops.begin() + static_cast<long>(j));
        changed = found = true;
        continue;
      }
      auto [c, m] = scaled_factor(s_, ops[i]);
      if (c != -1 || s_.kind(m) != Kind::Max) continue;
      std::vector<bool> inner(ops.size(), false);
      bool all = true;
      for (uint32_t k = 0; k < s_.arity(m) && all; ++k) {
        auto in = at.find(s_.operand(m, k).index);
        all = in != at.end() && in->second != i;
        if (all) inner[in->second] = true;
      }
      if (!all) continue;
      std::vector<ExprId> kept{abs_of(m)};
      for (size_t k = 0; k < ops.size(); ++k)
        if (k != i && !inner[k]) kept.push_back(ops[k]);
      ops = std::move(kept);
      changed = found = true;
    }
  }
  // Bounds from the operands as written where that is tighter (1 - 2/(e + 1) keeps tanh in
  // [-1, 1]; its normal form (e - 1)/(e + 1) loses that to interval arithmetic).
  std::unordered_map<uint32_t, Bounds> written;  // by the operand's normal form
  for (ExprId w : unexpanded) written.emplace(expand(w).index, bounds_.of(w));
  std::vector<Bounds> b;
  for (ExprId op : ops) {
    Bounds x = bounds_.of(op);
    if (auto it = written.find(op.index); it != written.end()) {
      const Bounds& w = it->second;
      if (w.lo && (!x.lo || *w.lo > *x.lo)) x.lo = w.lo;
      if (w.hi && (!x.hi || *w.hi < *x.hi)) x.hi = w.hi;
    }
    b.push_back(x);
  }
  // The operand of the largest lower bound (of those, the largest upper bound) stays; one whose
  // upper bound is at or below that lower bound goes.
  auto higher_hi = [](const Bounds& x, const Bounds& y) { return !x.hi ? y.hi.has_value() : y.hi && *x.hi > *y.hi; };
  std::optional<size_t> best;
  for (size_t i = 0; i < ops.size(); ++i)
    if (b[i].lo && (!best || *b[i].lo > *b[*best].lo || (*b[i].lo == *b[*best].lo && higher_hi(b[i], b[*best])))) best = i;
  std::vector<ExprId> kept;
  for (size_t i = 0; i < ops.size(); ++i)
    if (!best || i == *best || !b[i].hi || *b[i].hi > *b[*best].lo) kept.push_back(ops[i]);
  // max(q, c) = q where q - c is a positive semidefinite quadratic form in its atoms (a one-pass
  // variance clamped at 0: sqrt(max(E[x^2] - E[x]^2, 0))).
  if (kept.size() == 2)
    for (size_t i = 0; i < 2; ++i)
      if (s_.is_rational(kept[i]) && nonnegative_quadratic(s_, expand(s_.sub(kept[1 - i], kept[i])))) return kept[1 - i];
  dominated_out(kept);
  if (kept.size() == 1) return kept[0];
  if (auto out = increasing_out(kept, false)) return *out;
  // (Unchanged: the caller keeps the max as it was built, nested maxes included, which the case
  // split takes apart far more cheaply than one flat max.)
  if (!changed && kept.size() == ops.size()) return std::nullopt;
  return s_.max(kept);
}

// Drops an operand of a max that another exceeds by a difference the bounds prove positive
// (the prefixes of a sum of exps: the max of a running sum's values is its last). Pairwise, so
// only for few operands; a max of many (a row's values) has none to drop this way.
void AtomNormalizer::dominated_out(std::vector<ExprId>& ops) {
  constexpr size_t kMaxPairwise = 32;
  if (ops.size() < 2 || ops.size() > kMaxPairwise) return;
  // (Inputs apart have no proved order: ranges that do not overlap dropped them already.)
  if (std::all_of(ops.begin(), ops.end(), [&](ExprId x) { return s_.kind(x) == Kind::Symbol || s_.kind(x) == Kind::Const; })) return;
  for (size_t i = 0; i < ops.size();) {
    bool below = false;
    for (size_t j = 0; j < ops.size() && !below; ++j)
      below = j != i && s_.is_finite(ops[i]) && s_.is_finite(ops[j]) && bounds_.positive(expand(s_.sub(ops[j], ops[i])));
    if (below) ops.erase(ops.begin() + static_cast<long>(i));
    else ++i;
  }
}

// The max and the min of operands in their normal forms, through max_of's rules (a min as the
// negated max of the negated operands).
ExprId AtomNormalizer::max_in_form(const std::vector<ExprId>& ops) { return max_of(ops, ops).value_or(s_.max(ops)); }

ExprId AtomNormalizer::min_in_form(const std::vector<ExprId>& ops) {
  std::vector<ExprId> negated;
  for (ExprId op : ops) negated.push_back(expand(s_.neg(op)));
  return s_.neg(max_in_form(negated));
}

// max(f(u_1), ..., f(u_n)) = f(max(u_1, ..., u_n)) for f increasing (exp, erf, sqrt), and the
// same with min; max(-f(u_i)) = -f(min(u_i)) and min(-f(u_i)) = -f(max(u_i)): a reduction of
// exps meets the exp of the reduction, and a min written as -max(-x) the min. Where some u_i is
// outside sqrt's domain the left side has no value, so the rewrite may only define more. (log
// goes the other way, into the max, where its arguments are positive: log_of_extremum.)
std::optional<ExprId> AtomNormalizer::increasing_out(const std::vector<ExprId>& ops, bool min) {
  // exp(u): an exp, or a product of powers of exps (the Store writes exp(y - z) as exp(y) / exp(z)).
  auto exp_argument = [&](ExprId v) -> std::optional<ExprId> {
    if (is_func(s_, v, FuncKind::Exp)) return s_.operand(v, 0);
    if (s_.kind(v) != Kind::Mul || s_.coef(v) != 1) return std::nullopt;
    std::vector<ExprId> terms;
    for (uint32_t i = 0; i < s_.arity(v); ++i) {
      if (!is_func(s_, s_.operand(v, i), FuncKind::Exp)) return std::nullopt;
      terms.push_back(s_.mul(s_.constant(s_.weight(v, i)), s_.operand(s_.operand(v, i), 0)));
    }
    return expand(s_.add(terms));
  };
  auto argument = [&](ExprId v, FuncKind f) -> std::optional<ExprId> {
    if (f == FuncKind::Exp) return exp_argument(v);
    if (is_func(s_, v, f)) return s_.operand(v, 0);
    return std::nullopt;
  };
  if (ops.empty()) return std::nullopt;
  // All f(u_i) (sign 1) or all -f(u_i) (sign -1).
  const int sign = s_.kind(ops[0]) == Kind::Mul && s_.coef(ops[0]) < 0 ? -1 : 1;
  auto unsigned_of = [&](ExprId v) { return sign > 0 ? v : s_.neg(v); };
  // (Anything but a function may be a product of exps: the loop below tells.)
  const ExprId first = unsigned_of(ops[0]);
  const FuncKind f = s_.kind(first) == Kind::Func ? s_.func_kind(first) : FuncKind::Exp;
  if (f != FuncKind::Exp && f != FuncKind::Erf && f != FuncKind::Sqrt) return std::nullopt;
  std::vector<ExprId> args;
  for (ExprId op : ops) {
    std::optional<ExprId> arg = argument(unsigned_of(op), f);
    if (!arg) return std::nullopt;
    args.push_back(*arg);
  }
  // The extremum of the arguments: a min where the ops' is a min of f, or a max of -f.
  const ExprId inner = expand(min == (sign > 0) ? min_in_form(args) : max_in_form(args));
  // (The Store may write the function otherwise, exp(-m) as 1/exp(m): then as it is.)
  ExprId fn = s_.func(f, inner);
  if (s_.kind(fn) == Kind::Func) {
    std::vector<ExprId> one{s_.operand(fn, 0)};
    fn = rewrite(fn, one);
  }
  return sign > 0 ? fn : s_.neg(fn);
}

}  // namespace racer::decide
