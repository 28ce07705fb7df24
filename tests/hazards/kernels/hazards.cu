// CUDA kernels of the float hazard instances (tests/hazards): one thread per row of n columns.
#include <cuda_fp16.h>

// Softmax with the row maximum subtracted first: exp never overflows, and the largest term is 1.
extern "C" __global__ void softmax_rows(const float* x, float* y, int n) {
  const float* r = x + threadIdx.x * n;
  float m = r[0];
  for (int j = 1; j < n; ++j) m = fmaxf(m, r[j]);
  float s = 0.f;
  for (int j = 0; j < n; ++j) s += expf(r[j] - m);
  for (int j = 0; j < n; ++j) y[threadIdx.x * n + j] = expf(r[j] - m) / s;
}

// log(sum(exp(x))) with the running maximum taken out: m + log(sum(exp(x - m))).
extern "C" __global__ void logsumexp_stable(const float* x, float* out, int n) {
  const float* r = x + threadIdx.x * n;
  float m = r[0];
  for (int j = 1; j < n; ++j) m = fmaxf(m, r[j]);
  float s = 0.f;
  for (int j = 0; j < n; ++j) s += expf(r[j] - m);
  out[threadIdx.x] = m + logf(s);
}

// The variance as E[x^2] - E[x]^2: one pass, and a cancellation of two large numbers.
extern "C" __global__ void variance_one_pass(const float* x, float* out, int n) {
  const float* r = x + threadIdx.x * n;
  float s = 0.f, s2 = 0.f;
  for (int j = 0; j < n; ++j) {
    s += r[j];
    s2 += r[j] * r[j];
  }
  float mean = s / n;
  out[threadIdx.x] = s2 / n - mean * mean;
}

// A row sum whose accumulator is kept in half precision between additions.
extern "C" __global__ void row_sum_f16_accumulator(const float* x, float* out, int n) {
  const float* r = x + threadIdx.x * n;
  __half acc = __float2half(0.f);
  for (int j = 0; j < n; ++j) acc = __float2half(__half2float(acc) + r[j]);
  out[threadIdx.x] = __half2float(acc);
}

// exp through the fast intrinsic (ex2.approx of x * log2(e)) and through the accurate routine.
extern "C" __global__ void exp_fast(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __expf(x[i]);
}
extern "C" __global__ void exp_accurate(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = expf(x[i]);
}
