#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/judge.cuh"
#include "freivalds/cuda/skinny_kernels.cuh"
#include "freivalds/cuda/tiled_kernels.cuh"
#include "freivalds/random_vectors.hpp"

namespace racer::freivalds::cuda {
namespace {

constexpr int kChunkSizes[] = {4, 8, 10, 16};
int padded(int kt) { return (kt + 3) / 4 * 4; }

__global__ void fill_vectors(float* r, int64_t rows, int kpad, int v0, int valid, int k, uint64_t seed) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= rows * kpad) return;
  int64_t j = i / kpad;
  int t = static_cast<int>(i % kpad);
  r[i] = t < valid ? random_entry(seed, static_cast<uint64_t>(j) * k + v0 + t) : 0.0f;
}

// Everything one chunk's two passes need besides the kernel shape.
template <class T>
struct ChunkPasses {
  const T *a, *b, *c;
  int64_t n;
  const float* r;
  float* x;  // the row-per-lane shapes' X in f32 (the tiled pass 2 rounds x_acc as it stages it)
  double *x_acc, *y_acc, *mags, *nb2;
  bool with_mags;
  unsigned* tile_done;  // zero counters a tile: the verdict is folded into pass 2 (Shape::fold_verdict)
  JudgeArgs judge;
};

constexpr int kMaxTileRows = 128, kMaxBlockCols = 512;
// 256-thread CTAs (tile_threads) take tiles of up to 4 row groups a lane group (512 rows of 4,
// 256 of 2): a staged vector entry serves 512 rows rather than 256, so the passes, which keep the
// L2 at 91-93% of its peak at n = 32768, read half the vector bytes a byte of the matrices (f32 -2
// to -3.5% and bf16 -5 to -10% at n = 16384-32768, bench/freivalds/RESULTS.md run19).
constexpr int max_tile_rows(int async, int rows) { return async == 2 ? 4 * tile_threads(async) / kGroupLanes * rows : kMaxTileRows; }

// Tiles of 128 rows (down to 16 lane groups' rows at small n) and blocks of the shape's
// columns (fewer at small n); column splits chosen for about ctas_per_sm CTAs a multiprocessor.
struct TilePlan {
  int tile_rows, block_cols;
  int64_t cols_per_split;
  unsigned tiles, splits;
};
TilePlan plan_tiles(int64_t n, int unit, int min_tile_rows, int max_tile_rows, const Shape& shape) {
  const int64_t want = static_cast<int64_t>(shape.ctas_per_sm) * multiprocessors();
  auto ctas = [n](int tr, int bc) { return ((n + tr - 1) / tr) * ((n + bc - 1) / bc); };
  TilePlan t{max_tile_rows, shape.block_cols, 0, 0, 0};
  while (t.tile_rows > min_tile_rows && ctas(t.tile_rows, t.block_cols) < want) t.tile_rows /= 2;
  // Blocks of 128 columns at least: 4 (f32) or 2 (16-bit) loads a row group, and each CTA's
  // atomics (one per row value) stay a small fraction of its loads.
  while (t.block_cols > 128 && t.block_cols > unit && ctas(t.tile_rows, t.block_cols) < want) t.block_cols /= 2;
  const int64_t tiles = (n + t.tile_rows - 1) / t.tile_rows, blocks = (n + t.block_cols - 1) / t.block_cols;
  // Whole waves: as many splits as fit in the CTAs asked for (rounding up left a second, mostly
  // empty wave, e.g. 640 CTAs for 528 slots at n = 16384, run7).
  int64_t splits = want / tiles;
  splits = splits < 1 ? 1 : splits > blocks ? blocks : splits;
  t.cols_per_split = ((n + splits - 1) / splits + t.block_cols - 1) / t.block_cols * t.block_cols;
  t.tiles = static_cast<unsigned>(tiles);
  t.splits = static_cast<unsigned>((n + t.cols_per_split - 1) / t.cols_per_split);
  return t;
}

