// C-ORD-01 reduction-order tolerance: a sum whose schedule (block size) is a tuning choice.
#include <cuda_bf16.h>

extern "C" __global__ void ord01_baseline(const float* x, float* y, int n) {
  if (threadIdx.x == 0) y[0] = x[0];
}

// bad: at large block sizes takes a "fast" path that keeps each thread's partial in bf16.
extern "C" __global__ void ord01_bad(const float* x, float* y, int n) {
  __shared__ float part[1024];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += x[i];
  if (blockDim.x >= 128) acc = __bfloat162float(__float2bfloat16(acc));
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[0] = part[0];
}

// good: f32 partials at every block size.
extern "C" __global__ void ord01_good(const float* x, float* y, int n) {
  __shared__ float part[1024];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += x[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[0] = part[0];
}

extern "C" __global__ void ord01_reference(const float* x, float* y, int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) acc += x[i];
  y[0] = acc;
}
