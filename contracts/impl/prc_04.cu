// C-PRC-04 mixed-precision scaling invariance: a loss-scaled gradient is scaled by s,
// kept, and unscaled; the result must not depend on s.
#include <cuda_fp16.h>

extern "C" __global__ void prc04_baseline(const __half* g, float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}

// bad: keeps the scaled gradient in an f16 buffer. Exact while |g| s < 65504; past it, inf.
extern "C" __global__ void prc04_bad(const __half* g, float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half scaled = __hmul(g[i], __float2half(s));
  y[i] = __half2float(scaled) / s;
}

// good: scales and unscales in f32 (a power-of-two scale is exact there).
extern "C" __global__ void prc04_good(const __half* g, float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float scaled = __half2float(g[i]) * s;
  y[i] = scaled / s;
}

// reference: the unscaled gradient itself.
extern "C" __global__ void prc04_reference(const __half* g, float* y, float s, int n) {
  for (int i = 0; i < n; ++i) y[i] = __half2float(g[i]);
}
