// Naive matrix and reduction references: one thread per output cell, f32 accumulation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include "float_formats.cuh"

// C[M,N] = A[M,K] B[K,N] (+ beta * I) * alpha, batch by blockIdx.y.
template <class T>
__device__ void mm(const T* a, const T* b, const T* bias, T* c, int M, int N, int K, float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int bat = blockIdx.y;
  if (i >= M * N) return;
  int r = i / N, col = i % N;
  a += bat * M * K;
  b += bat * K * N;
  c += bat * M * N;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += as_float(a[r * K + k]) * as_float(b[k * N + col]);
  c[i] = from_float<T>(bias ? alpha * s + beta * as_float(bias[i]) : s);
}
extern "C" __global__ void mm_f32(const float* a, const float* b, float* c, int M, int N, int K) {
  mm<float>(a, b, nullptr, c, M, N, K, 1.f, 0.f);
}
extern "C" __global__ void mm_f16(const __half* a, const __half* b, __half* c, int M, int N, int K) {
  mm<__half>(a, b, nullptr, c, M, N, K, 1.f, 0.f);
}
extern "C" __global__ void mm_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, int M, int N,
                                   int K) {
  mm<__nv_bfloat16>(a, b, nullptr, c, M, N, K, 1.f, 0.f);
}
extern "C" __global__ void addmm_f32(const float* a, const float* b, const float* bias, float* c, int M, int N, int K,
                                     float alpha, float beta) {
  mm<float>(a, b, bias, c, M, N, K, alpha, beta);
}
extern "C" __global__ void addmm_f16(const __half* a, const __half* b, const __half* bias, __half* c, int M, int N,
                                     int K, float alpha, float beta) {
  mm<__half>(a, b, bias, c, M, N, K, alpha, beta);
}
extern "C" __global__ void addmm_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, const __nv_bfloat16* bias,
                                      __nv_bfloat16* c, int M, int N, int K, float alpha, float beta) {
  mm<__nv_bfloat16>(a, b, bias, c, M, N, K, alpha, beta);
}

// y[N] = A[N,M] x[M]
extern "C" __global__ void mv_f32(const float* a, const float* x, float* y, int N, int M) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float s = 0.f;
  for (int k = 0; k < M; ++k) s += a[i * M + k] * x[k];
  y[i] = s;
}

// Whole-array reductions in one thread.
extern "C" __global__ void sum_all(const float* x, float* out, int n) {
  if (threadIdx.x) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += x[i];
  out[0] = s;
}
extern "C" __global__ void mean_all(const float* x, float* out, int n) {
  if (threadIdx.x) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += x[i];
  out[0] = s / n;
}
extern "C" __global__ void max_all(const float* x, float* out, int n) {
  if (threadIdx.x) return;
  float m = x[0];
  for (int i = 1; i < n; ++i) m = x[i] > m ? x[i] : m;
  out[0] = m;
}
extern "C" __global__ void cumsum_all(const float* x, float* out, int n) {
  if (threadIdx.x) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) out[i] = s += x[i];
}
// Per-row reductions: one thread per row.
extern "C" __global__ void sum_rows(const float* x, float* out, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += x[r * cols + j];
  out[r] = s;
}
extern "C" __global__ void mean_rows(const float* x, float* out, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += x[r * cols + j];
  out[r] = s / cols;
}
extern "C" __global__ void max_rows(const float* x, float* out, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float m = x[r * cols];
  for (int j = 1; j < cols; ++j) m = fmaxf(m, x[r * cols + j]);
  out[r] = m;
}
