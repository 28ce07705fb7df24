#pragma once
// The two passes of a Freivalds check on the GPU, tiled for memory bandwidth (the library's
// kernel; skinny_kernels.cuh keeps the older row-per-lane shapes for the bench's comparison):
//   pass 1 over B:       X = B R,  xm = |B| 1,  ||B||_F^2
//   pass 2 over A and C: Y = A X - C R,  am = |A| xm,  cm = |C| 1,  ||A_i||^2,  ||C_i||^2
//
// Mapping: a CTA owns a tile of rows and a split of the columns. Per block of columns it
// stages the vector entries (X, R, xm) in shared memory once, then its lane groups (8 lanes)
// stream rows: each lane group holds kRows rows, its 8 lanes load 16 contiguous bytes each
// of every row (128 bytes a row, whole cache lines; pass 1 two such segments), and all four
// lane groups of a warp read the same vector entries (one shared-memory wavefront per 16-byte
// load of the warp). Each lane chains 16 terms of each row value in f32 FMAs (its 16-byte
// pieces of A and C, or of B, over one item or, for f32, two consecutive items of the same
// rows: kGpuChainTerms), the 8 lanes' chains are added by a 3-level tree (shuffles that leave
// every lane a slice of the row values, or, SMEM_TREE, the same pairs of lanes added through
// shared memory), and those go into f64 accumulators in shared memory. A lane's loads of the
// next items either sit in register buffers or (ASYNC) are cp.async copies into a ring of
// shared memory, which keeps more bytes in flight without registers (ptxas issues register
// loads only once registers free up, halfway through the previous item); read back from the
// ring, a lane's rows can come in the order that spares the tree its selects
// (tree_level_swapped). Either way the same values reach the same sums. The ring's copies run
// as one stream over the CTA's blocks (the next block's first items are in flight while a
// block ends and its successor's vectors are staged); the register buffers restart per block.
// Rounding model (tolerance.cpp, gpu_check_arithmetic): each term passes through at most 16
// f32 roundings in its chain and 3 in the tree, then f64.
// At the end each CTA adds its rows' values into the outputs (f64 atomics, one per value per
// column split).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "freivalds/cuda/judge.cuh"
#include "freivalds/gpu_arithmetic.hpp"

