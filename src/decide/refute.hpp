#pragma once
// Step 4: the search for a witness. Both sides are evaluated exactly at admissible points
// (points.hpp): the simple points, then points on the boundaries of the pieces of piecewise
// subterms (boundary.hpp), then seeded random points. A point where either side is
// undefined is skipped; one where a side is irrational goes to ball arithmetic
// (ball_eval.hpp) when the sides contain functions that can produce irrationals.
#include <gmpxx.h>

#include <optional>

#include "decide/points.hpp"
#include "expr/store.hpp"

namespace racer::decide {

struct SearchOptions {
  size_t points = 24;
  size_t boundary_points = 64;
  bool balls = true;
  // Ball evaluations on the random points (after at most as many on the simple and boundary
  // points). The decider raises it where the normal form showed the sides differ as functions.
  size_t random_ball_points = 6;
  // Random points only (no simple or boundary points): a quick look before costlier steps.
  bool random_only = false;
};

struct Refutation {
  Point point;  // in the PointSource's symbol order
  mpq_class value_a, value_b;
  bool by_balls = false;  // values are ball midpoints, not exact values
  long precision = 0;     // by_balls: the bits that separated them
  // +1/-1 where that side is an infinity there (its value is then 0 here); 0 for a rational.
  int infinite_a = 0, infinite_b = 0;
};

struct SearchStats {
  size_t points = 0;           // general points evaluated
  size_t boundary_points = 0;  // boundary points evaluated
  size_t agreed = 0;           // points where both sides were exact and equal
  size_t not_exact = 0;        // points where a side was undefined, infinite or irrational
  size_t ball_points = 0;      // points evaluated in ball arithmetic
  bool transcendental = false; // the sides contain functions with irrational values
};

struct SearchResult {
  std::optional<Refutation> refutation;
  SearchStats stats;
};

// `diff` is the Store's a - b when the sides are numbers (invalid otherwise). Where both
// sides are defined it equals a - b, so a point where it is exactly 0 is skipped without
// evaluating the (possibly much larger) sides, and its boundaries are searched first.
SearchResult search_refutation(const expr::Store& s, expr::ExprId a, expr::ExprId b, expr::ExprId diff,
                               PointSource& src, const SearchOptions& options);

// The sides at one point: exact values that differ, or (with `balls`) disjoint balls where a
// side is not exact; nullopt where neither shows a difference or the point is not admissible.
std::optional<Refutation> refutation_at(const expr::Store& s, expr::ExprId a, expr::ExprId b, const PointSource& src,
                                        const Point& p, bool balls);

// Whether the sides differ at the witness by no more than a float constant read two ways can
// make them (2^-18 relative, both finite): a refutation that may stand for a rounding-level
// difference only, so the decider looks on (other pieces, other points) for one that shows more.
bool rounding_level(const Refutation& r);

// Re-checks a refutation from scratch: exact values (or, for balls, a fresh ball
// evaluation) must differ at the point. Nothing is reported Refuted that fails this.
bool confirm_refutation(const expr::Store& s, expr::ExprId a, expr::ExprId b, const PointSource& src,
                        const Refutation& r);

}  // namespace racer::decide
