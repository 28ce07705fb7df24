// __activemask(): the lanes of the warp executing it together. Racer answers it where the
// program determines that set (every live lane of the warp reaches it along the same branches,
// none on input data) and refuses it elsewhere. Rows of 32, one warp per row.
#define FULL 0xffffffffu

// Row sums by a shfl.xor butterfly over the lanes __activemask() reports (all 32 here).
extern "C" __global__ void row_sum_activemask(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned m = __activemask();
  float v = x[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(m, v, o);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

// The same with the full mask written out.
extern "C" __global__ void row_sum_full_mask(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

// Bug: the butterfly starts at distance 8, so lane 0 sums only lanes 0..15.
extern "C" __global__ void row_sum_activemask_half(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned m = __activemask();
  float v = x[i];
  for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(m, v, o);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

// x[i] times the number of lanes of its warp that passed the guard i < n.
extern "C" __global__ void scale_by_active_lanes(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * (float)__popc(__activemask());
}

// Reference: the count computed from n.
extern "C" __global__ void scale_by_lanes_below_n(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int warp_start = i & ~31;
  out[i] = x[i] * (float)min(32, n - warp_start);
}

// Bug: assumes every warp is full.
extern "C" __global__ void scale_by_32(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * 32.0f;
}