namespace racer::freivalds::cuda {

constexpr int kTileThreads = 128;
// Threads of a CTA for a staging kind (ASYNC): 0 register buffers and 1 a cp.async ring, 128
// threads; 2 a ring with 256 threads (rows of twice the lane groups share one staging of the
// vectors, so a ring of 4 rows of f32 fits beside them).
__host__ __device__ constexpr int tile_threads(int async) { return async == 2 ? 256 : kTileThreads; }
constexpr int kGroupLanes = kGpuTreeLanes;                    // lanes along the columns of a row group
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
// and, in pass 2, mag and sq of C. ROWS: rows of a lane group (halved above 16 values a row):
// more rows share each vector read, fewer leave registers for more warps. The tree halves the
// group's kRows x kPitch values three times, so their count must be a multiple of 8: kPitch is
// the least such row length, not a power of two (k = 10 with magnitudes: 14 values a row, 56
// for 4 rows, where a pitch of 16 sent 8 unused values through the tree).
// SMEM_TREE: the 8 lanes' chains are added through shared memory (each lane writes its values,
// then sums the 8 copies of one quad of them) rather than by shuffles; same pairing, same sums.
template <int KT, bool WITH_C, bool MAGS, int ROWS, bool SMEM_TREE = false> struct TileShape {
  static constexpr int kValues = KT + (MAGS ? (WITH_C ? 4 : 2) : 0);
  static constexpr int kRows = kValues > 16 && ROWS > 1 ? ROWS / 2 : ROWS;
  static constexpr int kPitch = [] {
    int p = kValues;
    while (kRows * p % kGpuTreeLanes != 0) ++p;
    return p;
  }();
  static constexpr int kV = kRows * kPitch;          // values a lane group reduces at once
  static constexpr int kSlice = kV / kGroupLanes;    // values each lane keeps after the tree
  static constexpr int kVecRows = WITH_C ? 2 * KT + (MAGS ? 1 : 0) : KT;  // staged vector rows
  // 16-byte loads of each row a lane makes per item: pass 1 reads one matrix, so it takes two
  // (its chains are then as long as pass 2's A + C chains, and its tree costs half per element).
  static constexpr int kLoads = WITH_C ? 1 : 2;
  static constexpr int kPieces = kRows * kLoads + (WITH_C ? kRows : 0);  // 16-byte loads a lane makes per item
  // f64 accumulators of a row group in shared memory, [slice entry][lane]: a warp's 4 groups
  // touch 4 runs of 64 bytes; a stride of 16 (mod 32) words (8 mod 16 doubles) spreads them
  // over all banks.
  // With SMEM_TREE the values are added kChunkRows rows at a time (at most 32 values, a quad
  // for each of the 8 lanes), and a chunk's accumulators are 32 doubles: per lane, two pairs,
  // each pair a 16-byte access, 8 lanes' accesses 128 contiguous bytes.
  static constexpr int kChunkRows = kPitch <= 16 && kRows % 2 == 0 ? 2 : 1;
  static constexpr int kChunkValues = kChunkRows * kPitch;
  static constexpr int kChunkQuads = (kChunkValues + 3) / 4;
  static_assert(kChunkQuads <= kGroupLanes, "a chunk has a quad a lane at most");
  static constexpr int kGroupStride = SMEM_TREE ? kRows / kChunkRows * 32 : kV % 16 == 0 ? kV + 8 : kV;
  static_assert(SMEM_TREE || kGroupStride % 16 == 8, "accumulator stride must be 16 words mod 32");
  // Shared-memory scratch of the SMEM_TREE reduction: a lane group's 8 quads x 8 lanes.
  static constexpr int kScratchFloat4s = SMEM_TREE ? kLaneGroups * kGroupLanes * kGroupLanes : 0;
  // Where value v of a row group (v < kRows * kPitch) is accumulated, within its GS doubles.
  __host__ __device__ static constexpr int acc_index(int v) {
    if constexpr (!SMEM_TREE) return v % kSlice * kGroupLanes + v / kSlice;
    const int c = v / kChunkValues, in = v % kChunkValues, quad = in / 4, e = in % 4;
    return c * 32 + e / 2 * 16 + quad * 2 + e % 2;
  }
  static_assert(kV >= kGroupLanes && kV % kGroupLanes == 0, "the tree needs whole slices");
};

template <class T>
struct TileArgs {
  const T* m;           // rows x cols row-major: B (pass 1) or A (pass 2)
  const T* c;           // C (pass 2)
  int64_t rows, cols;   // cols % Load16<T>::kCount == 0
  const float* r;       // cols x kpad (KT rounded up to 4): the vectors R
  const double* x;      // pass 2: cols x kpad, X = B R from pass 1 (rounded to f32 as staged)
  const double* xm;     // pass 2: cols, |B| 1
  int64_t cols_per_split;  // a multiple of block_cols
  int block_cols;          // columns whose vectors are staged at once (a multiple of the unit)
  int tile_rows;           // rows of a CTA (a multiple of kLaneGroups * ROWS)
  double* out;             // rows x kpad (zeroed before; accumulated with atomics)
  double* mag;             // rows: am (pass 2) or xm (pass 1)
  double* sq_m;            // rows: ||A_i||^2 (pass 2); pass 1: ||B||_F^2 at sq_m[0]
  double* mag_c;           // rows: |C| 1
  double* sq_c;            // rows: ||C_i||^2
  bool overlap;            // pass 2 launched as a programmatic dependent of pass 1 (Shape::overlap_passes)
  // Pass 2 with the verdict folded in (Shape::fold_verdict): a counter a tile (zero, left zero),
  // and what the tile's last CTA to finish judges; tile_done null: the verdict is a kernel of its own.
  unsigned* tile_done;
  JudgeArgs judge;
};

// Programmatic dependent launch (sm_90): no-ops in a grid not launched as a dependent.
__device__ inline void let_dependents_launch() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
__device__ inline void wait_for_prerequisite_grid() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// Staged vector rows are block_cols + 4 floats apart: the staging writes (a column's entries
// one after another) then fall in different banks.
__host__ __device__ constexpr int vec_stride(int block_cols) { return block_cols + 4; }

// The cp.async ring starts on a boundary of this many bytes of the shared window, wherever the
// dynamic shared memory begins (after the kernel's static shared memory, whose size varies with
// the code): placed 80 bytes past such a boundary the default kernels ran 7-12% slower, 32 bytes
// past it 1-2.5% slower (bench/freivalds/RESULTS.md run17).
constexpr int kRingAlign = 128;

// Items of a thread's cp.async ring: an item's copy goes into the slots the item DEPTH before it
// was just read from, so DEPTH stages keep DEPTH items in flight while one computes (a stage for
// the computing item as well took 32 KB more a CTA at the default shape for nothing; the space
// went to taller tiles, bench/freivalds/RESULTS.md run19).
__host__ __device__ constexpr int ring_items(int depth) { return depth; }

// ASYNC: a lane's 16-byte pieces of an item are copied into shared memory (cp.async), a ring
// of ring_items(DEPTH) items a thread, instead of loaded into registers.
template <class T, int KT, bool WITH_C, bool MAGS, int ROWS, int DEPTH, bool SMEM_TREE, int ASYNC>
__host__ __device__ constexpr size_t tiled_smem_bytes(int tile_rows, int block_cols) {
  using S = TileShape<KT, WITH_C, MAGS, ROWS, SMEM_TREE>;
  return sizeof(double) * (tile_rows / S::kRows) * S::kGroupStride + sizeof(float) * S::kVecRows * vec_stride(block_cols) +
         16 * S::kScratchFloat4s + (ASYNC ? kRingAlign + 16 * ring_items(DEPTH) * S::kPieces * tile_threads(ASYNC) : 0);
}

// Position of a block's column in the staged vectors. A unit (one item's columns) is LOADS
// segments of 8 lanes x E columns; lane l's column quads (4 columns, 16 bytes of f32 entries)
// are numbered Q = segment * E/4 + quad within its load, and quad Q sits at Q * 32 + 4 l, so
// that a warp's 16-byte reads of one quad are 128 contiguous bytes.
template <int E, int LOADS> __device__ inline int staged_position(int cb) {
  constexpr int unit = kGroupLanes * E * LOADS, segment = kGroupLanes * E;
  const int u = cb / unit, c = cb % unit, j = c / segment, c2 = c % segment;
  return u * unit + (j * (E / 4) + (c2 % E) / 4) * 32 + c2 / E * 4 + c % 4;
}

// One level of the shuffle tree: a lane keeps the half of its values selected by its lane bit
// BIT and adds its partner's copy of that half (compile-time indices keep acc in registers).
// SWAPPED: the halves are whole rows and a lane with BIT set holds its rows in swapped order
// (row_slot_swap), so the half it keeps is already acc[0, HALF) and no selects are needed;
// each lane still adds its own value and then its partner's, the same sums.
template <int HALF, int BIT, bool SWAPPED, int N>
__device__ inline void tree_level(float (&acc)[N], int lane) {
  const bool upper = (lane & BIT) != 0;
#pragma unroll
  for (int i = 0; i < HALF; ++i) {
    if constexpr (SWAPPED) {
      acc[i] = acc[i] + __shfl_xor_sync(0xffffffffu, acc[i + HALF], BIT);
    } else {
      const float send = upper ? acc[i] : acc[i + HALF];
      const float keep = upper ? acc[i + HALF] : acc[i];
      acc[i] = keep + __shfl_xor_sync(0xffffffffu, send, BIT);
    }
  }
}

// Tree level L (1-3, over lane bits 4, 2, 1) can run SWAPPED when its halves are whole rows
// and the rows come from the cp.async ring: reading a lane's own slots in another order costs
// nothing, while loading rows in another order (register buffers) makes each warp-wide load
// span more rows (slower for f32, bench/freivalds/RESULTS.md run9).
template <class S, int L, int ASYNC> __host__ __device__ constexpr bool tree_level_swapped() {
  return ASYNC != 0 && (S::kV >> L) % S::kPitch == 0;
}

// The group row a lane holds in row slot r is r ^ row_slot_swap: rows exchanged by halves for
// each SWAPPED tree level whose lane bit the lane has.
template <class S, int ASYNC> __device__ inline int row_slot_swap(int l8) {
  int swap = 0;
  if constexpr (tree_level_swapped<S, 1, ASYNC>()) swap |= (l8 & 4) ? S::kRows / 2 : 0;
  if constexpr (tree_level_swapped<S, 2, ASYNC>()) swap |= (l8 & 2) ? S::kRows / 4 : 0;
  if constexpr (tree_level_swapped<S, 3, ASYNC>()) swap |= (l8 & 1) ? S::kRows / 8 : 0;
  return swap;
}

// The same sums as the three tree_level calls, through shared memory: per chunk of rows, each
// lane writes its values as quads (quad q of lane l at slot q * 8 + (l + q) % 8: a lane group's
// 16-byte writes of one quad, and its reads of one source lane, fall in 8 different 16-byte
// bank groups), then lane q adds the 8 copies of quad q in the shuffle tree's order (pairs of
// lanes 4 apart, then 2, then 1) and adds them into its accumulators. 2 x 8 16-byte accesses
// and 28 additions a quad, against 7/8 of a shuffle, an addition and two selects a value.
template <class S, int N>
__device__ inline void add_lanes_via_smem(const float (&acc)[N], float4* scratch, double* dacc_group, int l8) {
  static_assert(kGpuTreeLanes == 8 && kGpuTreeLevels == 3, "the sums below are a 3-level tree over 8 lanes");
  constexpr int VC = S::kChunkValues, QC = S::kChunkQuads;
#pragma unroll
  for (int c = 0; c < S::kRows / S::kChunkRows; ++c) {
    __syncwarp();  // the previous chunk's (or item's) reads of the scratch are done
#pragma unroll
    for (int q = 0; q < QC; ++q) {
      float v[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) v[e] = 4 * q + e < VC ? acc[c * VC + 4 * q + e] : 0.0f;
      scratch[q * kGroupLanes + ((l8 + q) & 7)] = make_float4(v[0], v[1], v[2], v[3]);
    }
    __syncwarp();
    if (l8 < QC) {
      float4 s[kGroupLanes];
#pragma unroll
      for (int l = 0; l < kGroupLanes; ++l) s[l] = scratch[l8 * kGroupLanes + ((l + l8) & 7)];
      float o[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        float x[kGroupLanes];
#pragma unroll
        for (int l = 0; l < kGroupLanes; ++l) x[l] = e == 0 ? s[l].x : e == 1 ? s[l].y : e == 2 ? s[l].z : s[l].w;
        o[e] = ((x[0] + x[4]) + (x[2] + x[6])) + ((x[1] + x[5]) + (x[3] + x[7]));
      }
      double2* d = reinterpret_cast<double2*>(dacc_group + c * 32);
      double2 lo = d[l8], hi = d[kGroupLanes + l8];
      lo.x += o[0], lo.y += o[1], hi.x += o[2], hi.y += o[3];
      d[l8] = lo, d[kGroupLanes + l8] = hi;
    }
  }
}

// Registers are capped at 128 a thread (4 CTAs, 16 warps a multiprocessor) except for 4 rows
// of 2-byte elements, which need about 200: uncapped, the unrolled item loop below took
// 140-160 for the f32 passes (3 CTAs), capped it spills at most 24 bytes. With ASYNC copies the
// ring in shared memory allows 3 CTAs of 4 rows (16 KB an item), so 170 registers, and 2 CTAs of
// 256 threads (ASYNC 2: 128 registers; 2-byte elements spill 36 bytes in pass 2; f32 with
// two-item chains 8-24 bytes), or 3 of 2 rows and 1 item ahead (80 registers, run10 trial).
template <class T, int ROWS, int DEPTH, int ASYNC> __host__ __device__ constexpr int tiled_min_ctas() {
  if (ASYNC == 2) return ROWS <= 2 && DEPTH == 1 ? 3 : 2;
  if (ASYNC) return ROWS <= 2 ? 4 : 3;
  if (sizeof(T) == 4 && ROWS <= 2 && DEPTH == 1) return 6;  // run9 trial: 85 registers, 24 warps
  return sizeof(T) == 4 || ROWS <= 2 ? 4 : 1;
}

// Items a lane's chains span (of terms_per_item terms each): as many as kGpuChainTerms allows in
// the 128-register ring instances up to 10 vectors a chunk (f32: 2), else one. Elsewhere the
// chains, live across the next item's loads, spill: the register buffers 300 bytes a thread, 16
// vectors 160, the 80-register 2-row ring 170 (cuobjdump -res-usage, run10).
template <int KT, int terms_per_item, int ASYNC, int MIN_CTAS> __host__ __device__ constexpr int chain_items() {
  return ASYNC == 2 && MIN_CTAS == 2 && KT <= 10 ? kGpuChainTerms / terms_per_item : 1;
}

// cp.async of 16 bytes (zero-filled where `in` is false: nothing is read from `src` then).
// PREFETCH_256: the L2 fetches the 256 bytes around the address, so a lane group's next item in
// the same rows (the next 128 bytes) is in L2 when its copy is issued.
template <bool PREFETCH_256 = false> __device__ inline void copy16_async(uint4* dst, const void* src, bool in) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (PREFETCH_256)
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(in ? 16 : 0) : "memory");
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(in ? 16 : 0) : "memory");
}
__device__ inline void commit_async() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int PENDING> __device__ inline void wait_async() { asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory"); }

// DEPTH: items whose loads are in flight while one item computes (register buffers rotate
// through DEPTH + 1 slots, the item loop unrolled by that much, so no buffer is copied).
template <class T, int KT, bool WITH_C, bool MAGS, int ROWS, int DEPTH, bool SMEM_TREE, int ASYNC>
__global__ void __launch_bounds__(tile_threads(ASYNC), tiled_min_ctas<T, ROWS, DEPTH, ASYNC>()) tiled_pass(TileArgs<T> p) {
  constexpr int THREADS = tile_threads(ASYNC), LANE_GROUPS = THREADS / kGroupLanes;
  static_assert(!SMEM_TREE || THREADS == kTileThreads, "the shared-memory tree's scratch is sized for 128 threads");
  using S = TileShape<KT, WITH_C, MAGS, ROWS, SMEM_TREE>;
  constexpr int E = Load16<T>::kCount, LOADS = S::kLoads, QUADS = LOADS * E / 4;
  constexpr int UNIT = kGroupLanes * E * LOADS;
  constexpr int KP = (KT + 3) / 4 * 4;
  constexpr int R = S::kRows, P = S::kPitch, GS = S::kGroupStride;
  // The tolerance's model of this kernel's rounding (gpu_arithmetic.hpp): chains of this many
  // terms, then the 3-level tree below (tree_level calls, or add_lanes_via_smem).
  // A chain spans CHAIN consecutive items of one row group (the same rows, the next columns).
  constexpr int CHAIN = chain_items<KT, (WITH_C ? 2 : LOADS) * E, ASYNC, tiled_min_ctas<T, ROWS, DEPTH, ASYNC>()>();
  static_assert(CHAIN * (WITH_C ? 2 : LOADS) * E <= kGpuChainTerms, "chains longer than the tolerance's model");
  static_assert(kGpuTreeLevels == 3, "the tree below has 3 levels");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int tile_groups = p.tile_rows / R;
  const int vs = vec_stride(p.block_cols);
  double* dacc = reinterpret_cast<double*>(smem_raw);            // tile_groups x GS
  float* vec = reinterpret_cast<float*>(dacc + tile_groups * GS);  // kVecRows x vs
  float4* scratch = reinterpret_cast<float4*>(vec + S::kVecRows * vs);  // SMEM_TREE: 64 float4 a lane group
  unsigned char* after_scratch = reinterpret_cast<unsigned char*>(scratch + S::kScratchFloat4s);
  const unsigned ring_pad = (kRingAlign - static_cast<unsigned>(__cvta_generic_to_shared(after_scratch)) % kRingAlign) % kRingAlign;
  uint4* ring = reinterpret_cast<uint4*>(after_scratch + ring_pad);  // ASYNC: [stage][piece][thread]
  constexpr int RING = ring_items(DEPTH);
  // f32 -1 to -3% at n = 16384-32768 with the 256-byte L2 fetch; 2-byte elements were slower with
  // it (bench/freivalds/RESULTS.md run22, run19 call 1).
  constexpr bool kPrefetch256 = sizeof(T) == 4;
  const int lane = threadIdx.x & 31, l8 = lane & 7, group = threadIdx.x / kGroupLanes;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * p.tile_rows;
  const int64_t c_begin = static_cast<int64_t>(blockIdx.y) * p.cols_per_split;
  const int64_t c_end = min(p.cols, c_begin + p.cols_per_split);
  // The next grid (pass 2 after pass 1, the verdict after pass 2) may start as this one's CTAs
  // finish; it waits for this grid's completion before reading what this grid writes.
  if (p.overlap) let_dependents_launch();
  for (int i = threadIdx.x; i < tile_groups * GS; i += THREADS) dacc[i] = 0;
  const int my_groups = tile_groups / LANE_GROUPS;
  const int swap = SMEM_TREE ? 0 : row_slot_swap<S, ASYNC>(l8);

  // Whole chains: a short last block's units are padded with zeros to a multiple of CHAIN
  // (blocks are multiples of CHAIN units, launch_tiled, so the padding fits the staging).
  auto valid_of = [&](int64_t b) { return static_cast<int>(min(static_cast<int64_t>(p.block_cols), c_end - b)); };
  auto units_of = [&](int64_t b) {
    if (b >= c_end) return CHAIN;  // past the split's end: positions whose pieces are all outside
    return ((valid_of(b) + UNIT - 1) / UNIT + CHAIN - 1) / CHAIN * CHAIN;
  };
  // An item is a lane group's row group (the gi-th of its own) and a unit of block b's columns;
  // items run unit by unit within a row group, row group by row group within a block, and block
  // after block as one stream, so a block's first loads are in flight while the previous block
  // ends. Positions advance by counting, not by dividing an item index.
  struct ItemPos {
    int64_t b;
    int units, gi, u;
  };
  auto advance = [&](ItemPos& at) {
    if (++at.u < at.units) return;
    at.u = 0;
    if (++at.gi < my_groups) return;
    at.gi = 0, at.b += p.block_cols, at.units = units_of(at.b);
  };
  // The register path's buffers restart with each block: it loads only block_b's items (zeros
  // past them, no traffic), and the block's first DEPTH loads are issued at its start.
  int64_t block_b = c_begin;
  // Visits an item's 16-byte pieces: piece(index, element offset, in bounds). Pieces are
  // numbered r * LOADS + j for the streamed matrix, then R * LOADS + r for C.
  auto for_pieces = [&](const ItemPos& at, auto&& piece) {
    const int64_t first_row = row0 + (group + LANE_GROUPS * at.gi) * R;
    const int64_t col0 = at.b + at.u * UNIT + l8 * E;
    const int64_t offset = first_row * p.cols + col0;  // of the group's first row, this lane's first column
    // Items wholly inside the matrix (all but the edges) skip the per-piece bounds and offsets
    // (ASYNC copies only: the register path's duplicated loads spill 300 bytes).
    if (ASYNC != 0 && first_row + R <= p.rows && col0 + (LOADS - 1) * kGroupLanes * E < c_end) {
      int64_t row_offset = offset;
#pragma unroll
      for (int r = 0; r < R; ++r, row_offset += p.cols)
#pragma unroll
        for (int j = 0; j < LOADS; ++j) piece(r * LOADS + j, row_offset + j * kGroupLanes * E, true);
      return;
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const bool row_in = first_row + r < p.rows && (ASYNC != 0 || at.b == block_b);
#pragma unroll
      for (int j = 0; j < LOADS; ++j) piece(r * LOADS + j, offset + r * p.cols + j * kGroupLanes * E, row_in && col0 + j * kGroupLanes * E < c_end);
    }
  };
  auto load = [&](const ItemPos& at, uint4 (&m)[R][LOADS], uint4 (&c)[R]) {
    for_pieces(at, [&](int k, int64_t at_load, bool in) {
      m[k / LOADS][k % LOADS] = in ? __ldcs(reinterpret_cast<const uint4*>(p.m + at_load)) : make_uint4(0, 0, 0, 0);
      if constexpr (WITH_C) c[k] = in ? __ldcs(reinterpret_cast<const uint4*>(p.c + at_load)) : make_uint4(0, 0, 0, 0);
    });
  };
  // ASYNC: the same pieces copied into ring stage `stage`, one commit group an item (empty
  // past the split's last item, so that the group count stays one an item).
  auto copy = [&](const ItemPos& at, int stage) {
    uint4* slots = ring + stage * S::kPieces * THREADS + threadIdx.x;
    if (at.b < c_end)
      for_pieces(at, [&](int k, int64_t at_load, bool in) {
        copy16_async<kPrefetch256>(slots + k * THREADS, p.m + (in ? at_load : 0), in);
        if constexpr (WITH_C) copy16_async<kPrefetch256>(slots + (R * LOADS + k) * THREADS, p.c + (in ? at_load : 0), in);
      });
    commit_async();
  };
  // Row slot r gets group row r ^ swap (the copies stay in row order, whole lines a warp).
  auto fetch = [&](int stage, uint4 (&m)[R][LOADS], uint4 (&c)[R]) {
    const uint4* slots = ring + stage * S::kPieces * THREADS + threadIdx.x;
#pragma unroll
    for (int k = 0; k < R * LOADS; ++k) m[k / LOADS][k % LOADS] = slots[((k / LOADS ^ swap) * LOADS + k % LOADS) * THREADS];
    if constexpr (WITH_C)
#pragma unroll
      for (int r = 0; r < R; ++r) c[r] = slots[(R * LOADS + (r ^ swap)) * THREADS];
  };
  // An item's terms join the chains in acc: `first` starts them (from 0), `last` ends them (the
  // tree, then the f64 accumulators). The register path's unrolled loop passes constants; the
  // ring's loop zeroes the chains itself and ends them behind a branch.
  auto compute = [&](const ItemPos& at, const uint4 (&cur_m)[R][LOADS], const uint4 (&cur_c)[R], float (&acc)[S::kV], bool first, bool last) {
    const int g = group + LANE_GROUPS * at.gi, u = at.u;
    float a[R][LOADS * E], cc[R][E];
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
      for (int j = 0; j < LOADS; ++j) Load16<T>::widen(cur_m[r][j], *reinterpret_cast<float(*)[E]>(&a[r][j * E]));
      if constexpr (WITH_C) Load16<T>::widen(cur_c[r], cc[r]);
    }
    if (first)
#pragma unroll
      for (int i = 0; i < S::kV; ++i) acc[i] = 0;
#pragma unroll
    for (int q4 = 0; q4 < QUADS; ++q4) {
      const float* base = vec + u * UNIT + q4 * 32 + l8 * 4;
#pragma unroll
      for (int t = 0; t < KT; ++t) {
        const float4 x = *reinterpret_cast<const float4*>(base + t * vs);
        const float xs[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
          for (int i = 0; i < 4; ++i) acc[r * P + t] = fmaf(a[r][4 * q4 + i], xs[i], acc[r * P + t]);
        if constexpr (WITH_C) {
          const float4 w = *reinterpret_cast<const float4*>(base + (KT + t) * vs);
          const float ws[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
          for (int r = 0; r < R; ++r)
#pragma unroll
            for (int i = 0; i < 4; ++i) acc[r * P + t] = fmaf(-cc[r][4 * q4 + i], ws[i], acc[r * P + t]);
        }
      }
      if constexpr (MAGS) {
        float xms[4] = {1, 1, 1, 1};
        if constexpr (WITH_C) {
          const float4 xm = *reinterpret_cast<const float4*>(base + 2 * KT * vs);
          xms[0] = xm.x, xms[1] = xm.y, xms[2] = xm.z, xms[3] = xm.w;
        }
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            const float av = a[r][4 * q4 + i];
            acc[r * P + KT] = fmaf(fabsf(av), xms[i], acc[r * P + KT]);
            acc[r * P + KT + 1] = fmaf(av, av, acc[r * P + KT + 1]);
            if constexpr (WITH_C) {
              const float cv = cc[r][4 * q4 + i];
              acc[r * P + KT + 2] += fabsf(cv);
              acc[r * P + KT + 3] = fmaf(cv, cv, acc[r * P + KT + 3]);
            }
          }
      }
    }
    if (!last) return;
    if constexpr (SMEM_TREE) {
      add_lanes_via_smem<S>(acc, scratch + group * kGroupLanes * kGroupLanes, dacc + g * GS, l8);
    } else {
      // The 8 lanes' chains, added by a tree (levels over lane bits 4, 2, 1).
      tree_level<S::kV / 2, 4, tree_level_swapped<S, 1, ASYNC>()>(acc, lane);
      tree_level<S::kV / 4, 2, tree_level_swapped<S, 2, ASYNC>()>(acc, lane);
      tree_level<S::kV / 8, 1, tree_level_swapped<S, 3, ASYNC>()>(acc, lane);
      // Lane l8 now holds values [l8 * kSlice, (l8 + 1) * kSlice) of the group's R x P.
      double* d = dacc + g * GS + l8;
#pragma unroll
      for (int i = 0; i < S::kSlice; ++i) d[i * kGroupLanes] += static_cast<double>(acc[i]);
    }
  };
  constexpr int SLOTS = ASYNC ? 1 : DEPTH + 1;
  uint4 buf_m[SLOTS][R][LOADS], buf_c[SLOTS][R];
  ItemPos next_load{c_begin, units_of(c_begin), 0, 0};
  ItemPos next_compute = next_load;
  auto load_ahead = [&] {
#pragma unroll
    for (int d = 0; d < DEPTH; ++d) {
      if constexpr (ASYNC != 0) copy(next_load, d);
      else load(next_load, buf_m[d], buf_c[d]);
      advance(next_load);
    }
  };
  load_ahead();
  // Overlapped pass 2: the first loads of A and C need nothing from pass 1, so they are issued
  // before waiting for it (X and xm are read only by the staging below).
  if (WITH_C && p.overlap) wait_for_prerequisite_grid();
  int stage = 0;  // ASYNC: item i sits in ring stage i % RING
  for (int64_t b = c_begin; b < c_end; b += p.block_cols) {
    if (ASYNC == 0 && b != c_begin) {
      block_b = b, next_load = next_compute;
      load_ahead();
    }
    const int valid = valid_of(b);
    const int units = units_of(b);
    const int items = my_groups * units;
    // Stage the block's vector entries (zeros past the last column): consecutive threads read
    // consecutive entries of the column-major X, R (kpad entries a column). A thread's first
    // EARLY entries (4 of 6 at the default shape's 128 columns and 10 vectors; more spill) are
    // read before the barrier, so their latency overlaps the wait for warps still on the
    // previous block.
    constexpr int EARLY = 4;
    const int entries = units * UNIT * KP;
    const int in_entries = valid * KP;  // entries of the block's valid columns (<= entries)
    auto entry_in = [&](int e) { return e < in_entries && e % KP < KT; };
    const double* x_block = p.x + b * KP;
    const float* r_block = p.r + b * KP;
    // Staged values of entry e (X rounded to f32, R): zeros past the block.
    auto x_of = [&](int e) { return WITH_C && entry_in(e) ? static_cast<float>(x_block[e]) : 0.0f; };
    auto r_of = [&](int e) { return entry_in(e) ? r_block[e] : 0.0f; };
    float early_x[EARLY], early_r[EARLY];
#pragma unroll
    for (int i = 0; i < EARLY; ++i) {
      const int e = threadIdx.x + i * THREADS;
      early_x[i] = x_of(e), early_r[i] = r_of(e);
    }
    const float early_xm = WITH_C && MAGS && static_cast<int>(threadIdx.x) < valid ? static_cast<float>(p.xm[b + threadIdx.x]) : 0.0f;
    __syncthreads();  // the previous block's vectors are no longer read
    auto put_entry = [&](int e, float x, float r) {
      const int cb = e / KP, t = e % KP;
      const int pos = staged_position<E, LOADS>(cb);
      if constexpr (WITH_C) vec[t * vs + pos] = x, vec[(KT + t) * vs + pos] = r;
      else vec[t * vs + pos] = r;
    };
#pragma unroll
    for (int i = 0; i < EARLY; ++i) {
      const int e = threadIdx.x + i * THREADS;
      if (e < entries && e % KP < KT) put_entry(e, early_x[i], early_r[i]);
    }
    for (int e = threadIdx.x + EARLY * THREADS; e < entries; e += THREADS)
      if (e % KP < KT) put_entry(e, x_of(e), r_of(e));
    if constexpr (WITH_C && MAGS)
      for (int cb = threadIdx.x; cb < units * UNIT; cb += THREADS)
        vec[2 * KT * vs + staged_position<E, LOADS>(cb)] =
            cb == static_cast<int>(threadIdx.x) ? early_xm : cb < valid ? static_cast<float>(p.xm[b + cb]) : 0.0f;
    __syncthreads();

    if constexpr (ASYNC != 0) {
      // One item an iteration, not a chain's CHAIN items unrolled: the loop is then one item's
      // code with the tree behind a branch, which ptxas keeps in 128 registers without spills
      // (f32 pass 2: no stack, against 64 bytes unrolled; -9 to -11% for f32 at n = 4096-16384,
      // bench/freivalds/RESULTS.md run15/run16).
      for (int item = 0; item < items; item += CHAIN) {
        float acc[S::kV];  // the chains of the rows of CHAIN items
#pragma unroll
        for (int i = 0; i < S::kV; ++i) acc[i] = 0;
#pragma unroll 1
        for (int h = 0; h < CHAIN; ++h) {
          wait_async<DEPTH - 1>();  // this item's group is complete; the DEPTH - 1 after it may not be
          fetch(stage, buf_m[0], buf_c[0]);
          // Item i + DEPTH goes into the stage just read. Only this thread reads its slots, and its
          // reads are issued before the copy, whose writes follow them (program order: the
          // single-thread pipeline pattern, the reads complete long before a global load returns).
          copy(next_load, stage);
          advance(next_load);
          compute(next_compute, buf_m[0], buf_c[0], acc, false, h == CHAIN - 1);
          advance(next_compute);
          stage = stage + 1 == RING ? 0 : stage + 1;
        }
      }
    } else {
      // Unrolled over whole rotations of the buffers and whole chains (items is a multiple of CHAIN).
      constexpr int UNROLL = SLOTS % CHAIN == 0 ? SLOTS : SLOTS * CHAIN;
      for (int item0 = 0; item0 < items; item0 += UNROLL) {
        float acc[S::kV];
#pragma unroll
        for (int i = 0; i < UNROLL; ++i) {
          if (item0 + i >= items) break;  // at a chain's end: items is a multiple of CHAIN
          const int slot = i % SLOTS;
          load(next_load, buf_m[(slot + DEPTH) % SLOTS], buf_c[(slot + DEPTH) % SLOTS]);  // in flight while this one computes
          advance(next_load);
          compute(next_compute, buf_m[slot], buf_c[slot], acc, i % CHAIN == 0, i % CHAIN == CHAIN - 1);
          advance(next_compute);
        }
      }
    }
  }
  if constexpr (ASYNC != 0) wait_async<0>();  // the copies past the split's last item
  __syncthreads();
  double b_sq = 0;
  for (int i = threadIdx.x; i < p.tile_rows * S::kValues; i += THREADS) {
    const int rl = i / S::kValues, q = i % S::kValues;
    const int64_t row = row0 + rl;
    if (row >= p.rows) continue;
    const int v = rl % R * P + q;  // index within the row group's R x P values
    const double val = dacc[rl / R * GS + S::acc_index(v)];
    if (q < KT) atomicAdd(p.out + row * KP + q, val);
    else if (q == KT) atomicAdd(p.mag + row, val);
    else if (q == KT + 1) {
      if constexpr (WITH_C) atomicAdd(p.sq_m + row, val);
      else b_sq += val;
    } else if (q == KT + 2) atomicAdd(p.mag_c + row, val);
    else atomicAdd(p.sq_c + row, val);
  }
  if constexpr (MAGS && !WITH_C) {  // ||B||_F^2: one atomic a warp
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) b_sq += __shfl_down_sync(0xffffffffu, b_sq, d);
    if (lane == 0) atomicAdd(p.sq_m, b_sq);
  }
  if constexpr (WITH_C) {
    if (p.tile_done == nullptr) return;
    // Release this CTA's atomics, count it in; the tile's last CTA acquires them all and judges.
    __threadfence();
    __syncthreads();
    __shared__ bool last_of_tile;
    if (threadIdx.x == 0) last_of_tile = atomicAdd(p.tile_done + blockIdx.x, 1u) == gridDim.y - 1;
    __syncthreads();
    if (!last_of_tile) return;
    __threadfence();
    __shared__ unsigned long long warp_best[THREADS / 32];
    judge_rows(p.judge, row0, min(p.rows, row0 + p.tile_rows), warp_best);
    if (threadIdx.x == 0) p.tile_done[blockIdx.x] = 0;  // every CTA of the tile has counted: ready for the next chunk
  }
}

}  // namespace racer::freivalds::cuda
