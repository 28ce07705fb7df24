#include <stdexcept>
#include <string>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/modular_check.cuh"
#include "freivalds/cuda/modular_kernels.cuh"

namespace racer::freivalds::cuda {
namespace {

// Vectors a chunk: each size is a build of the passes; k = 10 is the measured case.
constexpr int kModChunkSizes[] = {4, 8, 10};
constexpr int kMaxChunk = 10;
constexpr int kMaxPadded = padded_vectors(kMaxChunk);

unsigned blocks_for(int64_t count, int threads) { return static_cast<unsigned>((count + threads - 1) / threads); }

template <int KT, bool SIGNED, bool WITH_C>
void launch_pass(const ModPassArgs& args, int splits, cudaStream_t s) {
  modular_pass<KT, SIGNED, WITH_C><<<dim3(blocks_for(args.rows, kModThreads), static_cast<unsigned>(splits)), kModThreads, 0, s>>>(args);
}

template <bool SIGNED, bool WITH_C>
void launch_pass_kt(int kt, const ModPassArgs& args, int splits, cudaStream_t s) {
  switch (kt) {
    case 4: return launch_pass<4, SIGNED, WITH_C>(args, splits, s);
    case 8: return launch_pass<8, SIGNED, WITH_C>(args, splits, s);
    default: return launch_pass<10, SIGNED, WITH_C>(args, splits, s);
  }
}

// CTAs of pass 2 (the longer pass) that fit on a multiprocessor at once.
int pass2_ctas_per_sm(int kt, bool is_signed) {
  int blocks = 1;
  auto ask = [&](auto kernel) { cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kModThreads, 0); };
  switch (kt) {
    case 4: is_signed ? ask(modular_pass<4, true, true>) : ask(modular_pass<4, false, true>); break;
    case 8: is_signed ? ask(modular_pass<8, true, true>) : ask(modular_pass<8, false, true>); break;
    default: is_signed ? ask(modular_pass<10, true, true>) : ask(modular_pass<10, false, true>);
  }
  return blocks < 1 ? 1 : blocks;
}

}  // namespace

ModularDeviceCheck::ModularDeviceCheck(bool is_signed, int64_t n, int k, uint64_t vector_seed, cudaStream_t stream)
    : signed_(is_signed), n_(n), k_(k), stream_(stream) {
  if (n % kModStep != 0) throw std::runtime_error("the CUDA exact check needs n divisible by " + std::to_string(kModStep));
  for (int v0 = 0; v0 < k;) {
    const int rem = k - v0;
    int kt = kMaxChunk;
    for (int size : kModChunkSizes)
      if (size >= rem) {
        kt = size;
        break;
      }
    const int valid = rem < kt ? rem : kt, kp = padded_vectors(kt);
    Chunk ch{v0, kt, valid, nullptr, nullptr, nullptr};
    cuda_check(cudaMalloc(&ch.r_parts, sizeof(uint32_t) * n * kParts * kp), "cudaMalloc(R)");
    cuda_check(cudaMalloc(&ch.x_parts, sizeof(uint32_t) * n * kParts * kp), "cudaMalloc(X)");
    cuda_check(cudaMalloc(&ch.y, sizeof(uint64_t) * n * kp), "cudaMalloc(Y)");
    fill_random_parts<<<blocks_for(n * kp, 256), 256, 0, stream>>>(ch.r_parts, n, kp, v0, valid, k, vector_seed);
    cuda_check(cudaGetLastError(), "fill_random_parts");
    chunks_.push_back(ch);
    v0 += valid;
  }
  // Column splits: one wave of CTAs that fills every multiprocessor (a lane a row leaves few row
  // tiles at small n), whole steps each.
  const int64_t tiles = (n + kModThreads - 1) / kModThreads,
                want = static_cast<int64_t>(pass2_ctas_per_sm(chunks_.front().kt, is_signed)) * multiprocessors();
  int64_t splits = want / tiles;
  splits = splits < 1 ? 1 : splits > n / kModStep ? n / kModStep : splits;
  cols_per_split_ = ((n + splits - 1) / splits + kModStep - 1) / kModStep * kModStep;
  splits_ = static_cast<int>((n + cols_per_split_ - 1) / cols_per_split_);
  cuda_check(cudaMalloc(&partial_, sizeof(uint64_t) * splits_ * n * kMaxPadded), "cudaMalloc(partial sums)");
  flags_bytes_ = sizeof(unsigned long long) + sizeof(int) * n;
  cuda_check(cudaMalloc(&flags_, flags_bytes_), "cudaMalloc(flags)");
  cuda_check(cudaMalloc(&first_bad_, sizeof(unsigned long long)), "cudaMalloc");
  cuda_check(cudaStreamSynchronize(stream), "vector generation");
}

