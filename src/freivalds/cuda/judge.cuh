#pragma once
// The verdict of one chunk of vectors on the GPU: each row's residuals against the row's
// tolerance, the rows that fail counted once, and the worst entry (ratio, row, vector) kept by an
// atomic maximum. A kernel of its own after pass 2 (judge_chunk); judge_rows is what one CTA
// does, for any range of rows.
#include <cstdint>

#include "freivalds/row_tolerance.hpp"

namespace racer::freivalds::cuda {

struct JudgeArgs {
  const double* y;  // rows x kpad residuals of the chunk
  int kpad, v0, valid, k;
  int64_t rows;
  const double* mags;  // [am | sq_a | cm | sq_c], rows each
  const double* nb2;   // ||B||_F^2
  const ToleranceCoefficients* coef;
  int* row_failed;
  unsigned long long* packed;   // (ratio f32 bits << 32) | (row k + v), atomicMax
  unsigned long long* failing;  // rows that failed
};

// Judges rows [first, last), a row a thread at a time; every thread of the CTA calls it.
// warp_best: shared memory for one entry a warp. The values were written by atomics, which
// complete in L2: read from there (__ldcg).
__device__ inline void judge_rows(const JudgeArgs& j, int64_t first, int64_t last, unsigned long long* warp_best) {
  unsigned long long best = 0;
  const double nb2 = __ldcg(j.nb2);
  for (int64_t row = first + threadIdx.x; row < last; row += blockDim.x) {
    const double tol = row_tolerance(*j.coef, __ldcg(j.mags + j.rows + row), nb2, __ldcg(j.mags + 3 * j.rows + row),
                                     __ldcg(j.mags + row), __ldcg(j.mags + 2 * j.rows + row));
    bool failed = false;
#pragma unroll 4
    for (int t = 0; t < j.valid; ++t) {
      const double r = fabs(__ldcg(j.y + row * j.kpad + t));
      failed |= !(r <= tol);  // NaN fails
      const double ratio = !isfinite(r) || !isfinite(tol) ? INFINITY : (tol > 0 ? r / tol : (r > 0 ? INFINITY : 0.0));
      const unsigned long long bits = __float_as_uint(isinf(ratio) ? INFINITY : static_cast<float>(ratio));
      const unsigned long long p = bits << 32 | static_cast<unsigned long long>(row * j.k + j.v0 + t);
      best = p > best ? p : best;
    }
    if (failed && atomicExch(j.row_failed + row, 1) == 0) atomicAdd(j.failing, 1ull);
  }
  for (int d = 16; d > 0; d >>= 1) {
    const unsigned long long o = __shfl_down_sync(0xffffffffu, best, d);
    best = o > best ? o : best;
  }
  // One atomic a CTA, not a warp: they all go to one address.
  if ((threadIdx.x & 31) == 0) warp_best[threadIdx.x / 32] = best;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < blockDim.x / 32; ++w) best = warp_best[w] > best ? warp_best[w] : best;
    atomicMax(j.packed, best);
  }
}

// Rows a CTA of the verdict kernel (small CTAs: a CTA a multiprocessor or more from n = 16K rows).
constexpr int kJudgeThreads = 128;

__global__ void __launch_bounds__(kJudgeThreads) judge_chunk(JudgeArgs j) {
  asm volatile("griddepcontrol.wait;" ::: "memory");  // launched as pass 2's dependent (overlap_passes): Y is complete
  __shared__ unsigned long long warp_best[kJudgeThreads / 32];
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x;
  judge_rows(j, first, first + blockDim.x < j.rows ? first + blockDim.x : j.rows, warp_best);
}

}  // namespace racer::freivalds::cuda
