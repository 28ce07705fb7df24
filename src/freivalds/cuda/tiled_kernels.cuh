#pragma once
// The two passes of a Freivalds check on the GPU, tiled for memory bandwidth (the library's
// kernel; skinny_kernels.cuh keeps the older row-per-lane shapes for the bench's comparison):
//   pass 1 over B:       X = B R,  xm = |B| 1,  ||B||_F^2
//   pass 2 over A and C: Y = A X - C R,  am = |A| xm,  cm = |C| 1,  ||A_i||^2,  ||C_i||^2
//
// Mapping: a CTA owns a tile of rows and a split of the columns. Per block of columns it
// stages the vector entries (X, R, xm) in shared memory once, then its lane groups (8 lanes)
// stream rows: each lane group holds kRows rows, its 8 lanes load 16 contiguous bytes each
// of every row (128 bytes a row, whole cache lines), and all four lane groups of a warp read
// the same vector entries (one shared-memory wavefront per 16-byte load of the warp). Each
// lane sums its unit's terms in f32 (a run of at most 8 columns of A and 8 of C), the 8 lanes'
// runs are added by a 3-level shuffle tree that leaves every lane a slice of the row values,
// and those go into f64 accumulators in shared memory. Rounding model (tolerance.cpp,
// gpu_check_arithmetic): each term passes through at most L f32 roundings in its lane run and
// 3 in the tree (L = 8 terms for 4-byte elements, 16 for 2-byte), then f64.
// At the end each CTA adds its rows' values into the outputs (f64 atomics, one per value per
// column split).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace racer::freivalds::cuda {

constexpr int kTileThreads = 128;
constexpr int kGroupLanes = 8;                                // lanes along the columns of a row group
constexpr int kLaneGroups = kTileThreads / kGroupLanes;       // 16 lane groups a CTA

// Elements in one 16-byte load, widened to f32 (exactly).
template <class T> struct Load16;
template <> struct Load16<float> {
  static constexpr int kCount = 4;
  __device__ static void widen(const uint4& raw, float (&out)[4]) {
    out[0] = __uint_as_float(raw.x), out[1] = __uint_as_float(raw.y), out[2] = __uint_as_float(raw.z), out[3] = __uint_as_float(raw.w);
  }
};
template <> struct Load16<__nv_bfloat16> {
  static constexpr int kCount = 8;
  __device__ static void widen(const uint4& raw, float (&out)[8]) {
    const uint32_t w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) out[2 * e] = __uint_as_float(w[e] << 16), out[2 * e + 1] = __uint_as_float(w[e] & 0xffff0000u);
  }
};
template <> struct Load16<__half> {
  static constexpr int kCount = 8;
  __device__ static void widen(const uint4& raw, float (&out)[8]) {
    const uint32_t w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float2 f = __half22float2(*reinterpret_cast<const __half2*>(&w[e]));
      out[2 * e] = f.x, out[2 * e + 1] = f.y;
    }
  }
};

// Values per row: KT residual entries, then (with magnitudes) mag, sq of the streamed matrix
// and, in pass 2, mag and sq of C; rounded up to a power of two (kPitch) for the shuffle tree.
template <int KT, bool WITH_C, bool MAGS> struct TileShape {
  static constexpr int kValues = KT + (MAGS ? (WITH_C ? 4 : 2) : 0);
  static constexpr int kPitch = kValues <= 4 ? 4 : kValues <= 8 ? 8 : kValues <= 16 ? 16 : 32;
  static constexpr int kRows = kPitch >= 32 ? 2 : 4;  // rows of a lane group
  static constexpr int kV = kRows * kPitch;          // values a lane group reduces at once
  static constexpr int kSlice = kV / kGroupLanes;    // values each lane keeps after the tree
  static constexpr int kVecRows = WITH_C ? 2 * KT + (MAGS ? 1 : 0) : KT;  // staged vector rows
  static_assert(kV >= kGroupLanes, "the tree needs at least one value per lane");
};

template <class T>
struct TileArgs {
  const T* m;           // rows x cols row-major: B (pass 1) or A (pass 2)
  const T* c;           // C (pass 2)
  int64_t rows, cols;   // cols % Load16<T>::kCount == 0
  const float* r;       // cols x kpad: the vectors R
  const double* x;      // pass 2: cols x kpad, X = B R from pass 1 (rounded to f32 as staged)
  const double* xm;     // pass 2: cols, |B| 1
  int kpad;
  int64_t cols_per_split;  // a multiple of block_cols
  int block_cols;          // columns whose vectors are staged at once (a multiple of the unit)
  int tile_rows;           // rows of a CTA (a multiple of kLaneGroups * kRows)
  double* out;             // rows x kpad (zeroed before; accumulated with atomics)
  double* mag;             // rows: am (pass 2) or xm (pass 1)
  double* sq_m;            // rows: ||A_i||^2 (pass 2); pass 1: ||B||_F^2 at sq_m[0]
  double* mag_c;           // rows: |C| 1
  double* sq_c;            // rows: ||C_i||^2
};