// dependent: launched as a programmatic dependent of the kernel before it on the stream (it
// starts as that kernel's CTAs finish and waits in griddepcontrol.wait for its completion).
template <class... Params, class... Args>
void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem, cudaStream_t s, bool dependent, Args... args) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{grid, block, smem, s, &attr, dependent ? 1u : 0u};
  cuda_check(cudaLaunchKernelEx(&config, kernel, args...), "cudaLaunchKernelEx");
}

template <class T, int KT, bool WITH_C, bool MAGS, int ROWS, int DEPTH, bool TREE, int ASYNC = 0>
void launch_tiled_pass(const TileArgs<T>& args, const TilePlan& plan, cudaStream_t s) {
  const size_t bytes = tiled_smem_bytes<T, KT, WITH_C, MAGS, ROWS, DEPTH, TREE, ASYNC>(args.tile_rows, args.block_cols);
  launch_kernel(tiled_pass<T, KT, WITH_C, MAGS, ROWS, DEPTH, TREE, ASYNC>, dim3(plan.tiles, plan.splits), dim3(tile_threads(ASYNC)), bytes, s,
         WITH_C && args.overlap, args);
}

// The library builds only its default shape's template instances (kDefaultShape); the bench
// also the other tiled shapes', for k = 10.
// The tiled template instance that shape kShapes[D] runs as (rows, items in flight, tree, staging).
template <int D> constexpr int rows_of() { return kShapes[D].rows_per_lane; }
template <int D> constexpr int depth_of() { return kShapes[D].items_in_flight; }
template <int D> constexpr bool tree_of() { return kShapes[D].smem_tree; }
template <int D> constexpr int async_of() { return kShapes[D].async_copies; }
template <int D> bool runs_as(const Shape& sh) { return same_kernels(sh, kShapes[D]); }

// The default shape's pass 2 (the larger) keeps two CTAs a multiprocessor in every format: 228 KB
// of shared memory, 1 KB of it reserved a CTA, and a margin for the kernel's static shared memory.
// Taller tiles or a deeper ring would halve the warps that hide the memory latency (the 512-row
// tiles fit only with the one-stage ring, bench/freivalds/RESULTS.md run19).
template <class T> constexpr size_t default_pass2_smem() {
  constexpr int D = kDefaultShape;
  return tiled_smem_bytes<T, 10, true, true, rows_of<D>(), depth_of<D>(), tree_of<D>(), async_of<D>()>(max_tile_rows(async_of<D>(), rows_of<D>()),
                                                                                                      kShapes[D].block_cols);
}
static_assert(2 * (default_pass2_smem<float>() + 1024 + 256) <= 228 * 1024 && 2 * (default_pass2_smem<__nv_bfloat16>() + 1024 + 256) <= 228 * 1024,
              "the default shape no longer fits two CTAs a multiprocessor");

// Shared memory above 48 KB must be asked for per kernel, and not while a graph is captured:
// done once for the largest tile, when the check is built.
template <class T, int KT, bool WITH_C, bool MAGS, int ROWS, int DEPTH, bool TREE, int ASYNC = 0>
void allow_tiled_smem() {
  const size_t bytes = tiled_smem_bytes<T, KT, WITH_C, MAGS, ROWS, DEPTH, TREE, ASYNC>(max_tile_rows(ASYNC, ROWS), kMaxBlockCols);
  cuda_check(cudaFuncSetAttribute(tiled_pass<T, KT, WITH_C, MAGS, ROWS, DEPTH, TREE, ASYNC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(bytes)),
             "cudaFuncSetAttribute(shared memory)");
}
template <class T, int KT, int ROWS, int DEPTH, bool TREE, int ASYNC = 0>
void allow_tiled_smem_rows() {
  allow_tiled_smem<T, KT, false, false, ROWS, DEPTH, TREE, ASYNC>(), allow_tiled_smem<T, KT, false, true, ROWS, DEPTH, TREE, ASYNC>();
  allow_tiled_smem<T, KT, true, false, ROWS, DEPTH, TREE, ASYNC>(), allow_tiled_smem<T, KT, true, true, ROWS, DEPTH, TREE, ASYNC>();
}
// The same for the template instance shape kShapes[D] runs as.
template <class T, int KT, int D>
void allow_shape_smem() {
  allow_tiled_smem_rows<T, KT, rows_of<D>(), depth_of<D>(), tree_of<D>(), async_of<D>()>();
}

