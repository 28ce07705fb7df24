// Atomics: atomicAdd on float and int, atomicMax on int, in global and shared memory, into
// outputs that are zeroed (by the tensor's init or by a zeroing launch) or not.

// out[b] += x[i] for b = i % nb (red.global.add.f32). out must hold zeros.
extern "C" __global__ void bucket_sum_atomic(const float* x, float* out, int n, int nb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[i % nb], x[i]);
}

// Reference: one thread per bucket sums x[b], x[b + nb], ...
extern "C" __global__ void bucket_sum_seq(const float* x, float* out, int n, int nb) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  float s = 0.f;
  for (int j = b; j < n; j += nb) s += x[j];
  out[b] = s;
}

// Zero-fill launch.
extern "C" __global__ void fill_zero(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.f;
}

// Integer histogram of concrete bin indices: bins[idx[i]] += 1 (red.global.add.u32).
extern "C" __global__ void hist_atomic(const int* idx, int* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[idx[i]], 1);
}

// Reference histogram: one thread per bin counts matches.
extern "C" __global__ void hist_seq(const int* idx, int* bins, int n, int nb) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  int c = 0;
  for (int j = 0; j < n; ++j) c += idx[j] == b ? 1 : 0;
  bins[b] = c;
}

// Number of positive elements: every thread adds 0 or 1 into cnt[0] (int atomic of a
// data-dependent value). cnt must hold zero.
extern "C" __global__ void count_pos_atomic(const float* x, int* cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(cnt, x[i] > 0.f ? 1 : 0);
}

// Bug: counts x >= 0, i.e. also exact zeros.
extern "C" __global__ void count_nonneg_atomic(const float* x, int* cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(cnt, x[i] >= 0.f ? 1 : 0);
}

// Reference: one thread counts.
extern "C" __global__ void count_pos_one_thread(const float* x, int* cnt, int n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  int c = 0;
  for (int j = 0; j < n; ++j) c += x[j] > 0.f ? 1 : 0;
  cnt[0] = c;
}

// Segment maximum of concrete integers: out[seg[i]] = max(out[seg[i]], v[i])
// (atom.global.max.s32). out must hold INT_MIN (or anything below every value).
extern "C" __global__ void seg_max_atomic(const int* v, const int* seg, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(&out[seg[i]], v[i]);
}

// Reference: one thread per segment, starting from INT_MIN.
extern "C" __global__ void seg_max_seq(const int* v, const int* seg, int* out, int n, int ns) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= ns) return;
  int m = -2147483647 - 1;
  for (int j = 0; j < n; ++j) if (seg[j] == s) m = v[j] > m ? v[j] : m;
  out[s] = m;
}

// Row sums with a shared accumulator: thread 0 zeroes it, barrier, every thread adds its
// strided elements with atom.shared.add.f32, barrier, thread 0 stores.
extern "C" __global__ void row_sum_smem_atomic(const float* x, float* out, int cols) {
  __shared__ float acc;
  int r = blockIdx.x;
  if (threadIdx.x == 0) acc = 0.f;
  __syncthreads();
  for (int j = threadIdx.x; j < cols; j += blockDim.x) atomicAdd(&acc, x[r * cols + j]);
  __syncthreads();
  if (threadIdx.x == 0) out[r] = acc;
}

// f16 buckets: out[b] += x[i] for b = i % nb with atomicAdd on __half (atom.add.noftz.f16).
#include <cuda_fp16.h>
extern "C" __global__ void bucket_sum_atomic_f16(const __half* x, __half* out, int n, int nb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[i % nb], x[i]);
}

extern "C" __global__ void bucket_sum_seq_f16(const __half* x, __half* out, int n, int nb) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  __half s = __float2half(0.f);
  for (int j = b; j < n; j += nb) s = __hadd(s, x[j]);
  out[b] = s;
}

// A slip: the bucket of i taken as i / nb (contiguous blocks of the input) where i % nb was meant.
extern "C" __global__ void bucket_sum_atomic_f16_blocked(const __half* x, __half* out, int n, int nb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[(i / (n / nb)) % nb], x[i]);
}
