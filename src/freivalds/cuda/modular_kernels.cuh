#pragma once
// The kernels of the exact check of an integer product (s8/u8 A and B, int32 C) modulo
// p = 2^61 - 1, in the arithmetic of modular_arith.hpp (the CPU check's):
//   pass 1 over B:       X = B R mod p          (one partial sum per column split)
//   sum_splits:          X's partials added, X split into 21-bit parts for pass 2
//   pass 2 over A and C: Y = A X - C R mod p    (one partial sum per column split)
//   judge_modular:       Y's partials added; a row passes iff all its entries are 0
//
// Mapping: a lane owns a row (a warp 32 rows, a CTA 128) and walks a split of its columns
// 16 at a time: 16 bytes of an 8-bit row (the rest of the 32-byte sector is the next load) and,
// in pass 2, the 64 bytes of the int32 row of C over the same columns (four 16-byte loads). All lanes
// of a warp are at the same column, so the vector entries they multiply are one address for
// the whole warp (a broadcast load, held in L1). Each product value x part (|value| <= 2^31,
// part < 2^21) is one 32 x 32 -> 64-bit multiply-add into a SplitSum; every kFoldColumns
// columns the sums are folded into residues (modular_arith.hpp proves the bound).
// What bounds the speed is, presumably, those vector loads: a warp-uniform 16-byte load still
// delivers 16 bytes to each of 32 lanes. Measured (bench/freivalds/RESULTS.md, mod2): the
// same kernels with exact f64 FMAs of 16-bit parts (32 bytes of parts a column-vector against
// these 12) ran 2x slower although the H200's f64 pipe outruns its 64-bit integer one.
#include <cstdint>

#include "freivalds/modular_arith.hpp"

namespace racer::freivalds::cuda {

constexpr int kModThreads = 128;  // rows a CTA
constexpr int kModStep = 32;      // columns a lane takes per step (n % kModStep == 0)
// Columns of one loop iteration: half a step, the other 16 bytes of the sector come next (mod2:
// 4.97 ms at n = 16384 against 5.83 with whole steps unrolled, fewer registers).
constexpr int kModHalfStep = 16;
static_assert(kFoldColumns % kModStep == 0, "folds fall between steps");

// Vector entry (col, v) of a chunk of kp vectors (kp a multiple of 4), as parts: part q at
// parts[(col * kParts + q) * kp + v], so one 16-byte load reads a part of 4 vectors.
__host__ __device__ constexpr int padded_vectors(int kt) { return (kt + 3) / 4 * 4; }

struct ModPassArgs {
  const uint8_t* m;   // rows x cols: B (pass 1) or A (pass 2)
  const int32_t* c;   // rows x cols: C (pass 2)
  const uint32_t* v;  // parts of the vectors m multiplies: R (pass 1) or X (pass 2)
  const uint32_t* w;  // parts of R, which C multiplies (pass 2)
  int64_t rows, cols, cols_per_split;
  uint64_t* partial;  // splits x rows x kp residues: this split's share of M V (- C W)
};

template <bool SIGNED>
__device__ __forceinline__ int32_t byte_value(uint32_t word, int e) {
  return SIGNED ? static_cast<int32_t>(word << (24 - 8 * e)) >> 24 : static_cast<int32_t>((word >> (8 * e)) & 0xffu);
}

// sum[v] += (or -=) value * entry (col, v) for the KT vectors of a chunk.
template <int KT, bool SUBTRACT>
__device__ __forceinline__ void add_column(SplitSum (&sum)[KT], int32_t value, const uint32_t* col_parts) {
  constexpr int KP = padded_vectors(KT);
  uint32_t part[kParts][KP];
#pragma unroll
  for (int q = 0; q < kParts; ++q)
#pragma unroll
    for (int g = 0; g < KP / 4; ++g) {
      const uint4 u = __ldg(reinterpret_cast<const uint4*>(col_parts + q * KP) + g);
      const auto* e = reinterpret_cast<const uint32_t*>(&u);
#pragma unroll
      for (int i = 0; i < 4; ++i) part[q][g * 4 + i] = e[i];
    }
#pragma unroll
  for (int v = 0; v < KT; ++v) {
    if (SUBTRACT) sum[v].sub(value, part[0][v], part[1][v], part[2][v]);
    else sum[v].add(value, part[0][v], part[1][v], part[2][v]);
  }
}

// rows must be whole: cols % kModStep == 0, and the rows 16-byte aligned. The explicit minimum of
// one CTA a multiprocessor is the build mod2 measured (nvcc allocates registers differently
// without it; 132-156 registers either way, 3 CTAs a multiprocessor).
template <int KT, bool SIGNED, bool WITH_C>
__global__ void __launch_bounds__(kModThreads, 1) modular_pass(ModPassArgs a) {
  constexpr int KP = padded_vectors(KT), kStride = kParts * KP;
  const int64_t row = blockIdx.x * static_cast<int64_t>(kModThreads) + threadIdx.x;
  if (row >= a.rows) return;
  const int64_t c0 = blockIdx.y * a.cols_per_split;
  const int64_t c1 = c0 + a.cols_per_split < a.cols ? c0 + a.cols_per_split : a.cols;
  const uint8_t* m_row = a.m + row * a.cols;
  const int32_t* c_row = WITH_C ? a.c + row * a.cols : nullptr;
  uint64_t total[KT];
#pragma unroll
  for (int v = 0; v < KT; ++v) total[v] = 0;
  for (int64_t f0 = c0; f0 < c1; f0 += kFoldColumns) {
    const int64_t f1 = f0 + kFoldColumns < c1 ? f0 + kFoldColumns : c1;
    SplitSum sum[KT];
#pragma unroll 1
    for (int64_t col = f0; col < f1; col += kModHalfStep) {
      const uint4 mw = __ldcs(reinterpret_cast<const uint4*>(m_row + col));  // streamed: read once
      const uint32_t words[4] = {mw.x, mw.y, mw.z, mw.w};
#pragma unroll
      for (int e = 0; e < kModHalfStep; ++e)
        add_column<KT, false>(sum, byte_value<SIGNED>(words[e / 4], e % 4), a.v + (col + e) * kStride);
      if constexpr (WITH_C) {
#pragma unroll
        for (int h = 0; h < kModHalfStep / 4; ++h) {
          const uint4 cw = __ldcs(reinterpret_cast<const uint4*>(c_row + col) + h);
          const int32_t cv[4] = {static_cast<int32_t>(cw.x), static_cast<int32_t>(cw.y), static_cast<int32_t>(cw.z),
                                 static_cast<int32_t>(cw.w)};
#pragma unroll
          for (int t = 0; t < 4; ++t) add_column<KT, true>(sum, cv[t], a.w + (col + 4 * h + t) * kStride);
        }
      }
    }
#pragma unroll
    for (int v = 0; v < KT; ++v) total[v] = mod_add(total[v], sum[v].residue());
  }
  uint64_t* out = a.partial + (blockIdx.y * a.rows + row) * KP;
#pragma unroll
  for (int v = 0; v < KP; ++v) out[v] = v < KT ? total[v] : 0;
}

// R's entries for vectors v0 .. v0 + valid - 1 of k, as parts; the padding vectors are 0.
__global__ void fill_random_parts(uint32_t* parts, int64_t rows, int kp, int v0, int valid, int k, uint64_t seed) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= rows * kp) return;
  const int64_t j = i / kp;
  const int t = static_cast<int>(i % kp);
  const uint64_t x = t < valid ? modular_random_residue(seed, static_cast<uint64_t>(j) * k + v0 + t) : 0;
  for (int q = 0; q < kParts; ++q) parts[(j * kParts + q) * kp + t] = residue_part(x, q);
}

