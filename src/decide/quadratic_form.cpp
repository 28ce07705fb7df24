#include "decide/quadratic_form.hpp"

#include <gmpxx.h>

#include <unordered_map>
#include <vector>

namespace racer::decide {
namespace {

using expr::ExprId;
using expr::Kind;

// A linear form over atoms: coefficient by atom (ExprId index), and the constant.
struct Linear {
  std::vector<std::pair<uint32_t, mpq_class>> terms;
  mpq_class constant = 0;
};

// A factor as a linear form: a sum of atoms of degree one (x - mean, in a variance's square)
// term by term, anything else as an atom of its own.
Linear linear_form(const expr::Store& s, ExprId f) {
  Linear l;
  if (s.kind(f) == Kind::Add) {
    bool flat = true;
    for (uint32_t i = 0; i < s.arity(f) && flat; ++i) {
      const Kind k = s.kind(s.operand(f, i));
      flat = k != Kind::Mul && k != Kind::Add && k != Kind::Const;
    }
    if (flat) {
      l.constant = s.coef(f);
      for (uint32_t i = 0; i < s.arity(f); ++i) l.terms.emplace_back(s.operand(f, i).index, s.weight(f, i));
      return l;
    }
  }
  l.terms.emplace_back(f.index, mpq_class(1));
  return l;
}

// Whether the symmetric matrix m (n x n) is positive semidefinite: elimination on the diagonal;
// a negative pivot, or a zero pivot whose row is not zero, says no.
bool positive_semidefinite(std::vector<std::vector<mpq_class>>& m) {
  const size_t n = m.size();
  for (size_t k = 0; k < n; ++k) {
    if (m[k][k] < 0) return false;
    if (m[k][k] == 0) {
      for (size_t j = k + 1; j < n; ++j)
        if (m[k][j] != 0) return false;
      continue;
    }
    for (size_t i = k + 1; i < n; ++i) {
      if (m[i][k] == 0) continue;
      const mpq_class f = m[i][k] / m[k][k];
      for (size_t j = k; j < n; ++j) m[i][j] -= f * m[k][j];
    }
  }
  return true;
}

}  // namespace

bool nonnegative_quadratic(const expr::Store& s, ExprId q, size_t max_atoms) {
  if (s.is_rational(q)) return s.rational(q) >= 0;
  // q = constant + sum_t w_t * (product of at most two linear forms).
  std::vector<std::pair<mpq_class, std::vector<Linear>>> products;
  mpq_class constant = 0;
  auto add_term = [&](const mpq_class& w, ExprId t) {
    std::vector<Linear> factors;
    mpq_class weight = w;
    if (s.kind(t) == Kind::Mul) {
      weight *= s.coef(t);
      for (uint32_t i = 0; i < s.arity(t); ++i) {
        const mpq_class& e = s.weight(t, i);
        if (e <= 0 || e.get_den() != 1 || e > 2) return false;
        for (long k = 0; k < e.get_num().get_si(); ++k) factors.push_back(linear_form(s, s.operand(t, i)));
      }
    } else {
      factors.push_back(linear_form(s, t));
    }
    if (factors.size() > 2) return false;
    products.emplace_back(weight, std::move(factors));
    return true;
  };
  if (s.kind(q) == Kind::Add) {
    constant = s.coef(q);
    for (uint32_t i = 0; i < s.arity(q); ++i)
      if (!add_term(s.weight(q, i), s.operand(q, i))) return false;
  } else if (!add_term(mpq_class(1), q)) {
    return false;
  }
  std::unordered_map<uint32_t, size_t> index;
  for (const auto& [w, fs] : products)
    for (const Linear& l : fs)
      for (const auto& [a, c] : l.terms) index.emplace(a, index.size());
  const size_t n = index.size();
  if (n > max_atoms) return false;
  // [v; 1]^T M [v; 1], the constant's slot last; a product of two linear forms l and r adds
  // w (l r^T + r l^T) / 2 over [v; 1].
  auto extended = [&](const Linear& l) {
    std::vector<std::pair<size_t, mpq_class>> e;
    for (const auto& [a, c] : l.terms) e.emplace_back(index.at(a), c);
    if (l.constant != 0) e.emplace_back(n, l.constant);
    return e;
  };
  std::vector<std::vector<mpq_class>> m(n + 1, std::vector<mpq_class>(n + 1, 0));
  m[n][n] = constant;
  for (const auto& [w, fs] : products) {
    std::vector<std::pair<size_t, mpq_class>> l = extended(fs[0]);
    std::vector<std::pair<size_t, mpq_class>> r = fs.size() == 2 ? extended(fs[1]) : std::vector<std::pair<size_t, mpq_class>>{{n, mpq_class(1)}};
    for (const auto& [i, a] : l)
      for (const auto& [j, b] : r) {
        const mpq_class h = w * a * b / 2;
        m[i][j] += h;
        m[j][i] += h;
      }
  }
  return positive_semidefinite(m);
}

}  // namespace racer::decide
