#pragma once
// The per-row tolerance of a Freivalds check, shared by the CPU backend and the CUDA kernels.
// tolerance.hpp derives the coefficients (and explains them); this only evaluates them.
#include <cmath>

#include "freivalds/hd.hpp"

namespace racer::freivalds {

struct ToleranceCoefficients {
  double lambda_r;   // Hoeffding multiplier over the random vectors
  double eps_acc;    // relative accumulation (+ input rounding) error of the checked product
  double u_out_rel;  // output rounding of C, relative to |C|: u/(1-u)
  double d_am;       // the check's own rounding, per unit of (|A| |B| 1)_i
  double d_cm;       // the check's own rounding, per unit of (|C| 1)_i
  double slack;      // covers rounding in computing these magnitudes themselves
};

// Row i of A (n) and C (p): na2 = ||A_i||^2, nc2 = ||C_i||^2, am = (|A| |B| 1)_i,
// cm = (|C| 1)_i; nb2 = ||B||_F^2. Residuals |(A(BR) - CR)_iv| above this fail.
RACER_HD double row_tolerance(const ToleranceCoefficients& c, double na2, double nb2, double nc2, double am, double cm) {
  return c.slack * (c.lambda_r * (c.eps_acc * sqrt(na2 * nb2) + c.u_out_rel * sqrt(nc2)) + c.d_am * am + c.d_cm * cm);
}

}  // namespace racer::freivalds
