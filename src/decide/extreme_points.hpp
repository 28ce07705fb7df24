#pragma once
// Points at the ends of the symbols' ranges, where a difference that random points miss
// shows: a max over many cells that dropped one of them (the dropped cell must be the
// largest: it at the top of its range, the others at the bottom), a sign that only shows when
// every cell of a tensor is negative. Symbols of one domain (a tensor's cells) move together
// to each corner of the box, then each symbol alone is taken to the other end from both the
// lowest and the highest corner, the symbols in `first` (say, those only one side reads) before
// the others; first of all, each symbol in `first` at either end while the others rest at 0
// (a dropped cell of a max of |x|: at the corners every |x| ties). Every value is admissible (snapped onto the grid, inside the range); a symbol
// with no range takes -2 and 2.
#include <vector>

#include "decide/points.hpp"

namespace racer::decide {

std::vector<Point> extreme_points(const PointSource& src, size_t max_points, const std::vector<size_t>& first = {});

}  // namespace racer::decide
