#pragma once
// Rigorous evaluation in ball arithmetic (Arb) for points where exact evaluation meets an
// irrational value (exp(1), sqrt(2)). A ball is a midpoint and a radius that contain the
// true value, with outward rounding throughout; two disjoint balls prove two values differ.
// Wherever a value might be undefined (log or sqrt of a ball touching 0 or below, division
// by a ball containing 0, an infinite constant, a comparison the balls cannot settle), the
// evaluation gives up rather than guess.
#include <gmpxx.h>

#include <optional>

#include "expr/eval.hpp"

namespace racer::decide {

struct BallSeparation {
  mpq_class mid_a, mid_b;  // the balls' midpoints (not the exact values)
  long precision;          // bits at which the balls came out disjoint
};

// The precisions (bits) tried in order. Equal sides never separate, so a caller searching
// many points escalates beyond the first only a few times.
inline constexpr long kBallPrecisions[] = {128, 512, 2048};

// Whether a and b provably differ at `at`: both evaluated at the first `levels` precisions
// in turn until their balls are disjoint. nullopt when none separates them or a side
// cannot be evaluated.
std::optional<BallSeparation> balls_separate(const expr::Store& s, expr::ExprId a, expr::ExprId b,
                                             const expr::Assignment& at, size_t levels = 3);

// The value of x at `at` to double precision (the midpoint of a 128-bit ball), for
// sampling a function; nullopt where the ball evaluation fails (undefined, unsettled).
std::optional<double> ball_value(const expr::Store& s, expr::ExprId x, const expr::Assignment& at);

// The truth of a comparison that reads no symbol (its sides are constants such as
// 3 exp(-log(10000) / 16)), where balls separate its sides; nullopt where they do not (equal
// sides, or sides too close for the precisions tried) or a side cannot be evaluated.
std::optional<bool> ground_comparison(const expr::Store& s, expr::ExprId cmp);

}  // namespace racer::decide