template <class T, int KT, bool WITH_C, bool MAGS>
__host__ __device__ constexpr size_t tiled_smem_bytes(int tile_rows, int block_cols) {
  using S = TileShape<KT, WITH_C, MAGS>;
  return sizeof(double) * tile_rows * S::kPitch + sizeof(float) * S::kVecRows * block_cols;
}

// Position of a block's column in the staged vectors: a unit is 8 lanes x E columns; the h-th
// quad of lane l's E columns sits at h * 32 + 4 l, so that a warp's 16-byte reads of one quad
// are 128 contiguous bytes.
template <int E> __device__ inline int staged_position(int cb) {
  constexpr int unit = kGroupLanes * E;
  const int u = cb / unit, c = cb % unit;
  return u * unit + (c % E) / 4 * 32 + c / E * 4 + c % 4;
}

// One level of the shuffle tree: a lane keeps the half of its values selected by its lane bit
// BIT and adds its partner's copy of that half (compile-time indices keep acc in registers).
template <int HALF, int BIT, int N>
__device__ inline void tree_level(float (&acc)[N], int lane) {
  const bool upper = (lane & BIT) != 0;
#pragma unroll
  for (int i = 0; i < HALF; ++i) {
    const float send = upper ? acc[i] : acc[i + HALF];
    const float keep = upper ? acc[i + HALF] : acc[i];
    acc[i] = keep + __shfl_xor_sync(0xffffffffu, send, BIT);
  }
}

