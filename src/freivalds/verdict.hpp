#pragma once
// From residuals and row magnitudes to a verdict: the worst residual relative to its row's
// tolerance. Shared by the backends that bring their residuals back to the host.
#include <vector>

#include "freivalds/freivalds.hpp"

namespace racer::freivalds {

struct RowMagnitudes {
  double na2 = 0, nc2 = 0, am = 0, cm = 0;  // ||A_i||^2, ||C_i||^2, (|A||B|1)_i, (|C|1)_i
};

// y is m x k row-major. A NaN or infinite residual or tolerance fails.
Result judge(const std::vector<double>& y, const std::vector<RowMagnitudes>& rows, double nb2, int k,
             const Tolerance& tol, bool keep_row_tolerances);

}  // namespace racer::freivalds
