#pragma once
// What values a free symbol may take in a witness. A witness is only useful if a replay
// (CPU emulation or a real GPU) can load it exactly, so besides a range a symbol carries
// the number format its tensor is stored in, and witness values are exact members of it.
#include <gmpxx.h>

#include <optional>
#include <string_view>

namespace racer::decide {

enum class Grid { F64, F32, TF32, F16, BF16, E4M3, E5M2, Integer, Real };

struct SymbolDomain {
  std::optional<mpq_class> lo, hi;  // closed range, either end may be open-ended
  Grid grid = Grid::Real;
};

std::string_view grid_name(Grid g);

}  // namespace racer::decide
