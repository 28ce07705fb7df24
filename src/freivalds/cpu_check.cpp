// The CPU backend: the check in f64 with BLAS (Debian's libblas, or OpenBLAS through the same
// interface when installed).
#include <cblas.h>

#include <cmath>
#include <limits>
#include <vector>

#include "freivalds/freivalds.hpp"
#include "freivalds/random_vectors.hpp"
#include "freivalds/verdict.hpp"
#include "support/error.hpp"

namespace racer::freivalds {
namespace {

std::vector<double> widen(const float* x, int64_t count) { return std::vector<double>(x, x + count); }

void require_blas_size(int64_t v, const char* what) {
  if (v > std::numeric_limits<int>::max() / 2) throw Error(ExitCode::BadInput, std::string(what) + " is too large for the CPU backend (BLAS int sizes)");
}

}  // namespace

Result check_cpu(const HostProduct& pr, const Options& o) {
  require_blas_size(pr.m, "m");
  require_blas_size(pr.n, "n");
  require_blas_size(pr.p, "p");
  const int m = static_cast<int>(pr.m), n = static_cast<int>(pr.n), p = static_cast<int>(pr.p), k = o.k;
  Tolerance tol = derive_tolerance({pr.format, pr.m, pr.n, pr.p, k, o.model, o.false_alarm, cpu_check_arithmetic()});
  std::vector<double> a = widen(pr.a, pr.m * pr.n), b = widen(pr.b, pr.n * pr.p), c = widen(pr.c, pr.m * pr.p);
  std::vector<double> r(static_cast<size_t>(p) * k);
  for (size_t i = 0; i < r.size(); ++i) r[i] = random_entry(o.seed, i);
  // X = B R (n x k), then Y = A X - C R (m x k).
  std::vector<double> x(static_cast<size_t>(n) * k), y(static_cast<size_t>(m) * k);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, k, p, 1.0, b.data(), p, r.data(), k, 0.0, x.data(), k);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, k, n, 1.0, a.data(), n, x.data(), k, 0.0, y.data(), k);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, k, p, -1.0, c.data(), p, r.data(), k, 1.0, y.data(), k);
  // Magnitudes for the tolerance: |B| 1, ||B||_F^2, then per row of A and C.
  std::vector<double> xm(n, 0.0);
  double nb2 = 0;
  for (int64_t l = 0; l < n; ++l)
    for (int64_t j = 0; j < p; ++j) {
      double v = b[l * p + j];
      xm[l] += std::fabs(v);
      nb2 += v * v;
    }
  std::vector<RowMagnitudes> rows(m);
  for (int64_t i = 0; i < m; ++i) {
    RowMagnitudes& rm = rows[i];
    for (int64_t l = 0; l < n; ++l) {
      double v = a[i * n + l];
      rm.na2 += v * v;
      rm.am += std::fabs(v) * xm[l];
    }
    for (int64_t j = 0; j < p; ++j) {
      double v = c[i * p + j];
      rm.nc2 += v * v;
      rm.cm += std::fabs(v);
    }
  }
  Result res = judge(y, rows, nb2, k, tol, o.keep_row_tolerances);
  res.backend = "cpu (f64 BLAS)";
  return res;
}

}  // namespace racer::freivalds
