#include "decide/exp_multiples.hpp"

#include <map>
#include <vector>

#include "expr/substitute.hpp"
#include "expr/walk.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

namespace {

// A power exp(u/d)^k with |k| beyond this is left alone: the normal form's degrees grow with it.
constexpr long kMaxPower = 64;

// arg = q * base, base with its leading coefficient 1 (a sum's first term, a product's constant).
std::pair<mpq_class, ExprId> multiple_of(expr::Store& s, ExprId arg) {
  mpq_class q(1);
  if (s.kind(arg) == Kind::Mul) q = s.coef(arg);
  else if (s.kind(arg) == Kind::Add && s.arity(arg) > 0) q = s.weight(arg, 0);
  if (q == 0 || q == 1) return {mpq_class(1), arg};
  return {q, s.mul(s.constant(mpq_class(1) / q), arg)};
}

std::vector<ExprId> exps_in(const expr::Store& s, ExprId root) {
  std::vector<ExprId> found;
  expr::any_node(s, root, [&](ExprId x) {
    if (s.kind(x) == Kind::Func && s.func_kind(x) == expr::FuncKind::Exp && s.is_finite(s.operand(x, 0))) found.push_back(x);
    return false;
  });
  return found;
}

// One pass: true when some exps were rewritten.
bool merge_once(expr::Store& s, ExprId& x) {
  struct Member {
    ExprId node;
    mpq_class q;
  };
  std::map<uint32_t, std::vector<Member>> by_base;
  for (ExprId e : exps_in(s, x)) {
    auto [q, base] = multiple_of(s, s.operand(e, 0));
    by_base[base.index].push_back({e, q});
  }
  expr::Substitution map;
  for (auto& [base_index, members] : by_base) {
    mpz_class d(1);
    bool differ = false;
    for (const Member& m : members) {
      mpz_lcm(d.get_mpz_t(), d.get_mpz_t(), m.q.get_den_mpz_t());
      differ |= m.q != members.front().q;
    }
    if (!differ || d == 1) continue;
    bool small = true;
    for (const Member& m : members) {
      mpq_class k = m.q * d;
      small &= k.get_den() == 1 && abs(k.get_num()) <= kMaxPower;
    }
    if (!small) continue;
    ExprId atom = s.exp(s.mul(s.constant(mpq_class(1, d)), ExprId{base_index}));
    for (const Member& m : members) {
      const mpq_class k = m.q * d;
      map.emplace(m.node, s.pow_int(atom, k.get_num()));
    }
  }
  if (map.empty()) return false;
  ExprId rewritten = expr::substitute(s, x, map);
  if (rewritten == x) return false;
  x = rewritten;
  return true;
}

}  // namespace

ExprId merge_exp_multiples(expr::Store& s, ExprId x) {
  // Exps inside exps' arguments are merged first (their replacements change the outer bases).
  for (int pass = 0; pass < 4 && merge_once(s, x); ++pass) {
  }
  return x;
}

}  // namespace racer::decide
