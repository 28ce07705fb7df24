#include "decide/pairwise.hpp"

#include <cmath>
#include <optional>
#include <vector>

#include "decide/ball_eval.hpp"
#include "expr/eval.hpp"
#include "expr/substitute.hpp"

namespace racer::decide {
namespace {

using expr::ExprId;

constexpr size_t kMaxOperands = 64;

struct Operand {
  ExprId x;
  mpq_class weight;                   // a sum's coefficient, a product's exponent
  std::optional<double> value, value2;  // at the two sample points
  bool matched = false;
};

std::vector<Operand> operands(const expr::Store& st, ExprId x) {
  std::vector<Operand> out;
  for (uint32_t i = 0; i < st.arity(x); ++i) out.push_back({st.operand(x, i), st.weight(x, i), std::nullopt});
  return out;
}

// A point inside every symbol's range that is unlikely to be special for any operand (a zero
// of tanh at a range's midpoint, say): each symbol at its own irregular fraction of its range.
expr::Assignment sample_point(const std::vector<ExprId>& syms, const std::function<SymbolDomain(ExprId)>& domain_of,
                              long shift) {
  expr::Assignment at;
  for (size_t i = 0; i < syms.size(); ++i) {
    SymbolDomain d = domain_of(syms[i]);
    mpq_class frac(static_cast<long>(29 + (37 * i + shift) % 89), 97);
    mpq_class v;
    if (d.lo && d.hi) v = *d.lo + (*d.hi - *d.lo) * frac;
    else if (d.lo) v = *d.lo + frac;
    else if (d.hi) v = *d.hi - frac;
    else v = frac;
    at.set(syms[i], v);
  }
  return at;
}

// A rational with a small denominator within 1e-10 relative of r (or 0 for a tiny r), if
// there is one.
std::optional<mpq_class> small_rational(double r) {
  if (!std::isfinite(r) || std::fabs(r) > 1e12) return std::nullopt;
  if (std::fabs(r) < 1e-12) return mpq_class(0);
  for (long den = 1; den <= 1024; ++den) {
    double scaled = r * static_cast<double>(den), num = std::round(scaled);
    if (std::fabs(num - scaled) <= 1e-10 * std::fabs(scaled)) {
      mpq_class q(static_cast<long>(num), den);
      q.canonicalize();
      return q;
    }
  }
  return std::nullopt;
}

// c^n for an integer n.
std::optional<mpq_class> power(const mpq_class& c, const mpq_class& n) {
  if (n.get_den() != 1 || !n.get_num().fits_slong_p()) return std::nullopt;
  long e = n.get_num().get_si();
  unsigned long m = static_cast<unsigned long>(std::labs(e));
  if (m > 64) return std::nullopt;
  mpz_class num, den;
  mpz_pow_ui(num.get_mpz_t(), c.get_num_mpz_t(), m);
  mpz_pow_ui(den.get_mpz_t(), c.get_den_mpz_t(), m);
  mpq_class p(num, den);
  p.canonicalize();
  return e >= 0 ? p : 1 / p;
}

// Operands of two nodes of one kind (min, max) matched as multisets by `equal`.
bool same_operands(const expr::Store& st, ExprId a, ExprId b, const std::function<bool(ExprId, ExprId)>& equal) {
  uint32_t n = st.arity(a);
  if (n != st.arity(b) || n > 8) return false;
  std::vector<bool> used(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    bool found = false;
    for (uint32_t j = 0; j < n && !found; ++j)
      if (!used[j] && equal(st.operand(a, i), st.operand(b, j))) used[j] = found = true;
    if (!found) return false;
  }
  return true;
}

// f = c g + k with c and k read off the two sample points (k = 0 for a product's factors).
std::optional<std::pair<mpq_class, mpq_class>> affine_fit(const Operand& f, const Operand& g, bool product) {
  if (!f.value || !g.value || !f.value2 || !g.value2) return std::nullopt;
  if (product) {
    if (*g.value == 0) return std::nullopt;
    auto c = small_rational(*f.value / *g.value);
    if (!c || *c == 0) return std::nullopt;
    return std::pair{*c, mpq_class(0)};
  }
  double dg = *g.value - *g.value2;
  std::optional<mpq_class> c = dg == 0 ? std::optional<mpq_class>(1) : small_rational((*f.value - *f.value2) / dg);
  if (!c || *c == 0) return std::nullopt;
  std::optional<mpq_class> k = small_rational(*f.value - c->get_d() * *g.value);
  if (!k) return std::nullopt;
  return std::pair{*c, *k};
}

// Sums and products: operands paired as f = c g + k.
bool equal_operands(expr::Store& st, ExprId a, ExprId b, const std::function<SymbolDomain(ExprId)>& domain_of,
                    const std::function<bool(ExprId, ExprId)>& equal) {
  const bool product = st.kind(a) == expr::Kind::Mul;
  std::vector<Operand> fa = operands(st, a), fb = operands(st, b);
  if (fa.size() != fb.size() || fa.size() < 2 || fa.size() > kMaxOperands) return false;
  std::vector<ExprId> syms = expr::free_symbols(st, a);
  for (ExprId y : expr::free_symbols(st, b)) syms.push_back(y);
  expr::Assignment at = sample_point(syms, domain_of, 0), at2 = sample_point(syms, domain_of, 41);
  for (auto* side : {&fa, &fb})
    for (Operand& f : *side) f.value = ball_value(st, f.x, at), f.value2 = ball_value(st, f.x, at2);
  mpq_class scale = 1;   // a product's c^exponent over the matched pairs
  mpq_class offset = 0;  // a sum's weight * k over the matched pairs
  for (Operand& f : fa) {
    bool found = false;
    for (Operand& g : fb) {
      // In a product the pair's exponents must agree and c^exponent goes to the coefficient;
      // in a sum f's weight times c must be g's weight, and f's weight times k goes to the
      // constant term.
      if (g.matched || (product && g.weight != f.weight)) continue;
      auto fit = affine_fit(f, g, product);
      if (!fit || (!product && f.weight * fit->first != g.weight)) continue;
      ExprId cg = st.mul(st.constant(fit->first), g.x);
      if (!equal(f.x, fit->second == 0 ? cg : st.add(cg, st.constant(fit->second)))) continue;
      if (product) {
        std::optional<mpq_class> p = power(fit->first, f.weight);
        if (!p) return false;
        scale *= *p;
      } else {
        offset += f.weight * fit->second;
      }
      g.matched = found = true;
      break;
    }
    if (!found) return false;
  }
  // Product: a = coef(a) prod (c g)^e = coef(a) scale prod g^e, b = coef(b) prod g^e.
  // Sum: a = coef(a) + sum w (c g + k) = coef(a) + offset + sum v g, b = coef(b) + sum v g.
  return product ? st.coef(a) * scale == st.coef(b) : st.coef(a) + offset == st.coef(b);
}

}  // namespace

bool equal_pairwise(expr::Store& st, ExprId a, ExprId b, const std::function<SymbolDomain(ExprId)>& domain_of,
                    const std::function<bool(ExprId, ExprId)>& equal) {
  expr::Kind k = st.kind(a);
  if (st.kind(b) != k) return false;
  switch (k) {
    case expr::Kind::Add:
    case expr::Kind::Mul: return equal_operands(st, a, b, domain_of, equal);
    case expr::Kind::Func:
      return st.func_kind(a) == st.func_kind(b) && equal(st.operand(a, 0), st.operand(b, 0));
    case expr::Kind::Min:
    case expr::Kind::Max: return same_operands(st, a, b, equal);
    case expr::Kind::Select:
      return st.operand(a, 0) == st.operand(b, 0) && equal(st.operand(a, 1), st.operand(b, 1)) &&
             equal(st.operand(a, 2), st.operand(b, 2));
    default: return false;
  }
}

}  // namespace racer::decide