// The bench's other shapes are built for k = 10 only (dispatch below).
template <class T, int KT>
void allow_tiled_smem_all() {
  allow_shape_smem<T, KT, kDefaultShape>();
#ifdef RACER_FV_ALL_SHAPES
  if constexpr (KT == 10) {
    allow_tiled_smem_rows<T, KT, 2, 1, false>(), allow_tiled_smem_rows<T, KT, 4, 1, false>();
    allow_tiled_smem_rows<T, KT, 2, 2, false>(), allow_tiled_smem_rows<T, KT, 4, 2, false>();
    allow_tiled_smem_rows<T, KT, 2, 1, true>(), allow_tiled_smem_rows<T, KT, 4, 1, true>();
    allow_tiled_smem_rows<T, KT, 2, 2, false, 1>(), allow_tiled_smem_rows<T, KT, 2, 3, false, 1>();
    allow_tiled_smem_rows<T, KT, 4, 2, false, 1>(), allow_tiled_smem_rows<T, KT, 4, 3, false, 1>();
    allow_tiled_smem_rows<T, KT, 4, 1, false, 2>(), allow_tiled_smem_rows<T, KT, 2, 2, false, 2>();
    allow_tiled_smem_rows<T, KT, 2, 1, false, 2>();
  }
#endif
}
template <class T>
void allow_tiled_smem_for(int kt) {
  switch (kt) {
    case 4: return allow_tiled_smem_all<T, 4>();
    case 8: return allow_tiled_smem_all<T, 8>();
    case 10: return allow_tiled_smem_all<T, 10>();
    default: return allow_tiled_smem_all<T, 16>();
  }
}

template <class T, int KT, int ROWS, int DEPTH, bool TREE, int ASYNC = 0>
void launch_tiled(const ChunkPasses<T>& q, const Shape& shape, cudaStream_t s) {
  const int64_t n = q.n;
  // Blocks are multiples of the widest chain's columns (pass 1's: 8 lanes x 16 terms of B), so
  // a block's items form whole chains.
  constexpr int kChainColumns = kGroupLanes * kGpuChainTerms;
  constexpr int kGroupRows = tile_threads(ASYNC) / kGroupLanes * ROWS;  // a row group for each lane group
  const TilePlan plan = plan_tiles(n, kChainColumns, kGroupRows, max_tile_rows(ASYNC, ROWS), shape);
  // The kernel pads a short last block to whole chains inside the block's staging: a block that
  // is not whole chains would overrun it (shared memory), so such a plan is refused, not run.
  if (plan.block_cols % kChainColumns != 0 || plan.tile_rows % kGroupRows != 0)
    throw std::runtime_error("tile plan of " + std::to_string(plan.tile_rows) + " rows x " + std::to_string(plan.block_cols) +
                             " columns does not fit the kernel (blocks of whole " + std::to_string(kChainColumns) + "-column chains)");
  TileArgs<T> p1{q.b, nullptr, n, n, q.r, nullptr, nullptr, plan.cols_per_split, plan.block_cols, plan.tile_rows,
                 q.x_acc, q.mags + 4 * n, q.nb2, nullptr, nullptr, shape.overlap_passes, nullptr, q.judge};
  TileArgs<T> p2{q.a, q.c, n, n, q.r, q.x_acc, q.mags + 4 * n, plan.cols_per_split, plan.block_cols, plan.tile_rows,
                 q.y_acc, q.mags, q.mags + n, q.mags + 2 * n, q.mags + 3 * n, shape.overlap_passes,
                 shape.fold_verdict ? q.tile_done : nullptr, q.judge};
  if (q.with_mags) launch_tiled_pass<T, KT, false, true, ROWS, DEPTH, TREE, ASYNC>(p1, plan, s);
  else launch_tiled_pass<T, KT, false, false, ROWS, DEPTH, TREE, ASYNC>(p1, plan, s);
  if (q.with_mags) launch_tiled_pass<T, KT, true, true, ROWS, DEPTH, TREE, ASYNC>(p2, plan, s);
  else launch_tiled_pass<T, KT, true, false, ROWS, DEPTH, TREE, ASYNC>(p2, plan, s);
}

