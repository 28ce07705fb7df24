#include "freivalds/verdict.hpp"

#include <cmath>
#include <limits>

namespace racer::freivalds {

Result judge(const std::vector<double>& y, const std::vector<RowMagnitudes>& rows, double nb2, int k,
             const Tolerance& tol, bool keep_row_tolerances) {
  Result res;
  res.derived = tol;
  res.worst_ratio = -1;
  for (size_t i = 0; i < rows.size(); ++i) {
    const RowMagnitudes& rm = rows[i];
    double t = row_tolerance(tol.coef, rm.na2, nb2, rm.nc2, rm.am, rm.cm);
    if (keep_row_tolerances) res.row_tolerances.push_back(t);
    bool row_fails = false;
    for (int v = 0; v < k; ++v) {
      double r = std::fabs(y[i * k + v]);
      double ratio = std::isfinite(r) && std::isfinite(t) ? (t > 0 ? r / t : (r > 0 ? INFINITY : 0)) : INFINITY;
      if (ratio > 1) row_fails = true;
      if (ratio > res.worst_ratio) {
        res.worst_ratio = ratio;
        res.residual = r;
        res.tolerance = t;
        res.worst_row = static_cast<int64_t>(i);
        res.worst_vector = v;
      }
    }
    res.failing_rows += row_fails;
  }
  res.pass = res.failing_rows == 0;
  return res;
}

}  // namespace racer::freivalds
