#pragma once
// A witness behind a branch the points did not take. Where two sides differ only on some
// pieces of a piecewise function (a merge of split-K partials that forgets to rescale when a
// later split holds the larger maximum), random points, corners and the case split's linear
// points may all land on the pieces where they agree, or differ at rounding level only, when
// the piece's conditions are not linear in the inputs (a comparison of two log-sum-exps).
// Starting from a point, each branch point of the sides (outermost first) is pushed to its
// other branch by steps along the sign of its margin's gradient (float_tape.hpp), inside the
// symbols' ranges; where it flips, the sides are compared there, exactly (refute.hpp): only a
// confirmed point is returned. A search, not a proof: finding nothing decides nothing.
#include <chrono>
#include <optional>

#include "decide/points.hpp"
#include "decide/refute.hpp"
#include "expr/store.hpp"

namespace racer::decide {

struct FlipOptions {
  size_t branches = 32;  // branch points tried, outermost first
  size_t steps = 8;      // gradient steps per branch point
  size_t confirmations = 6;  // exact (or ball) evaluations of the sides at flipped points
  // Only a difference beyond rounding level (rounding_level false) is returned: the caller
  // holds a rounding-level one already.
  bool beyond_rounding = false;
  bool balls = true;
  std::chrono::steady_clock::duration budget = std::chrono::milliseconds(400);
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

std::optional<Refutation> flip_branches(const expr::Store& s, expr::ExprId a, expr::ExprId b, const PointSource& src,
                                        const Point& start, const FlipOptions& options);

}  // namespace racer::decide
