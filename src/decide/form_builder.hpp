#pragma once
// Internal to the normal forms (normal_form.cpp, separated_form.cpp): an expression's atoms and
// its reduced fraction over them, built bottom-up over the DAG with one memo entry per node, so
// shared subterms are converted once; sums and products are the only interior nodes.
#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "expr/store.hpp"
#include "expr/walk.hpp"
#include "decide/frac_arith.hpp"  // last: FLINT's headers define a macro named ulong

namespace racer::decide::detail {

using expr::ExprId;
using expr::Kind;
using expr::Store;

struct NotRational {
  std::string why;
};

inline bool is_atom(const Store& s, ExprId x) {
  Kind k = s.kind(x);
  return k != Kind::Add && k != Kind::Mul && k != Kind::Const;
}

// The operands whose value matters: a zero weight or a zero coefficient is one of the
// Store's NaN guards, 0 wherever it is defined, so its operands are not visited at all.
template <class F>
void for_each_live_operand(const Store& s, ExprId x, F&& f) {
  Kind k = s.kind(x);
  if (k == Kind::Add) {
    for (uint32_t i = 0; i < s.arity(x); ++i) {
      if (s.weight(x, i) != 0) f(s.operand(x, i));
    }
  } else if (k == Kind::Mul) {
    if (s.coef(x) == 0) return;
    for (uint32_t i = 0; i < s.arity(x); ++i) f(s.operand(x, i));
  }
}

// The atoms of x, sorted by id so that variable order (and with it which monomial leads,
// hence the monic normalization) depends only on the atoms, not on the traversal.
inline std::vector<ExprId> collect_atoms(const Store& s, ExprId x) {
  std::unordered_set<uint32_t> seen{x.index};
  std::vector<ExprId> stack{x}, atoms;
  while (!stack.empty()) {
    ExprId y = stack.back();
    stack.pop_back();
    if (s.kind(y) == Kind::Const) {
      if (!s.is_rational(y)) throw NotRational{"an infinite or undefined constant"};
      continue;
    }
    if (is_atom(s, y)) {
      if (s.is_condition(y)) throw NotRational{"a condition used as a number"};
      atoms.push_back(y);
      continue;
    }
    for_each_live_operand(s, y, [&](ExprId c) {
      if (seen.insert(c.index).second) stack.push_back(c);
    });
  }
  std::sort(atoms.begin(), atoms.end());
  return atoms;
}

inline std::vector<ExprId> checked_atoms(const Store& s, ExprId x, const PolyLimits& limits) {
  std::vector<ExprId> atoms = collect_atoms(s, x);
  if (atoms.size() > limits.max_vars) {
    throw TooLarge{std::to_string(atoms.size()) + " atoms (limit " + std::to_string(limits.max_vars) + ")"};
  }
  return atoms;
}

// Declared before every polynomial so that it is cleared after them, also when the
// Builder's constructor throws.
class Context {
 public:
  // FLINT wants at least one variable; a constant expression simply does not use it.
  explicit Context(size_t nvars) { fmpq_mpoly_ctx_init(ctx_, std::max<long>(1, long(nvars)), ORD_DEGREVLEX); }
  ~Context() { fmpq_mpoly_ctx_clear(ctx_); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  const fmpq_mpoly_ctx_struct* get() const { return ctx_; }

 private:
  fmpq_mpoly_ctx_t ctx_;
};

class Builder {
 public:
  Builder(const Store& s, ExprId x, const PolyLimits& limits)
      : s_(s), atoms_(checked_atoms(s, x, limits)), ctx_(atoms_.size()), arith_(ctx_.get(), limits) {
    for (size_t i = 0; i < atoms_.size(); ++i) var_.emplace(atoms_[i].index, long(i));
    root_ = &build(x);
  }
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  const Frac& result() const { return *root_; }
  const std::vector<ExprId>& atoms() const { return atoms_; }
  const fmpq_mpoly_ctx_struct* context() const { return ctx_.get(); }

  ExprId poly_to_expr(Store& s, const Poly& p) const {
    std::vector<ExprId> terms, factors;
    std::vector<ulong> exps(atoms_.size() + 1);
    fmpq_t c;
    fmpq_init(c);
    mpq_class cq;
    for (long i = 0; i < p.length(); ++i) {
      fmpq_mpoly_get_term_coeff_fmpq(c, p.get(), i, ctx_.get());
      fmpq_get_mpq(cq.get_mpq_t(), c);
      fmpq_mpoly_get_term_exp_ui(exps.data(), p.get(), i, ctx_.get());
      factors.assign(1, s.constant(cq));
      for (size_t v = 0; v < atoms_.size(); ++v) {
        if (exps[v] != 0) factors.push_back(s.pow_int(atoms_[v], long(exps[v])));
      }
      terms.push_back(s.mul(factors));
    }
    fmpq_clear(c);
    return terms.empty() ? s.zero() : s.add(terms);
  }

 private:
  const Frac& build(ExprId root) {
    auto no_leaf = [](ExprId) -> std::optional<std::unique_ptr<Frac>> { return std::nullopt; };
    auto live = [&](ExprId x, auto push) { for_each_live_operand(s_, x, push); };
    expr::fold_post_order(root, memo_, no_leaf, live, [&](ExprId x) { return compute(x); });
    return *memo_.at(root.index);
  }

  std::unique_ptr<Frac> compute(ExprId x) {
    auto out = std::make_unique<Frac>(ctx_.get());
    FracArith& ar = arith_;
    switch (s_.kind(x)) {
      case Kind::Const: ar.set_rational(*out, s_.rational(x)); break;
      case Kind::Add:
        ar.set_rational(*out, s_.coef(x));
        for (uint32_t i = 0; i < s_.arity(x); ++i) {
          if (s_.weight(x, i) != 0) ar.add_scaled(*out, *memo_.at(s_.operand(x, i).index), s_.weight(x, i));
        }
        break;
      case Kind::Mul:
        ar.set_rational(*out, s_.coef(x));
        if (s_.coef(x) == 0) break;
        for (uint32_t i = 0; i < s_.arity(x); ++i) {
          const mpz_class& e = s_.weight(x, i).get_num();
          if (!e.fits_slong_p()) throw TooLarge{"an exponent beyond a machine word"};
          if (!ar.mul_pow(*out, *memo_.at(s_.operand(x, i).index), e.get_si())) {
            throw NotRational{"a division by an expression that is identically zero"};
          }
        }
        ar.reduce(*out);
        break;
      default: ar.set_var(*out, var_.at(x.index)); break;
    }
    return out;
  }

  const Store& s_;
  std::vector<ExprId> atoms_;
  Context ctx_;
  FracArith arith_;
  std::unordered_map<uint32_t, long> var_;
  std::unordered_map<uint32_t, std::unique_ptr<Frac>> memo_;
  const Frac* root_ = nullptr;
};

}  // namespace racer::decide::detail