#ifdef RACER_FV_ALL_SHAPES  // the bench compares the older row-per-lane shapes; the library builds only the tiled one
__global__ void narrow(const double* in, float* out, int64_t count) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < count) out[i] = static_cast<float>(in[i]);
}

int row_lane_splits(int64_t n, int elements_per_load) {
  int64_t row_blocks = (n + rows_per_block<2, 1>() - 1) / rows_per_block<2, 1>();
  int64_t want = (16 * multiprocessors() + row_blocks - 1) / row_blocks;  // many short blocks: a small last wave
  int64_t most = n / (4 * elements_per_load);                              // at least 4 loads per lane
  int64_t s = want < most ? want : most;
  return static_cast<int>(s < 1 ? 1 : s);
}

template <class T, int KT, int ROWS, bool PREFETCH, int LPR, int MINB = 1>
void launch_row_lane(const ChunkPasses<T>& q, cudaStream_t s) {
  constexpr int KP = (KT + 3) / 4 * 4;
  constexpr int E = Elements<T>::kPerLoad;
  const int64_t n = q.n;
  const int splits = row_lane_splits(n, E);
  const int64_t per_split = ((n + splits - 1) / splits + E - 1) / E * E;
  dim3 block(kThreads);
  dim3 grid(static_cast<unsigned>((n + rows_per_block<ROWS, LPR>() - 1) / rows_per_block<ROWS, LPR>()), static_cast<unsigned>(splits));
  PassArgs<T> p1{q.b, nullptr, n, n, q.r, nullptr, nullptr, per_split, q.x_acc, q.mags + 4 * n, q.nb2, nullptr, nullptr};
  if (q.with_mags) skinny_pass<T, KT, false, true, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p1);
  else skinny_pass<T, KT, false, false, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p1);
  narrow<<<static_cast<unsigned>((n * KP + 255) / 256), 256, 0, s>>>(q.x_acc, q.x, n * KP);
  PassArgs<T> p2{q.a, q.c, n, n, q.x, q.r, q.mags + 4 * n, per_split, q.y_acc, q.mags, q.mags + n, q.mags + 2 * n, q.mags + 3 * n};
  if (q.with_mags) skinny_pass<T, KT, true, true, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p2);
  else skinny_pass<T, KT, true, false, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p2);
}

template <class T, int KT>
void launch_row_lane_shape(int shape, const ChunkPasses<T>& q, cudaStream_t s) {
  switch (shape) {
    case 0: return launch_row_lane<T, KT, 2, false, 1>(q, s);
    case 1: return launch_row_lane<T, KT, 2, true, 1>(q, s);
    case 2: return launch_row_lane<T, KT, 2, false, 4>(q, s);
    case 3: return launch_row_lane<T, KT, 1, false, 4>(q, s);
    case 4: return launch_row_lane<T, KT, 2, false, 8>(q, s);
    case 5: return launch_row_lane<T, KT, 2, false, 2>(q, s);
    case 6: return launch_row_lane<T, KT, 2, false, 2, 4>(q, s);
    default: return launch_row_lane<T, KT, 1, false, 2, 6>(q, s);
  }
}
#endif

// Launches sh as the template instance of shape kShapes[D], when sh runs as that one.
template <class T, int KT, int D>
bool launch_as(const Shape& sh, const ChunkPasses<T>& q, cudaStream_t s) {
  if (!runs_as<D>(sh)) return false;
  launch_tiled<T, KT, rows_of<D>(), depth_of<D>(), tree_of<D>(), async_of<D>()>(q, sh, s);
  return true;
}

