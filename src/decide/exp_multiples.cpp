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
  if (s.is_rational(arg)) return {s.rational(arg), s.one()};  // a constant: a multiple of 1
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
    // The atom is exp(g base), g the largest rational every q is an integer multiple of: the gcd
    // of the numerators over the lcm of the denominators (exp(c x) and exp(-c x) meet as exp(c x)
    // and its inverse, whatever c's denominator).
    mpz_class d(1), n(0);
    bool differ = false;
    for (const Member& m : members) {
      mpz_lcm(d.get_mpz_t(), d.get_mpz_t(), m.q.get_den_mpz_t());
      mpz_gcd(n.get_mpz_t(), n.get_mpz_t(), m.q.get_num_mpz_t());
      differ |= m.q != members.front().q;
    }
    const mpq_class g(n, d);
    // (Integer multiples of a symbolic base are powers already, exp(2x) = exp(x)^2 in the Store;
    // of constants, exp(2) and exp(1), not.)
    if (!differ || (g == 1 && base_index != s.one().index)) continue;
    bool small = true;
    for (const Member& m : members) {
      mpq_class k = m.q / g;
      small &= k.get_den() == 1 && abs(k.get_num()) <= kMaxPower;
    }
    if (!small) continue;
    ExprId atom = s.exp(s.mul(s.constant(g), ExprId{base_index}));
    for (const Member& m : members) {
      const mpq_class k = m.q / g;
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