template <class T, int KT, bool WITH_C, bool MAGS>
__global__ void __launch_bounds__(kTileThreads) tiled_pass(TileArgs<T> p) {
  using S = TileShape<KT, WITH_C, MAGS>;
  constexpr int E = Load16<T>::kCount;
  constexpr int UNIT = kGroupLanes * E;
  constexpr int R = S::kRows, P = S::kPitch;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  double* dacc = reinterpret_cast<double*>(smem_raw);               // tile_rows x P
  float* vec = reinterpret_cast<float*>(dacc + p.tile_rows * P);    // kVecRows x block_cols
  const int lane = threadIdx.x & 31, l8 = lane & 7, group = threadIdx.x / kGroupLanes;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * p.tile_rows;
  const int64_t c_begin = static_cast<int64_t>(blockIdx.y) * p.cols_per_split;
  const int64_t c_end = min(p.cols, c_begin + p.cols_per_split);
  for (int i = threadIdx.x; i < p.tile_rows * P; i += kTileThreads) dacc[i] = 0;
  const int my_groups = p.tile_rows / R / kLaneGroups;

  for (int64_t b = c_begin; b < c_end; b += p.block_cols) {
    const int units = static_cast<int>((min(static_cast<int64_t>(p.block_cols), c_end - b) + UNIT - 1) / UNIT);
    __syncthreads();  // the previous block's vectors are no longer read
    for (int cb = threadIdx.x; cb < units * UNIT; cb += kTileThreads) {
      const int64_t col = b + cb;
      const bool in = col < c_end;
      const int pos = staged_position<E>(cb);
#pragma unroll
      for (int t = 0; t < KT; ++t) {
        if constexpr (WITH_C) {
          vec[t * p.block_cols + pos] = in ? static_cast<float>(p.x[col * p.kpad + t]) : 0.0f;
          vec[(KT + t) * p.block_cols + pos] = in ? p.r[col * p.kpad + t] : 0.0f;
        } else {
          vec[t * p.block_cols + pos] = in ? p.r[col * p.kpad + t] : 0.0f;
        }
      }
      if constexpr (WITH_C && MAGS) vec[2 * KT * p.block_cols + pos] = in ? static_cast<float>(p.xm[col]) : 0.0f;
    }
    __syncthreads();

    const int items = my_groups * units;
    auto load = [&](int item, uint4 (&m)[R], uint4 (&c)[R]) {
      const int g = group + kLaneGroups * (item / units), u = item % units;
      const int64_t col = b + u * UNIT + l8 * E;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int64_t row = row0 + g * R + r;
        const bool in = item < items && row < p.rows && col < c_end;
        m[r] = in ? __ldcs(reinterpret_cast<const uint4*>(p.m + row * p.cols + col)) : make_uint4(0, 0, 0, 0);
        if constexpr (WITH_C) c[r] = in ? __ldcs(reinterpret_cast<const uint4*>(p.c + row * p.cols + col)) : make_uint4(0, 0, 0, 0);
      }
    };
    uint4 cur_m[R], cur_c[R];
    load(0, cur_m, cur_c);
    for (int item = 0; item < items; ++item) {
      uint4 next_m[R], next_c[R];
      load(item + 1, next_m, next_c);  // in flight while this item computes
      const int g = group + kLaneGroups * (item / units), u = item % units;
      float a[R][E], cc[R][E];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        Load16<T>::widen(cur_m[r], a[r]);
        if constexpr (WITH_C) Load16<T>::widen(cur_c[r], cc[r]);
      }
      float acc[S::kV];  // (an `= {}` initialiser becomes a loop over local memory)
#pragma unroll
      for (int i = 0; i < S::kV; ++i) acc[i] = 0;
#pragma unroll
      for (int h = 0; h < E / 4; ++h) {
        const float* base = vec + u * UNIT + h * 32 + l8 * 4;
#pragma unroll
        for (int t = 0; t < KT; ++t) {
          const float4 x = *reinterpret_cast<const float4*>(base + t * p.block_cols);
          const float xs[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
          for (int r = 0; r < R; ++r)
#pragma unroll
            for (int i = 0; i < 4; ++i) acc[r * P + t] = fmaf(a[r][4 * h + i], xs[i], acc[r * P + t]);
          if constexpr (WITH_C) {
            const float4 w = *reinterpret_cast<const float4*>(base + (KT + t) * p.block_cols);
            const float ws[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
              for (int i = 0; i < 4; ++i) acc[r * P + t] = fmaf(-cc[r][4 * h + i], ws[i], acc[r * P + t]);
          }
        }
        if constexpr (MAGS) {
          float xms[4] = {1, 1, 1, 1};
          if constexpr (WITH_C) {
            const float4 xm = *reinterpret_cast<const float4*>(base + 2 * KT * p.block_cols);
            xms[0] = xm.x, xms[1] = xm.y, xms[2] = xm.z, xms[3] = xm.w;
          }
#pragma unroll
          for (int r = 0; r < R; ++r)
#pragma unroll
            for (int i = 0; i < 4; ++i) {
              const float av = a[r][4 * h + i];
              acc[r * P + KT] = fmaf(fabsf(av), xms[i], acc[r * P + KT]);
              acc[r * P + KT + 1] = fmaf(av, av, acc[r * P + KT + 1]);
              if constexpr (WITH_C) {
                const float cv = cc[r][4 * h + i];
                acc[r * P + KT + 2] += fabsf(cv);
                acc[r * P + KT + 3] = fmaf(cv, cv, acc[r * P + KT + 3]);
              }
            }
        }
      }
      // The 8 lanes' runs, added by a tree (levels over lane bits 4, 2, 1).
      tree_level<S::kV / 2, 4>(acc, lane);
      tree_level<S::kV / 4, 2>(acc, lane);
      tree_level<S::kV / 8, 1>(acc, lane);
      // Lane l8 now holds values [l8 * kSlice, (l8 + 1) * kSlice) of the group's R x P.
      double* d = dacc + (g * R) * P + l8 * S::kSlice;
#pragma unroll
      for (int i = 0; i < S::kSlice; ++i) d[i] += static_cast<double>(acc[i]);
#pragma unroll
      for (int r = 0; r < R; ++r) cur_m[r] = next_m[r], cur_c[r] = next_c[r];
    }
  }
  __syncthreads();
  double b_sq = 0;
  for (int i = threadIdx.x; i < p.tile_rows * S::kValues; i += kTileThreads) {
    const int rl = i / S::kValues, q = i % S::kValues;
    const int64_t row = row0 + rl;
    if (row >= p.rows) continue;
    const double v = dacc[rl * P + q];
    if (q < KT) atomicAdd(p.out + row * p.kpad + q, v);
    else if (q == KT) atomicAdd(p.mag + row, v);
    else if (q == KT + 1) {
      if constexpr (WITH_C) atomicAdd(p.sq_m + row, v);
      else b_sq += v;
    } else if (q == KT + 2) atomicAdd(p.mag_c + row, v);
    else atomicAdd(p.sq_c + row, v);
  }
  if constexpr (MAGS && !WITH_C) {  // ||B||_F^2: one atomic a warp
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) b_sq += __shfl_down_sync(0xffffffffu, b_sq, d);
    if (lane == 0) atomicAdd(p.sq_m, b_sq);
  }
}

}  // namespace racer::freivalds::cuda
