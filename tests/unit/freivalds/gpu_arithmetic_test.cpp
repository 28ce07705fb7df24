// The CUDA kernels' summation (gpu_arithmetic.hpp), replayed on the CPU operation by operation
// (f32 FMA chains per lane, the 3-level f32 tree, f64 accumulation) and compared with the exact
// sum: the error must stay within the check-arithmetic term the tolerance uses for it, and the
// model must be what the kernels' structure gives (no GPU needed).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "freivalds/format.hpp"
#include "freivalds/gpu_arithmetic.hpp"
#include "freivalds/tolerance.hpp"

namespace racer::freivalds {
namespace {

// Items a chain spans when each contributes E terms of A and E of C (tiled_pass's chain_items
// at its longest).
int items_a_chain(int e) { return kGpuChainTerms / (2 * e); }

// One residual entry Y = sum_j a_j x_j - c_j r_j as tiled_pass computes it: items of 8 lanes x E
// columns; lane l chains, per item of the chain and per quad of 4 of its E columns, the 4 A
// terms then the 4 C terms in f32 FMAs from 0; the 8 chains are added by a tree pairing lanes
// l ^ 4, l ^ 2, l ^ 1; the sum goes into an f64 accumulator.
double emulate_row(const std::vector<float>& a, const std::vector<float>& x, const std::vector<float>& c,
                   const std::vector<float>& r, int e) {
  const size_t unit = static_cast<size_t>(kGpuTreeLanes) * e, span = unit * items_a_chain(e);
  double acc = 0;
  for (size_t c0 = 0; c0 < a.size(); c0 += span) {
    float s[kGpuTreeLanes];
    for (int l = 0; l < kGpuTreeLanes; ++l) {
      float chain = 0;
      for (size_t u0 = c0; u0 < c0 + span && u0 < a.size(); u0 += unit)
        for (int q = 0; q < e / 4; ++q) {
          const size_t j0 = u0 + static_cast<size_t>(l) * e + 4 * q;
          for (size_t j = j0; j < j0 + 4; ++j) chain = std::fmaf(a[j], x[j], chain);
          for (size_t j = j0; j < j0 + 4; ++j) chain = std::fmaf(-c[j], r[j], chain);
        }
      s[l] = chain;
    }
    for (int bit = kGpuTreeLanes / 2; bit >= 1; bit /= 2) {
      float t[kGpuTreeLanes];
      for (int l = 0; l < kGpuTreeLanes; ++l) t[l] = s[l] + s[l ^ bit];
      for (int l = 0; l < kGpuTreeLanes; ++l) s[l] = t[l];
    }
    acc += static_cast<double>(s[0]);
  }
  return acc;
}

struct Worst {
  double over_bound = 0;  // largest |error| / (gamma_c sum |terms|)
  double in_units = 0;    // largest |error| / (u sum |terms|)
};

// Random rows in the format: odd rows with C R close to A X (a correct product: heavy
// cancellation), even rows with every term positive (the partial sums, hence their rounding
// errors, as large as they get relative to the sum of |terms|).
Worst worst_error(Format f, int element_bytes, int rows, int n) {
  const CheckArithmetic m = gpu_check_arithmetic(f);
  const double gamma_c = gamma_n(m.inner_len + 1, m.u_inner) + gamma_n(2.0 * n, m.u_outer) * (1 + gamma_n(m.inner_len + 1, m.u_inner));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> unit(-1, 1);
  Worst w;
  std::vector<float> a(n), x(n), c(n), r(n);
  for (int row = 0; row < rows; ++row) {
    for (int j = 0; j < n; ++j) {
      a[j] = round_to_format(f, unit(rng)), x[j] = 16 * unit(rng), r[j] = unit(rng);
      if (row % 2) {
        c[j] = r[j] != 0 ? round_to_format(f, a[j] * x[j] / r[j]) : 0;
        if (!std::isfinite(c[j])) c[j] = 0;
      } else {
        a[j] = std::fabs(a[j]), x[j] = std::fabs(x[j]) + 1, r[j] = std::fabs(r[j]);
        c[j] = -std::fabs(round_to_format(f, unit(rng)));
      }
    }
    long double exact = 0, magnitude = 0;
    for (int j = 0; j < n; ++j) {
      const long double p = static_cast<long double>(a[j]) * x[j], q = static_cast<long double>(c[j]) * r[j];
      exact += p - q, magnitude += std::fabs(p) + std::fabs(q);
    }
    const double err = std::fabs(static_cast<double>(emulate_row(a, x, c, r, 16 / element_bytes) - exact));
    w.over_bound = std::max(w.over_bound, err / (gamma_c * static_cast<double>(magnitude)));
    w.in_units = std::max(w.in_units, err / (m.u_inner * static_cast<double>(magnitude)));
  }
  return w;
}

TEST(GpuArithmetic, ModelIsTheKernelsChainsAndTree) {
  EXPECT_EQ(items_a_chain(4), 2);  // f32: two items of 4 A + 4 C terms
  EXPECT_EQ(items_a_chain(8), 1);  // bf16/f16: one item of 8 + 8
  for (Format f : {Format::F32, Format::TF32, Format::BF16, Format::F16})
    EXPECT_EQ(gpu_check_arithmetic(f).inner_len, kGpuChainTerms + kGpuTreeLevels) << format_name(f);
}

TEST(GpuArithmetic, ReplayedKernelSumsStayWithinTheBound) {
  for (auto [f, bytes] : {std::pair{Format::F32, 4}, std::pair{Format::BF16, 2}, std::pair{Format::F16, 2}}) {
    Worst w = worst_error(f, bytes, 400, 1024);
    EXPECT_LE(w.over_bound, 1.0) << format_name(f);
    EXPECT_GT(w.in_units, 0.0) << format_name(f);
  }
}

// One lane's chain starts at 1 and every later term is 0.75 u: each addition rounds back to 1,
// so the chain loses (L - 1) 0.75 u of a sum of about 1. The bound must cover that, and a model
// with half the chain's roundings would not: the chain length in the model matters.
TEST(GpuArithmetic, AChainCanLoseEveryAddition) {
  const float t = 0x1.8p-25f;  // 0.75 u, exact in bf16
  for (auto [f, bytes] : {std::pair{Format::F32, 4}, std::pair{Format::BF16, 2}}) {
    const int e = 16 / bytes, items = items_a_chain(e), n = kGpuTreeLanes * e * items;
    std::vector<float> a(n, 0), x(n, 1), c(n, 0), r(n, 1);
    for (int i = 0; i < items; ++i)  // lane 0's columns of each item: 1, then t terms
      for (int j = i * kGpuTreeLanes * e; j < (i * kGpuTreeLanes + 1) * e; ++j) a[j] = j == 0 ? 1.0f : t, c[j] = -t;
    const double exact = 1 + (kGpuChainTerms - 1) * t;
    const double got = emulate_row(a, x, c, r, e);
    EXPECT_EQ(got, 1.0) << format_name(f);
    const CheckArithmetic m = gpu_check_arithmetic(f);
    EXPECT_LE(exact - got, gamma_n(m.inner_len + 1, m.u_inner) * exact) << format_name(f);
    EXPECT_GT(exact - got, gamma_n(kGpuChainTerms / 2, m.u_inner) * exact) << format_name(f);
  }
}

}  // namespace
}  // namespace racer::freivalds
