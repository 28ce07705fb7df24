#pragma once
// Exact membership in, rounding onto and stepping along the value grid of a number format.
// Floating formats are modelled by precision, minimum normal exponent (subnormals below it)
// and largest finite value; infinities and NaN are never witness values.
#include <gmpxx.h>

#include <optional>

#include "decide/domain.hpp"

namespace racer::decide {

enum class Rounding { Down, Up, Nearest };

// Whether q is exactly a finite value of format g.
bool on_grid(const mpq_class& q, Grid g);

// The grid value next to q in the given direction (Nearest: ties away from zero). Down and
// Nearest stop at the largest finite value (and Up at minus it); nullopt where Up (Down)
// would have to go beyond it.
std::optional<mpq_class> round_to_grid(const mpq_class& q, Grid g, Rounding r);

// The neighbours of a grid value: the next grid value above / below. For Grid::Real, which
// has no neighbours, a step of 2^-10 stands in: close enough to land on the same side of
// a comparison boundary as its neighbours would, coarse enough to print readably.
std::optional<mpq_class> next_up(const mpq_class& q, Grid g);
std::optional<mpq_class> next_down(const mpq_class& q, Grid g);

// Whether q is admissible for a symbol of domain d: on its grid and inside its range.
bool admissible(const mpq_class& q, const SymbolDomain& d);

// An admissible value close to q: q clamped into the range, then rounded onto the grid
// (nearest first, then the other direction if that left the range). nullopt when the range
// holds no grid value there.
std::optional<mpq_class> snap(const mpq_class& q, const SymbolDomain& d);

}  // namespace racer::decide