__device__ __forceinline__ uint64_t sum_of_splits(const uint64_t* partial, int splits, int64_t rows, int kp, int64_t row, int t) {
  uint64_t s = 0;
  for (int i = 0; i < splits; ++i) s = mod_add(s, partial[(i * rows + row) * kp + t]);
  return s;
}

// X = the sum of pass 1's splits, stored as parts for pass 2.
__global__ void sum_splits(const uint64_t* partial, int splits, int64_t rows, int kp, uint32_t* parts) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= rows * kp) return;
  const int64_t row = i / kp;
  const int t = static_cast<int>(i % kp);
  const uint64_t x = sum_of_splits(partial, splits, rows, kp, row, t);
  for (int q = 0; q < kParts; ++q) parts[(row * kParts + q) * kp + t] = residue_part(x, q);
}

// Y = the sum of pass 2's splits (kept in y, rows x kp); a nonzero entry fails its row. The
// first failing entry in the CPU's order (row, then vector) is the smallest row k + vector.
__global__ void judge_modular(const uint64_t* partial, int splits, int64_t rows, int kp, int v0, int valid, int k, uint64_t* y,
                              int* row_failed, unsigned long long* first_bad, unsigned long long* failing_rows) {
  const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row >= rows) return;
  int first = -1;
  for (int t = 0; t < valid; ++t) {
    const uint64_t d = sum_of_splits(partial, splits, rows, kp, row, t);
    y[row * kp + t] = d;
    if (d != 0 && first < 0) first = t;
  }
  if (first < 0) return;
  atomicMin(first_bad, static_cast<unsigned long long>(row) * k + v0 + first);
  if (atomicExch(row_failed + row, 1) == 0) atomicAdd(failing_rows, 1ull);
}

}  // namespace racer::freivalds::cuda
