#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/skinny_kernels.cuh"
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

__global__ void narrow(const double* in, float* out, int64_t count) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < count) out[i] = static_cast<float>(in[i]);
}

// mags layout: [am | sq_a | cm | sq_c], n each.
__global__ void judge_chunk(const double* y, int kpad, int v0, int valid, int k, int64_t rows, const double* mags,
                            const double* nb2, const ToleranceCoefficients* coef, int* row_failed,
                            unsigned long long* packed, unsigned long long* failing) {
  int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  unsigned long long best = 0;
  if (row < rows) {
    double tol = row_tolerance(*coef, mags[rows + row], *nb2, mags[3 * rows + row], mags[row], mags[2 * rows + row]);
    bool failed = false;
    for (int t = 0; t < valid; ++t) {
      double r = fabs(y[row * kpad + t]);
      bool ok = r <= tol;  // false for NaN
      failed |= !ok;
      double ratio = !isfinite(r) || !isfinite(tol) ? INFINITY : (tol > 0 ? r / tol : (r > 0 ? INFINITY : 0.0));
      unsigned long long bits = __float_as_uint(isinf(ratio) ? INFINITY : static_cast<float>(ratio));
      unsigned long long p = bits << 32 | static_cast<unsigned long long>(row * k + v0 + t);
      best = p > best ? p : best;
    }
    if (failed && atomicExch(row_failed + row, 1) == 0) atomicAdd(failing, 1ull);
  }
  for (int d = 16; d > 0; d >>= 1) {
    unsigned long long o = __shfl_down_sync(0xffffffffu, best, d);
    best = o > best ? o : best;
  }
  if ((threadIdx.x & 31) == 0) atomicMax(packed, best);
}

template <class T, int KT, int ROWS, bool PREFETCH, int LPR, int MINB = 1>
void launch_passes(const T* a, const T* b, const T* c, int64_t n, const float* r, float* x, double* x_acc, double* y_acc,
                   double* mags, double* nb2, bool with_mags, int splits, cudaStream_t s) {
  constexpr int KP = (KT + 3) / 4 * 4;
  constexpr int E = Elements<T>::kPerLoad;
  const int64_t per_split = ((n + splits - 1) / splits + E - 1) / E * E;
  dim3 block(kThreads);
  dim3 grid(static_cast<unsigned>((n + rows_per_block<ROWS, LPR>() - 1) / rows_per_block<ROWS, LPR>()), static_cast<unsigned>(splits));
  PassArgs<T> p1{b, nullptr, n, n, r, nullptr, nullptr, per_split, x_acc, mags + 4 * n, nb2, nullptr, nullptr};
  if (with_mags) skinny_pass<T, KT, false, true, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p1);
  else skinny_pass<T, KT, false, false, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p1);
  narrow<<<static_cast<unsigned>((n * KP + 255) / 256), 256, 0, s>>>(x_acc, x, n * KP);
  PassArgs<T> p2{a, c, n, n, x, r, mags + 4 * n, per_split, y_acc, mags, mags + n, mags + 2 * n, mags + 3 * n};
  if (with_mags) skinny_pass<T, KT, true, true, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p2);
  else skinny_pass<T, KT, true, false, ROWS, PREFETCH, LPR, MINB><<<grid, block, 0, s>>>(p2);
}

#ifdef RACER_FV_ALL_SHAPES
template <class T, int KT>
void by_shape(int shape, const T* a, const T* b, const T* c, int64_t n, const float* r, float* x, double* x_acc,
              double* y_acc, double* mags, double* nb2, bool with_mags, int splits, cudaStream_t s) {
  switch (shape) {
    case 0: return launch_passes<T, KT, 2, false, 1>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    case 1: return launch_passes<T, KT, 2, true, 1>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    case 2: return launch_passes<T, KT, 2, false, 4>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    case 3: return launch_passes<T, KT, 1, false, 4>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    case 4: return launch_passes<T, KT, 2, false, 8>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    case 5: return launch_passes<T, KT, 2, false, 2>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    case 6: return launch_passes<T, KT, 2, false, 2, 4>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    default: return launch_passes<T, KT, 1, false, 2, 6>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
  }
}
#endif

