#pragma once
// The previous (row-per-lane) kernels, built only into the GPU bench (RACER_FV_ALL_SHAPES) to
// measure the library's tiled kernels (tiled_kernels.cuh) against them. Their f32 runs of 16
// terms are within the tiled kernels' bound for 2-byte formats, not for f32 (gamma_12): the
// bench compares their residuals and times, not their verdicts.
// The two fused passes of a Freivalds check on the GPU, written for memory bandwidth:
//   pass 1 over B:       X = B R,  xm = |B| 1,  ||B||_F^2
//   pass 2 over A and C: Y = A X - C R,  am = |A| xm,  cm = |C| 1,  ||A_i||^2,  ||C_i||^2
// Each matrix is read once per chunk of up to 16 vectors (one chunk for k <= 16).
//
// Mapping: LPR lanes share kRowsPerLane rows and stream along them 32 bytes each at a time
// (LPR = 4: one whole 128-byte line per row per load); the 32/LPR lane groups of a warp walk
// the same columns of different rows, so the vector entries they need are LPR addresses
// shared by the whole warp (broadcast loads). The LPR partial sums of a row are added by
// shuffles once per block.
// Products are summed in f32 over runs of kRun columns (A and C terms: 2 kRun terms per run)
// and the runs are added into f64 accumulators (tolerance.cpp: gpu_check_arithmetic).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace racer::freivalds::cuda {

constexpr int kThreads = 128;     // 4 warps
constexpr int kRun = 8;           // columns per f32 run
// Rows per block for ROWS rows per lane.
// Rows per block for ROWS rows per lane and LPR lanes per row.
template <int ROWS, int LPR> __host__ __device__ constexpr int rows_per_block() { return 32 / LPR * ROWS * (kThreads / 32); }


template <class T> struct Elements;
template <> struct Elements<float> {
  static constexpr int kPerLoad = 8;  // 32 bytes
  __device__ static void widen(const uint4 (&raw)[2], float (&out)[8]) {
    const float* f = reinterpret_cast<const float*>(raw);
#pragma unroll
    for (int e = 0; e < 8; ++e) out[e] = f[e];
  }
};
template <> struct Elements<__nv_bfloat16> {
  static constexpr int kPerLoad = 16;
  __device__ static void widen(const uint4 (&raw)[2], float (&out)[16]) {
    const uint32_t* w = reinterpret_cast<const uint32_t*>(raw);
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      out[2 * e] = __uint_as_float(w[e] << 16);
      out[2 * e + 1] = __uint_as_float(w[e] & 0xffff0000u);
    }
  }
};
template <> struct Elements<__half> {
  static constexpr int kPerLoad = 16;
  __device__ static void widen(const uint4 (&raw)[2], float (&out)[16]) {
    const __half2* h = reinterpret_cast<const __half2*>(raw);
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      float2 f = __half22float2(h[e]);
      out[2 * e] = f.x;
      out[2 * e + 1] = f.y;
    }
  }
};

template <class T>
struct PassArgs {
  const T* m;          // rows x cols, row-major (A in pass 2, B in pass 1)
  const T* c;          // rows x cols (C), pass 2 only
  int64_t rows, cols;  // cols % Elements<T>::kPerLoad == 0
  const float* v;      // cols x kpad: X chunk (pass 2) or R chunk (pass 1)
  const float* w;      // cols x kpad: R chunk, pass 2 only
  const double* vmag;  // cols: xm (pass 2); pass 1 uses 1
  int64_t cols_per_split;
  double* out;         // rows x kpad, accumulated with atomics (zeroed before)
  double* mag;         // rows: am (pass 2) or xm (pass 1)
  double* sq_m;        // rows: ||A_i||^2 (pass 2); pass 1: one total ||B||_F^2 at sq_m[0]
  double* mag_c;       // rows: |C| 1
  double* sq_c;        // rows: ||C_i||^2
};

__device__ inline double warp_sum(double x) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x += __shfl_down_sync(0xffffffffu, x, d);
  return x;
}

__device__ inline void load32(const void* p, uint4 (&raw)[2]) {
  const uint4* q = static_cast<const uint4*>(p);
  raw[0] = __ldcs(q);  // streamed once: evict first, keep L1/L2 for the vectors
  raw[1] = __ldcs(q + 1);
}

