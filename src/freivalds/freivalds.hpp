#pragma once
// Freivalds' check of a claimed product C = A B in O(n^2 k): Y = A (B R) - C R with k random
// vectors R, compared row by row against a tolerance derived from the formats and n
// (tolerance.hpp). One API; backends: the CPU (BLAS) here, CUDA in cuda/ (built separately).
#include <cstdint>
#include <string>
#include <vector>

#include "freivalds/format.hpp"
#include "freivalds/tolerance.hpp"

namespace racer::freivalds {

struct Options {
  int k = 10;
  uint64_t seed = 1;
  ErrorModel model = ErrorModel::WorstCase;
  double false_alarm = 0x1p-40;
  bool keep_row_tolerances = false;
};

struct Result {
  bool pass = false;
  double residual = 0;     // |Y_iv| at the worst (largest residual / tolerance) entry
  double tolerance = 0;    // tol_i of that row
  double worst_ratio = 0;  // residual / tolerance (> 1 fails; NaN residuals count as infinite)
  int64_t worst_row = 0;
  int worst_vector = 0;
  int64_t failing_rows = 0;
  std::string backend;
  Tolerance derived;
  std::vector<double> row_tolerances;  // when Options::keep_row_tolerances
};

// Row-major host matrices (A m x n, B n x p, C m x p) holding values of `format` widened to
// float exactly (f16/bf16 values are representable in f32).
struct HostProduct {
  Format format;
  int64_t m, n, p;
  const float* a;
  const float* b;
  const float* c;
};

Result check_cpu(const HostProduct& product, const Options& options);

}  // namespace racer::freivalds
