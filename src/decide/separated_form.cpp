#include "decide/separated_form.hpp"

#include <unordered_map>
#include <vector>

#include "decide/form_builder.hpp"

namespace racer::decide {
namespace {

using detail::Builder;
using detail::NotRational;
using detail::Poly;
using detail::TooLarge;
using expr::ExprId;
using expr::Kind;
using expr::Store;

// Nodes visited while grouping a sum's terms by their atoms: past it the grouping costs more
// than the form it would save.
constexpr size_t kGroupingBudget = 200000;

struct Term {
  ExprId x;
  mpq_class weight;
};

class UnionFind {
 public:
  uint32_t add() {
    parent_.push_back(static_cast<uint32_t>(parent_.size()));
    return parent_.back();
  }
  uint32_t find(uint32_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(uint32_t a, uint32_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<uint32_t> parent_;
};

// The live terms of x grouped so that no atom occurs in two groups; nullopt where x is not a
// sum of two groups or more (or grouping it costs too much).
std::optional<std::vector<std::vector<Term>>> groups_of(const Store& s, ExprId x) {
  if (s.kind(x) != Kind::Add) return std::nullopt;
  std::vector<Term> terms;
  for (uint32_t i = 0; i < s.arity(x); ++i)
    if (s.weight(x, i) != 0) terms.push_back({s.operand(x, i), s.weight(x, i)});
  if (terms.size() < 2) return std::nullopt;
  UnionFind sets;
  std::unordered_map<uint32_t, uint32_t> set_of_atom;
  std::vector<uint32_t> set_of_term;
  std::unordered_map<uint32_t, bool> seen;
  std::vector<ExprId> stack;
  size_t visited = 0;
  for (const Term& t : terms) {
    const uint32_t mine = sets.add();
    set_of_term.push_back(mine);
    seen.clear();
    stack.assign(1, t.x);
    while (!stack.empty()) {
      ExprId y = stack.back();
      stack.pop_back();
      if (!seen.emplace(y.index, true).second || s.kind(y) == Kind::Const) continue;
      if (++visited > kGroupingBudget) return std::nullopt;
      if (detail::is_atom(s, y)) {
        auto [it, fresh] = set_of_atom.emplace(y.index, mine);
        if (!fresh) sets.join(it->second, mine);
        continue;
      }
      detail::for_each_live_operand(s, y, [&](ExprId c) { stack.push_back(c); });
    }
  }
  std::unordered_map<uint32_t, size_t> group_at;
  std::vector<std::vector<Term>> groups;
  for (size_t i = 0; i < terms.size(); ++i) {
    auto [it, fresh] = group_at.emplace(sets.find(set_of_term[i]), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(terms[i]);
  }
  if (groups.size() < 2) return std::nullopt;
  return groups;
}

// One group's fraction as q + r/d: its parts without q's constant term, and that constant.
struct GroupForm {
  ExprId varying;
  mpq_class constant;
  bool is_constant;
};

GroupForm group_form(Store& s, const std::vector<Term>& group, const PolyLimits& limits) {
  std::vector<ExprId> scaled;
  for (const Term& t : group) scaled.push_back(s.mul(s.constant(t.weight), t.x));
  Builder b(s, s.add(scaled), limits);
  const fmpq_mpoly_ctx_struct* ctx = b.context();
  Poly q(ctx), r(ctx);
  fmpq_mpoly_divrem(q.get(), r.get(), b.result().num.get(), b.result().den.get(), ctx);
  GroupForm out{s.zero(), mpq_class(0), r.is_zero()};
  fmpq_t c;
  fmpq_init(c);
  fmpq_mpoly_get_coeff_fmpq_ui(c, q.get(), std::vector<ulong>(b.atoms().size() + 1, 0).data(), ctx);
  fmpq_get_mpq(out.constant.get_mpq_t(), c);
  fmpq_mpoly_sub_fmpq(q.get(), q.get(), c, ctx);
  fmpq_clear(c);
  out.is_constant &= q.is_zero();
  ExprId varying = b.poly_to_expr(s, q);
  if (!r.is_zero()) varying = s.add(varying, s.div(b.poly_to_expr(s, r), b.poly_to_expr(s, b.result().den)));
  out.varying = varying;
  return out;
}

}  // namespace

std::optional<ExprId> separated_form(Store& s, ExprId x, const PolyLimits& limits) {
  auto groups = groups_of(s, x);
  if (!groups) return std::nullopt;
  try {
    mpq_class constant = s.coef(x);
    std::vector<ExprId> parts;
    for (const auto& g : *groups) {
      GroupForm f = group_form(s, g, limits);
      constant += f.constant;
      parts.push_back(f.varying);
    }
    parts.push_back(s.constant(constant));
    return s.add(parts);
  } catch (const TooLarge&) {
    return std::nullopt;
  } catch (const NotRational&) {
    return std::nullopt;
  }
}

FormResult separated_normal_form(Store& s, ExprId x, const PolyLimits& limits) {
  FormResult r;
  auto groups = groups_of(s, x);
  if (!groups) {
    r.why = "not a sum of terms over disjoint atoms";
    return r;
  }
  try {
    mpq_class constant = s.coef(x);
    bool varies = false;
    for (const auto& g : *groups) {
      GroupForm f = group_form(s, g, limits);
      constant += f.constant;
      varies |= !f.is_constant;
    }
    r.status = varies || constant != 0 ? FormStatus::NonZero : FormStatus::Zero;
  } catch (const TooLarge& e) {
    r.why = e.why;
  } catch (const NotRational& e) {
    r.status = FormStatus::NotRational;
    r.why = e.why;
  }
  return r;
}

}  // namespace racer::decide