// Every shape for k = 10 (the bench's overhead k); the default shape for the other chunk sizes.
template <class T>
void dispatch(int shape, int kt, const T* a, const T* b, const T* c, int64_t n, const float* r, float* x, double* x_acc,
              double* y_acc, double* mags, double* nb2, bool with_mags, int splits, cudaStream_t s) {
  constexpr int d = std::is_same_v<T, float> ? kDefaultShapeF32 : kDefaultShape16;
  constexpr bool dp = kShapes[d].prefetch;
  constexpr int dr = kShapes[d].rows_per_lane;
  constexpr int dl = kShapes[d].lanes_per_row;
  constexpr int dm = kShapes[d].min_blocks;
  switch (kt) {
    case 4: return launch_passes<T, 4, dr, dp, dl, dm>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
    case 8: return launch_passes<T, 8, dr, dp, dl, dm>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
#ifdef RACER_FV_ALL_SHAPES  // the bench compares shapes; the library builds only the default one
    case 10: return by_shape<T, 10>(shape < 0 ? d : shape, a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
#else
    case 10: return launch_passes<T, 10, dr, dp, dl, dm>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
#endif
    default: return launch_passes<T, 16, dr, dp, dl, dm>(a, b, c, n, r, x, x_acc, y_acc, mags, nb2, with_mags, splits, s);
  }
}

}  // namespace

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
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
    v0 += valid;
  }
  // One workspace, zeroed by one memset per check: magnitudes (5 n), ||B||_F^2, the packed
  // worst entry and failing-row count, per-row failure flags, then X and Y accumulators per chunk.
  const size_t chunk_doubles = static_cast<size_t>(n) * 16 * 2;
  workspace_bytes_ = sizeof(double) * (5 * n + 1) + 2 * sizeof(unsigned long long) + sizeof(int) * n +
                     sizeof(double) * chunk_doubles * chunks_.size();
  char* w = nullptr;
  cuda_check(cudaMalloc(&w, workspace_bytes_), "cudaMalloc(workspace)");
  workspace_ = w;
  mags_ = reinterpret_cast<double*>(w);
  nb2_ = mags_ + 5 * n;
  packed_ = reinterpret_cast<unsigned long long*>(nb2_ + 1);
  failing_ = packed_ + 1;
  row_failed_ = reinterpret_cast<int*>(packed_ + 2);
  double* acc = reinterpret_cast<double*>(w + (workspace_bytes_ - sizeof(double) * chunk_doubles * chunks_.size()));
  for (size_t i = 0; i < chunks_.size(); ++i) {
    chunks_[i].x_acc = acc + i * chunk_doubles;
    chunks_[i].y_acc = chunks_[i].x_acc + static_cast<size_t>(n) * 16;
  }
  cuda_check(cudaMalloc(&x_, sizeof(float) * n * 16), "cudaMalloc");
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

int DeviceCheck::splits_for(int64_t rows, int elements_per_load) const {
  int device = 0, sms = 132;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  int64_t row_blocks = (rows + rows_per_block<2, 1>() - 1) / rows_per_block<2, 1>();
  int64_t want = (16 * sms + row_blocks - 1) / row_blocks;  // many short blocks: a small last wave
  int64_t most = n_ / (4 * elements_per_load);                   // at least 4 loads per lane
  int64_t s = want < most ? want : most;
  return static_cast<int>(s < 1 ? 1 : s);
}

template <class T>
void DeviceCheck::enqueue_typed(const T* a, const T* b, const T* c) {
  const int e = Elements<T>::kPerLoad;
  const int splits = splits_for(n_, e);
  cudaMemsetAsync(workspace_, 0, workspace_bytes_, stream_);
  bool first = true;
  for (const Chunk& ch : chunks_) {
    dispatch<T>(shape_, ch.kt, a, b, c, n_, ch.r, x_, ch.x_acc, ch.y_acc, mags_, nb2_, first, splits, stream_);
    judge_chunk<<<static_cast<unsigned>((n_ + 255) / 256), 256, 0, stream_>>>(
        ch.y_acc, padded(ch.kt), ch.v0, ch.valid, k_, n_, mags_, nb2_, coef_, row_failed_, packed_, failing_);
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
