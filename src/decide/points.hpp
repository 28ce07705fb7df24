#pragma once
// The assignment points step 4 evaluates at. Every value is admissible for its symbol
// (on its grid, inside its range), so any refutation found is a loadable witness. Simple
// values come first because a witness x = 1/2 explains itself and x = 0.7314 does not;
// seeded pseudo-random dyadic values follow, since simple values are special (0 and 1
// hide multiplications, equal values hide swapped operands).
#include <gmpxx.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "decide/domain.hpp"
#include "expr/eval.hpp"

namespace racer::decide {

// splitmix64: small, seedable, and the same sequence on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next();
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t state_;
};

using Point = std::vector<mpq_class>;  // one value per symbol, in PointSource's order

class PointSource {
 public:
  PointSource(std::vector<expr::ExprId> symbols, std::vector<SymbolDomain> domains, uint64_t seed);

  // Non-empty when some symbol has no admissible value at all (a range between grid points).
  const std::string& impossible() const { return impossible_; }
  size_t size() const { return symbols_.size(); }
  const std::vector<expr::ExprId>& symbols() const { return symbols_; }
  const SymbolDomain& domain(size_t k) const { return domains_[k]; }
  const std::vector<SymbolDomain>& domains() const { return domains_; }

  // How many of the first points are built from simple values only.
  size_t simple_count() const { return simple_count_; }
  // The i-th point: simple points first, pseudo-random ones after.
  Point point(size_t i);

  expr::Assignment assignment(const Point& p) const;

 private:
  mpq_class random_value(size_t k);

  std::vector<expr::ExprId> symbols_;
  std::vector<SymbolDomain> domains_;
  // Per symbol: admissible simple values, simplest first. Shared between symbols of equal
  // domains (a tensor's thousands of elements have one domain).
  std::vector<const std::vector<mpq_class>*> simple_;
  std::deque<std::pair<SymbolDomain, std::vector<mpq_class>>> lists_;
  size_t simple_count_ = 0;
  std::string impossible_;
  Rng rng_;
};

}  // namespace racer::decide
