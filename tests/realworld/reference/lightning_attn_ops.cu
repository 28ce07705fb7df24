// Naive references for lightning_attn's Triton kernels (Lightning Attention-2: causal linear attention with
// a per-head exponential decay, with and without decay, forward and backward; the weightless RMS norm):
// one thread per row, textbook formulas, f32 accumulation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include "float_formats.cuh"

// The weight of key j for query i >= j: exp(-s (i - j)) with the head's decay rate s, 1 without decay.
__device__ float decay_weight(const float* s, int head, int decay, int i, int j) {
  return decay ? expf(-s[head] * (float)(i - j)) : 1.f;
}

// Causal linear attention, q, k [BH][n][d], v, o [BH][n][e], s [H] (head bh % H):
// o[i] = sum_{j <= i} <q_i, k_j> w(i, j) v_j. One thread per (bh, i).
template <typename T>
__device__ void linear_attn_fwd(const T* q, const T* k, const T* v, const float* s, T* o, int BH, int H, int n,
                                int d, int e, int decay) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= BH * n) return;
  int bh = t / n, i = t % n;
  const T* Q = q + bh * n * d;
  const T* K = k + bh * n * d;
  const T* V = v + bh * n * e;
  for (int c = 0; c < e; ++c) {
    float acc = 0.f;
    for (int j = 0; j <= i; ++j) {
      float qk = 0.f;
      for (int x = 0; x < d; ++x) qk += as_float(Q[i * d + x]) * as_float(K[j * d + x]);
      acc += qk * decay_weight(s, bh % H, decay, i, j) * as_float(V[j * e + c]);
    }
    o[bh * n * e + i * e + c] = from_float<T>(acc);
  }
}

extern "C" __global__ void linear_attn_fwd_f32(const float* q, const float* k, const float* v, const float* s,
                                               float* o, int BH, int H, int n, int d, int e, int decay) {
  linear_attn_fwd(q, k, v, s, o, BH, H, n, d, e, decay);
}
extern "C" __global__ void linear_attn_fwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                const __nv_bfloat16* v, const float* s, __nv_bfloat16* o, int BH,
                                                int H, int n, int d, int e, int decay) {
  linear_attn_fwd(q, k, v, s, o, BH, H, n, d, e, decay);
}

// Its gradients for do [BH][n][e]: with g_ij = <do_i, v_j> and a_ij = <q_i, k_j>, for j <= i weighted w(i, j):
// dq_i = sum_{j <= i} g_ij w k_j, dk_j = sum_{i >= j} g_ij w q_i, dv_j = sum_{i >= j} a_ij w do_i.
// One thread per (bh, row).
extern "C" __global__ void linear_attn_bwd_f32(const float* q, const float* k, const float* v, const float* s,
                                               const float* dout, float* dq, float* dk, float* dv, int BH, int H,
                                               int n, int d, int e, int decay) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= BH * n) return;
  int bh = t / n, r = t % n, head = bh % H;
  const float* Q = q + bh * n * d;
  const float* K = k + bh * n * d;
  const float* V = v + bh * n * e;
  const float* DO = dout + bh * n * e;
  for (int x = 0; x < d; ++x) {  // dq of query r
    float acc = 0.f;
    for (int j = 0; j <= r; ++j) {
      float g = 0.f;
      for (int c = 0; c < e; ++c) g += DO[r * e + c] * V[j * e + c];
      acc += g * decay_weight(s, head, decay, r, j) * K[j * d + x];
    }
    dq[bh * n * d + r * d + x] = acc;
  }
  for (int x = 0; x < d; ++x) {  // dk of key r
    float acc = 0.f;
    for (int i = r; i < n; ++i) {
      float g = 0.f;
      for (int c = 0; c < e; ++c) g += DO[i * e + c] * V[r * e + c];
      acc += g * decay_weight(s, head, decay, i, r) * Q[i * d + x];
    }
    dk[bh * n * d + r * d + x] = acc;
  }
  for (int c = 0; c < e; ++c) {  // dv of key r
    float acc = 0.f;
    for (int i = r; i < n; ++i) {
      float a = 0.f;
      for (int x = 0; x < d; ++x) a += Q[i * d + x] * K[r * d + x];
      acc += a * decay_weight(s, head, decay, i, r) * DO[i * e + c];
    }
    dv[bh * n * e + r * e + c] = acc;
  }
}

// RMS norm without weight, x, y [rows][cols]: y = x / sqrt(mean(x^2) + eps), rstd = 1 / sqrt(mean(x^2) + eps).
template <typename T>
__device__ void srms_fwd(const T* x, T* y, float* rstd, int rows, int cols, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += as_float(x[r * cols + j]) * as_float(x[r * cols + j]);
  float inv = 1.f / sqrtf(ss / cols + eps);
  rstd[r] = inv;
  for (int j = 0; j < cols; ++j) y[r * cols + j] = from_float<T>(as_float(x[r * cols + j]) * inv);
}
extern "C" __global__ void srms_fwd_f32(const float* x, float* y, float* rstd, int rows, int cols, float eps) {
  srms_fwd(x, y, rstd, rows, cols, eps);
}
extern "C" __global__ void srms_fwd_f16(const __half* x, __half* y, float* rstd, int rows, int cols, float eps) {
  srms_fwd(x, y, rstd, rows, cols, eps);
}

// Its gradient with the saved rstd: dx = rstd dy - x rstd^3 <dy, x> / cols.
extern "C" __global__ void srms_bwd_f32(const float* dy, const float* x, const float* rstd, float* dx, int rows,
                                        int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float dot = 0.f;
  for (int j = 0; j < cols; ++j) dot += dy[r * cols + j] * x[r * cols + j];
  float s = rstd[r];
  for (int j = 0; j < cols; ++j) dx[r * cols + j] = s * dy[r * cols + j] - x[r * cols + j] * s * s * s * dot / cols;
}
