#include "decide/integer_enumeration.hpp"

#include "expr/substitute.hpp"
#include "expr/walk.hpp"

namespace racer::decide {

bool prove_by_enumeration(expr::Store& s, expr::ExprId a, expr::ExprId b, const std::vector<expr::ExprId>& symbols,
                          const std::vector<SymbolDomain>& domains,
                          const std::function<bool(expr::ExprId, expr::ExprId)>& prove, const EnumerationOptions& options,
                          std::string& why) {
  why.clear();
  std::vector<expr::ExprId> ints;
  std::vector<std::pair<mpz_class, mpz_class>> box;
  mpz_class points = 1;
  for (size_t k = 0; k < symbols.size(); ++k) {
    const SymbolDomain& d = domains[k];
    if (d.grid != Grid::Integer) continue;
    if (!d.lo || !d.hi || d.lo->get_den() != 1 || d.hi->get_den() != 1) return false;
    ints.push_back(symbols[k]);
    box.emplace_back(d.lo->get_num(), d.hi->get_num());
    points *= box.back().second - box.back().first + 1;
    if (points > options.max_points) return false;
  }
  if (ints.empty() || points <= 0) return false;
  uint64_t nodes = 0;
  const expr::ExprId roots[] = {a, b};
  expr::any_node(s, std::span<const expr::ExprId>(roots), [&](expr::ExprId) { return ++nodes, false; });
  if (nodes * points.get_ui() > options.max_work) {
    why = "enumerating the integer inputs: " + points.get_str() + " points over " + std::to_string(nodes) + " nodes, more work than allowed";
    return false;
  }
  std::vector<mpz_class> at;
  for (auto& [lo, hi] : box) at.push_back(lo);
  for (bool more = true; more;) {
    expr::Substitution sub;
    for (size_t k = 0; k < ints.size(); ++k) sub[ints[k]] = s.constant(mpq_class(at[k]));
    expr::ExprId sa = expr::substitute(s, a, sub), sb = expr::substitute(s, b, sub);
    if (sa != sb && (s.is_condition(sa) || s.is_condition(sb) || !prove(sa, sb))) {
      std::string point;
      for (size_t k = 0; k < ints.size(); ++k) point += (k ? ", " : "") + at[k].get_str();
      why = "enumerating the integer inputs: the sides were not proved equal at (" + point + ")";
      return false;
    }
    more = false;
    for (size_t k = 0; k < at.size() && !more; ++k) {
      if (at[k] < box[k].second) ++at[k], more = true;
      else at[k] = box[k].first;
    }
  }
  return true;
}

}  // namespace racer::decide