template <class T, int KT, bool WITH_C, bool MAGS, int kRowsPerLane, bool PREFETCH, int LPR, int MIN_BLOCKS>
__global__ void __launch_bounds__(kThreads, MIN_BLOCKS) skinny_pass(PassArgs<T> p) {
  constexpr int E = Elements<T>::kPerLoad;
  constexpr int KP = (KT + 3) / 4 * 4;
  constexpr int RG = 32 / LPR;  // row groups of a warp: the stride between a lane's rows
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, sub = lane % LPR;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * rows_per_block<kRowsPerLane, LPR>() + warp * RG * kRowsPerLane + lane / LPR;
  const int64_t c_begin = static_cast<int64_t>(blockIdx.y) * p.cols_per_split;
  const int64_t c_end = min(p.cols, c_begin + p.cols_per_split);
  bool live[kRowsPerLane];
#pragma unroll
  for (int r = 0; r < kRowsPerLane; ++r) live[r] = row0 + RG * r < p.rows;

  double acc[kRowsPerLane][KT] = {};
  double mag[kRowsPerLane] = {}, sq_m[kRowsPerLane] = {}, mag_c[kRowsPerLane] = {}, sq_c[kRowsPerLane] = {};
  uint4 next_m[kRowsPerLane][2] = {}, next_c[kRowsPerLane][2] = {};
  auto issue = [&](int64_t col) {
#pragma unroll
    for (int r = 0; r < kRowsPerLane; ++r) {
      if (live[r] && col < c_end) {
        load32(p.m + (row0 + RG * r) * p.cols + col, next_m[r]);
        if constexpr (WITH_C) load32(p.c + (row0 + RG * r) * p.cols + col, next_c[r]);
      }
    }
  };
  const int64_t c_first = c_begin + sub * E;
  if constexpr (PREFETCH) issue(c_first);
  for (int64_t col = c_first; col < c_end; col += E * LPR) {
    if constexpr (!PREFETCH) issue(col);
    float a[kRowsPerLane][E], cc[kRowsPerLane][E];
#pragma unroll
    for (int r = 0; r < kRowsPerLane; ++r) {
      Elements<T>::widen(next_m[r], a[r]);
      if constexpr (WITH_C) Elements<T>::widen(next_c[r], cc[r]);
    }
    if constexpr (PREFETCH) issue(col + E * LPR);
#pragma unroll
    for (int e0 = 0; e0 < E; e0 += kRun) {
      float run[kRowsPerLane][KT] = {};
      float run_mag[kRowsPerLane] = {}, run_sq[kRowsPerLane] = {}, run_mag_c[kRowsPerLane] = {}, run_sq_c[kRowsPerLane] = {};
#pragma unroll
      for (int e = e0; e < e0 + kRun; ++e) {
        const float4* vx = reinterpret_cast<const float4*>(p.v + (col + e) * KP);
        float x[KP];
#pragma unroll
        for (int q = 0; q < KP / 4; ++q) {
          float4 t = __ldg(vx + q);
          x[4 * q] = t.x, x[4 * q + 1] = t.y, x[4 * q + 2] = t.z, x[4 * q + 3] = t.w;
        }
        float rr[KP];
        if constexpr (WITH_C) {
          const float4* vr = reinterpret_cast<const float4*>(p.w + (col + e) * KP);
#pragma unroll
          for (int q = 0; q < KP / 4; ++q) {
            float4 t = __ldg(vr + q);
            rr[4 * q] = t.x, rr[4 * q + 1] = t.y, rr[4 * q + 2] = t.z, rr[4 * q + 3] = t.w;
          }
        }
        float weight = 1.0f;
        if constexpr (MAGS && WITH_C) weight = static_cast<float>(__ldg(p.vmag + col + e));
#pragma unroll
        for (int r = 0; r < kRowsPerLane; ++r) {
#pragma unroll
          for (int t = 0; t < KT; ++t) {
            run[r][t] = fmaf(a[r][e], x[t], run[r][t]);
            if constexpr (WITH_C) run[r][t] = fmaf(-cc[r][e], rr[t], run[r][t]);
          }
          if constexpr (MAGS) {
            run_mag[r] = fmaf(fabsf(a[r][e]), weight, run_mag[r]);
            run_sq[r] = fmaf(a[r][e], a[r][e], run_sq[r]);
            if constexpr (WITH_C) {
              run_mag_c[r] += fabsf(cc[r][e]);
              run_sq_c[r] = fmaf(cc[r][e], cc[r][e], run_sq_c[r]);
            }
          }
        }
      }
#pragma unroll
      for (int r = 0; r < kRowsPerLane; ++r) {
#pragma unroll
        for (int t = 0; t < KT; ++t) acc[r][t] += run[r][t];
        if constexpr (MAGS) {
          mag[r] += run_mag[r], sq_m[r] += run_sq[r];
          if constexpr (WITH_C) mag_c[r] += run_mag_c[r], sq_c[r] += run_sq_c[r];
        }
      }
    }
  }
  if constexpr (MAGS && !WITH_C) {  // pass 1: ||B||_F^2 as one total (before the row sums below)
    double s = 0;
#pragma unroll
    for (int r = 0; r < kRowsPerLane; ++r) s += sq_m[r];
    s = warp_sum(s);
    if (lane == 0) atomicAdd(p.sq_m, s);
  }
  // Add the LPR partial sums of each row (all lanes take part), then one atomic per value.
  auto row_sum = [](double& v) {
#pragma unroll
    for (int d = LPR / 2; d >= 1; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
  };
#pragma unroll
  for (int r = 0; r < kRowsPerLane; ++r) {
#pragma unroll
    for (int t = 0; t < KT; ++t) row_sum(acc[r][t]);
    if constexpr (MAGS) {
      row_sum(mag[r]);
      if constexpr (WITH_C) row_sum(sq_m[r]), row_sum(mag_c[r]), row_sum(sq_c[r]);
    }
    if (live[r] && sub == 0) {
      const int64_t row = row0 + RG * r;
#pragma unroll
      for (int t = 0; t < KT; ++t) atomicAdd(p.out + row * KP + t, acc[r][t]);
      if constexpr (MAGS) {
        atomicAdd(p.mag + row, mag[r]);
        if constexpr (WITH_C) {
          atomicAdd(p.sq_m + row, sq_m[r]);
          atomicAdd(p.mag_c + row, mag_c[r]);
          atomicAdd(p.sq_c + row, sq_c[r]);
        }
      }
    }
  }
}

}  // namespace racer::freivalds::cuda