template <class T, int KT>
void launch_shape(int shape, const ChunkPasses<T>& q, cudaStream_t s) {
  const Shape& sh = kShapes[shape];
  // The library's default shape, built for every chunk size.
  if (launch_as<T, KT, kDefaultShape>(sh, q, s)) return;
#ifdef RACER_FV_ALL_SHAPES
  if constexpr (KT == 10) {
    if (sh.tiled && sh.async_copies == 2) {
      if (sh.rows_per_lane == 2 && sh.items_in_flight == 1) return launch_tiled<T, KT, 2, 1, false, 2>(q, sh, s);
      if (sh.rows_per_lane == 2) return launch_tiled<T, KT, 2, 2, false, 2>(q, sh, s);
      return launch_tiled<T, KT, 4, 1, false, 2>(q, sh, s);
    }
    if (sh.tiled && sh.async_copies) {
      if (sh.rows_per_lane == 2) {
        if (sh.items_in_flight == 3) return launch_tiled<T, KT, 2, 3, false, 1>(q, sh, s);
        return launch_tiled<T, KT, 2, 2, false, 1>(q, sh, s);
      }
      if (sh.items_in_flight == 3) return launch_tiled<T, KT, 4, 3, false, 1>(q, sh, s);
      return launch_tiled<T, KT, 4, 2, false, 1>(q, sh, s);
    }
    if (sh.tiled && sh.smem_tree) {
      if (sh.rows_per_lane == 2) return launch_tiled<T, KT, 2, 1, true>(q, sh, s);
      return launch_tiled<T, KT, 4, 1, true>(q, sh, s);
    }
    if (sh.tiled && sh.items_in_flight == 2) {
      if (sh.rows_per_lane == 2) return launch_tiled<T, KT, 2, 2, false>(q, sh, s);
      return launch_tiled<T, KT, 4, 2, false>(q, sh, s);
    }
    if (sh.tiled && sh.rows_per_lane == 2) return launch_tiled<T, KT, 2, 1, false>(q, sh, s);
    if (sh.tiled) return launch_tiled<T, KT, 4, 1, false>(q, sh, s);
    return launch_row_lane_shape<T, KT>(shape, q, s);
  }
#endif
  throw std::runtime_error("kernel shape " + std::to_string(shape) + " is built only into the bench, for k = 10");
}

// The chunk's shape, chosen by enqueue_typed (any shape for k = 10, the bench's overhead k; the
// default shape for the other chunk sizes).
template <class T>
void dispatch(int shape, int kt, const ChunkPasses<T>& q, cudaStream_t s) {
  switch (kt) {
    case 4: return launch_shape<T, 4>(shape, q, s);
    case 8: return launch_shape<T, 8>(shape, q, s);
    case 10: return launch_shape<T, 10>(shape, q, s);
    default: return launch_shape<T, 16>(shape, q, s);
  }
}

}  // namespace

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

int multiprocessors() {
  int device = 0, sms = 132;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return sms;
}