ModularDeviceCheck::~ModularDeviceCheck() {
  if (exec_) cudaGraphExecDestroy(exec_);
  if (graph_) cudaGraphDestroy(graph_);
  for (auto& ch : chunks_)
    for (void* p : {static_cast<void*>(ch.r_parts), static_cast<void*>(ch.x_parts), static_cast<void*>(ch.y)}) cudaFree(p);
  for (void* p : {static_cast<void*>(partial_), flags_, static_cast<void*>(first_bad_)}) cudaFree(p);
}

void ModularDeviceCheck::enqueue(const uint8_t* a, const uint8_t* b, const int32_t* c) {
  cudaMemsetAsync(flags_, 0, flags_bytes_, stream_);
  cudaMemsetAsync(first_bad_, 0xff, sizeof(unsigned long long), stream_);
  auto* failing = static_cast<unsigned long long*>(flags_);
  auto* row_failed = reinterpret_cast<int*>(failing + 1);
  for (const Chunk& ch : chunks_) {
    const int kp = padded_vectors(ch.kt);
    ModPassArgs p1{b, nullptr, ch.r_parts, nullptr, n_, n_, cols_per_split_, partial_};
    if (signed_) launch_pass_kt<true, false>(ch.kt, p1, splits_, stream_);
    else launch_pass_kt<false, false>(ch.kt, p1, splits_, stream_);
    sum_splits<<<blocks_for(n_ * kp, 256), 256, 0, stream_>>>(partial_, splits_, n_, kp, ch.x_parts);
    ModPassArgs p2{a, c, ch.x_parts, ch.r_parts, n_, n_, cols_per_split_, partial_};
    if (signed_) launch_pass_kt<true, true>(ch.kt, p2, splits_, stream_);
    else launch_pass_kt<false, true>(ch.kt, p2, splits_, stream_);
    judge_modular<<<blocks_for(n_, 256), 256, 0, stream_>>>(partial_, splits_, n_, kp, ch.v0, ch.valid, k_, ch.y, row_failed,
                                                            first_bad_, failing);
  }
  cuda_check(cudaGetLastError(), "launching the exact check's kernels");
}

void ModularDeviceCheck::capture(const uint8_t* a, const uint8_t* b, const int32_t* c) {
  cuda_check(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  enqueue(a, b, c);
  cuda_check(cudaStreamEndCapture(stream_, &graph_), "cudaStreamEndCapture");
  cuda_check(cudaGraphInstantiate(&exec_, graph_, 0), "cudaGraphInstantiate");
}

void ModularDeviceCheck::launch() { cuda_check(cudaGraphLaunch(exec_, stream_), "cudaGraphLaunch"); }

ModularVerdict ModularDeviceCheck::verdict() {
  unsigned long long failing = 0, first = 0;
  cuda_check(cudaMemcpyAsync(&failing, flags_, sizeof failing, cudaMemcpyDeviceToHost, stream_), "read the verdict");
  cuda_check(cudaMemcpyAsync(&first, first_bad_, sizeof first, cudaMemcpyDeviceToHost, stream_), "read the verdict");
  cuda_check(cudaStreamSynchronize(stream_), "the exact check");
  ModularVerdict v{failing == 0, -1, -1, 0, static_cast<int64_t>(failing)};
  if (v.pass) return v;
  v.first_bad_row = static_cast<int64_t>(first / k_);
  v.first_bad_vector = static_cast<int>(first % k_);
  for (const Chunk& ch : chunks_)
    if (v.first_bad_vector >= ch.v0 && v.first_bad_vector < ch.v0 + ch.valid)
      cuda_check(cudaMemcpy(&v.first_bad_residual, ch.y + v.first_bad_row * padded_vectors(ch.kt) + (v.first_bad_vector - ch.v0),
                            sizeof(uint64_t), cudaMemcpyDeviceToHost),
                 "read a residual");
  return v;
}

}  // namespace racer::freivalds::cuda
