// C-CMP-01 fused-operation equivalence: y = relu(W x + b), fused in one kernel versus the
// sequential composition matvec -> bias -> relu with f32 intermediates. One thread per row.
#include <cuda_bf16.h>

extern "C" __global__ void cmp01_baseline(const float* w, const float* x, const float* b, float* y, int m, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) y[r] = fmaxf(b[r], 0.0f);
}

// bad: the fused kernel keeps its running dot product in bf16 ("it is followed by a relu").
extern "C" __global__ void cmp01_bad(const float* w, const float* x, const float* b, float* y, int m, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  __nv_bfloat16 acc = __float2bfloat16(0.0f);
  for (int j = 0; j < k; ++j) acc = __float2bfloat16(__bfloat162float(acc) + w[r * k + j] * x[j]);
  y[r] = fmaxf(__bfloat162float(acc) + b[r], 0.0f);
}

extern "C" __global__ void cmp01_good(const float* w, const float* x, const float* b, float* y, int m, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc = fmaf(w[r * k + j], x[j], acc);
  y[r] = fmaxf(acc + b[r], 0.0f);
}

// the sequential composition (the reference): three kernels, f32 intermediates in memory.
extern "C" __global__ void cmp01_matvec(const float* w, const float* x, float* t, int m, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc += w[r * k + j] * x[j];
  t[r] = acc;
}
extern "C" __global__ void cmp01_bias(const float* t, const float* b, float* u, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) u[r] = t[r] + b[r];
}
extern "C" __global__ void cmp01_relu(const float* u, float* y, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) y[r] = fmaxf(u[r], 0.0f);
}