DeviceCheck::DeviceCheck(Format format, int64_t n, int k, uint64_t vector_seed, const ToleranceCoefficients& coef,
                         cudaStream_t stream)
    : format_(format), n_(n), k_(k), stream_(stream), host_coef_(coef) {
  if (n % 16 != 0) throw std::runtime_error("the CUDA backend needs n divisible by 16");
  for (int v0 = 0; v0 < k;) {
    int rem = k - v0, kt = 16;
    for (int size : kChunkSizes)
      if (size >= rem) {
        kt = size;
        break;
      }
    int valid = rem < kt ? rem : kt;
    Chunk ch{v0, kt, valid, nullptr, nullptr, nullptr};
    cuda_check(cudaMalloc(&ch.r, sizeof(float) * n * padded(kt)), "cudaMalloc(R)");
    fill_vectors<<<static_cast<unsigned>((n * padded(kt) + 255) / 256), 256, 0, stream>>>(ch.r, n, padded(kt), v0, valid, k, vector_seed);
    chunks_.push_back(ch);
    switch (format) {
      case Format::BF16: allow_tiled_smem_for<__nv_bfloat16>(kt); break;
      case Format::F16: allow_tiled_smem_for<__half>(kt); break;
      default: allow_tiled_smem_for<float>(kt);
    }
    v0 += valid;
  }
  // One workspace, zeroed by one memset per check: magnitudes (5 n), ||B||_F^2, the packed
  // worst entry and failing-row count, per-row failure flags, pass 2's tile counters (tiles of
  // 16 rows at least; an even count keeps what follows 8-byte aligned), then X and Y
  // accumulators per chunk.
  const size_t chunk_doubles = static_cast<size_t>(n) * 16 * 2;
  const size_t tile_counters = static_cast<size_t>(n / 16 + 2) & ~size_t{1};
  workspace_bytes_ = sizeof(double) * (5 * n + 1) + 2 * sizeof(unsigned long long) + sizeof(int) * n + sizeof(unsigned) * tile_counters +
                     sizeof(double) * chunk_doubles * chunks_.size();
  char* w = nullptr;
  cuda_check(cudaMalloc(&w, workspace_bytes_), "cudaMalloc(workspace)");
  workspace_ = w;
  mags_ = reinterpret_cast<double*>(w);
  nb2_ = mags_ + 5 * n;
  packed_ = reinterpret_cast<unsigned long long*>(nb2_ + 1);
  failing_ = packed_ + 1;
  row_failed_ = reinterpret_cast<int*>(packed_ + 2);
  tile_done_ = reinterpret_cast<unsigned*>(row_failed_ + n);
  double* acc = reinterpret_cast<double*>(w + (workspace_bytes_ - sizeof(double) * chunk_doubles * chunks_.size()));
  for (size_t i = 0; i < chunks_.size(); ++i) {
    chunks_[i].x_acc = acc + i * chunk_doubles;
    chunks_[i].y_acc = chunks_[i].x_acc + static_cast<size_t>(n) * 16;
  }
#ifdef RACER_FV_ALL_SHAPES  // X in f32 for the row-per-lane shapes
  cuda_check(cudaMalloc(&x_, sizeof(float) * n * 16), "cudaMalloc");
#endif
  cuda_check(cudaMalloc(&coef_, sizeof(ToleranceCoefficients)), "cudaMalloc");
  set_coefficients(coef);
  cuda_check(cudaStreamSynchronize(stream), "vector generation");
}

DeviceCheck::~DeviceCheck() {
  if (exec_) cudaGraphExecDestroy(exec_);
  if (graph_) cudaGraphDestroy(graph_);
  for (auto& ch : chunks_) cudaFree(ch.r);
  for (void* p : {workspace_, static_cast<void*>(x_), static_cast<void*>(coef_)}) cudaFree(p);
}

void DeviceCheck::set_coefficients(const ToleranceCoefficients& coef) {
  host_coef_ = coef;
  cuda_check(cudaMemcpyAsync(coef_, &coef, sizeof coef, cudaMemcpyHostToDevice, stream_), "copy coefficients");
  cuda_check(cudaStreamSynchronize(stream_), "copy coefficients");
}

template <class T>
void DeviceCheck::enqueue_typed(const T* a, const T* b, const T* c) {
  cudaMemsetAsync(workspace_, 0, workspace_bytes_, stream_);
  bool first = true;
  for (const Chunk& ch : chunks_) {
    // Other chunk sizes than 10 always use the default shape: the bench's other shapes are built for k = 10 only.
    const int shape = shape_ < 0 || ch.kt != 10 ? default_shape(n_) : shape_;
    const JudgeArgs judge{ch.y_acc, padded(ch.kt), ch.v0, ch.valid, k_, n_, mags_, nb2_, coef_, row_failed_, packed_, failing_};
    dispatch<T>(shape, ch.kt, ChunkPasses<T>{a, b, c, n_, ch.r, x_, ch.x_acc, ch.y_acc, mags_, nb2_, first, tile_done_, judge}, stream_);
    if (!kShapes[shape].fold_verdict)
      launch_kernel(judge_chunk, dim3(static_cast<unsigned>((n_ + kJudgeThreads - 1) / kJudgeThreads)), dim3(kJudgeThreads), 0, stream_,
                    kShapes[shape].overlap_passes, judge);
    first = false;
  }
  cuda_check(cudaGetLastError(), "launching the check kernels");
}

