// C-PRC-01 accumulator preservation: sum of f16 values with a declared f32 accumulator.
// One CTA; each thread sums a strided slice, then a shared-memory tree combines the partials.
#include <cuda_fp16.h>

// baseline: writes zero (fails any visible test).
extern "C" __global__ void prc01_baseline(const __half* x, float* y, int n) {
  if (threadIdx.x == 0) y[0] = 0.0f;
}

// bad: accumulates in f16. Small sums look right; sums past 65504 saturate to inf.
extern "C" __global__ void prc01_bad(const __half* x, float* y, int n) {
  __shared__ __half part[256];
  __half acc = __float2half(0.0f);
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc = __hadd(acc, x[i]);
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] = __hadd(part[threadIdx.x], part[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) y[0] = __half2float(part[0]);
}

// good: converts each input and accumulates in f32, as declared.
extern "C" __global__ void prc01_good(const __half* x, float* y, int n) {
  __shared__ float part[256];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += __half2float(x[i]);
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[0] = part[0];
}

// reference: the operator as written in the contract, one thread, in order. Its real function
// (the exact oracle) is the exact sum.
extern "C" __global__ void prc01_reference(const __half* x, float* y, int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) acc += __half2float(x[i]);
  y[0] = acc;
}
