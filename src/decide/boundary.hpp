#pragma once
// Points on the boundaries between pieces of piecewise expressions. A kernel that writes
// x >= c where the reference has x > c differs only at x = c, which random points never
// hit; the same holds for min/max ties and abs at 0. A boundary is a pair (l, r) of numeric
// subterms whose equality is where the piece changes; for one symbol at a time, with the
// others fixed at a base point, the root of l - r is found by a secant through exactly
// evaluated probes (exact in one step when l - r is linear in that symbol), and the
// admissible values at and beside the root become candidates.
#include <span>
#include <utility>
#include <vector>

#include "decide/domain.hpp"
#include "decide/points.hpp"
#include "expr/store.hpp"

namespace racer::decide {

// Where lhs = rhs + shift.
struct Boundary {
  expr::ExprId lhs, rhs;
  mpq_class shift = 0;
};

// The boundaries under the roots, at most `limit`: comparisons, neighbouring min/max
// arguments, abs arguments against 0, a wrap's operand just past the ends of its type's range
// (an overflow). Root by root, outermost first within each, so a
// caller lists the most telling root first (the difference a - b, where the Store has
// cancelled every piecewise part the sides share).
std::vector<Boundary> find_boundaries(const expr::Store& s, std::span<const expr::ExprId> roots, size_t limit);

// Admissible values for symbol k (of src) at and on both sides of the root of lhs - rhs,
// the other symbols at `base`. Empty when no root is found.
std::vector<mpq_class> boundary_values(const expr::Store& s, const Boundary& bd, const PointSource& src,
                                       const Point& base, size_t k);

}  // namespace racer::decide