void DeviceCheck::enqueue(const void* a, const void* b, const void* c) {
  switch (format_) {
    case Format::BF16:
      return enqueue_typed(static_cast<const __nv_bfloat16*>(a), static_cast<const __nv_bfloat16*>(b), static_cast<const __nv_bfloat16*>(c));
    case Format::F16:
      return enqueue_typed(static_cast<const __half*>(a), static_cast<const __half*>(b), static_cast<const __half*>(c));
    default:
      return enqueue_typed(static_cast<const float*>(a), static_cast<const float*>(b), static_cast<const float*>(c));
  }
}

void DeviceCheck::capture(const void* a, const void* b, const void* c) {
  cuda_check(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  enqueue(a, b, c);
  cuda_check(cudaStreamEndCapture(stream_, &graph_), "cudaStreamEndCapture");
  cuda_check(cudaGraphInstantiate(&exec_, graph_, 0), "cudaGraphInstantiate");
}

void DeviceCheck::set_shape(int shape) {
  if (shape < -1 || shape >= kShapeCount) throw std::runtime_error("no kernel shape " + std::to_string(shape));
  shape_ = shape;
}

void DeviceCheck::launch() { cuda_check(cudaGraphLaunch(exec_, stream_), "cudaGraphLaunch"); }

DeviceVerdict DeviceCheck::verdict() {
  unsigned long long host[2];
  cuda_check(cudaMemcpyAsync(host, packed_, sizeof host, cudaMemcpyDeviceToHost, stream_), "read the verdict");
  cuda_check(cudaStreamSynchronize(stream_), "the check");
  DeviceVerdict v{};
  v.failing_rows = static_cast<int64_t>(host[1]);
  v.pass = v.failing_rows == 0;
  unsigned long long index = host[0] & 0xffffffffull;
  v.row = static_cast<int64_t>(index / k_);
  v.vector = static_cast<int>(index % k_);
  // Residual and tolerance at the worst entry, recomputed exactly from the device's values.
  const Chunk* ch = &chunks_.back();
  for (const Chunk& c : chunks_)
    if (v.vector >= c.v0 && v.vector < c.v0 + c.valid) ch = &c;
  v.tolerance = row_tolerance(v.row);
  v.ratio = static_cast<double>(__builtin_bit_cast(float, static_cast<uint32_t>(host[0] >> 32)));
  {  // each chunk keeps its residuals
    double y = 0;
    cuda_check(cudaMemcpy(&y, ch->y_acc + v.row * padded(ch->kt) + (v.vector - ch->v0), sizeof y, cudaMemcpyDeviceToHost), "read a residual");
    v.residual = std::fabs(y);
    if (std::isfinite(v.residual) && v.tolerance > 0) v.ratio = v.residual / v.tolerance;
  }
  return v;
}

double DeviceCheck::row_tolerance(int64_t row) {
  double m[4], nb2 = 0;
  for (int i = 0; i < 4; ++i)
    cuda_check(cudaMemcpy(&m[i], mags_ + i * n_ + row, sizeof(double), cudaMemcpyDeviceToHost), "read magnitudes");
  cuda_check(cudaMemcpy(&nb2, nb2_, sizeof nb2, cudaMemcpyDeviceToHost), "read ||B||_F^2");
  return freivalds::row_tolerance(host_coef_, m[1], nb2, m[3], m[0], m[2]);
}

}  // namespace racer::freivalds::cuda
