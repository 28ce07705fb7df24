#pragma once
// Choices the symbols' ranges already make. A comparison whose sides' bounds (SignBounds:
// interval arithmetic over the box, with a value over the largest magnitude of a set it
// belongs to bounded by 1) never overlap is true or false everywhere; a min or max argument
// that another argument's bounds dominate is never the extreme one; an abs of a one-signed
// value is that value or its negation. Such nodes are replaced by their one choice, bottom up,
// so that a saturation the data can never reach (cvt.sat to 16 bits of round(127 x / absmax))
// drops out of a side rather than being split on.
//
// The result agrees with x wherever x is defined (bounds hold at every defined point of the
// box, and a dropped argument only ever ties the extreme one); it may be defined where x is
// not. So it serves proofs (equal rewritten sides are equal originals wherever both are
// defined); witnesses are confirmed on the original sides.
#include <span>
#include <vector>

#include "expr/store.hpp"

namespace racer::decide {

// Each root settled, in order; one pass of bounds serves them all (a cell's two sides share most
// of their nodes).
std::vector<expr::ExprId> settle_bounded_choices(expr::Store& s, std::span<const expr::ExprId> roots);
expr::ExprId settle_bounded_choices(expr::Store& s, expr::ExprId x);

}  // namespace racer::decide
