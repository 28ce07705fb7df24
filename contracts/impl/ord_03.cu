// C-ORD-03 communication overlap: K "ranks" (CTAs) each reduce their shard; an all-reduce
// step combines the K partials. The result must not depend on K beyond the stated bound.
#include <cuda_bf16.h>

__device__ float shard_sum(const float* x, int shard) {
  __shared__ float part[256];
  const float* xs = x + blockIdx.x * shard;
  float acc = 0.0f;
  for (int i = threadIdx.x; i < shard; i += blockDim.x) acc += xs[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  return part[0];
}

extern "C" __global__ void ord03_baseline_reduce(const float* x, float* partials, int shard) {
  if (threadIdx.x == 0) partials[blockIdx.x] = 0.0f;
}

// bad: a compressed all-reduce sends each rank's partial as bf16.
extern "C" __global__ void ord03_bad_reduce(const float* x, float* partials, int shard) {
  float s = shard_sum(x, shard);
  if (threadIdx.x == 0) partials[blockIdx.x] = __bfloat162float(__float2bfloat16(s));
}

extern "C" __global__ void ord03_good_reduce(const float* x, float* partials, int shard) {
  float s = shard_sum(x, shard);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// the all-reduce: partials combined in rank order.
extern "C" __global__ void ord03_allreduce(const float* partials, float* y, int ranks) {
  float acc = 0.0f;
  for (int r = 0; r < ranks; ++r) acc += partials[r];
  y[0] = acc;
}

extern "C" __global__ void ord03_reference(const float* x, float* y, int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) acc += x[i];
  y[0] = acc;
}
