// Naive references for flash-attn's Triton kernels (flash_attn/ops/triton/): cross-entropy forward and backward
// (label smoothing, logit scale, z-loss, ignore_index, a tensor-parallel shard of the vocabulary), LayerNorm and
// RMSNorm forward and backward (residual, rowscale, the second weight and bias), rotary embeddings (halves and
// interleaved pairs, position offsets, conjugate, variable lengths) and the linear layer with its activations.
// One thread per row, per program's rows or per output cell; textbook formulas, f32 accumulation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include "float_formats.cuh"

// ---------------------------------------------------------------------------------------------------------------
// Cross-entropy over one shard of the classes: x [rows][V] (row stride ld), the shard holds global classes
// [start, start + V) of `total`. z = scale x; lse = log sum_j exp z_j over the shard (or the given lse).
// Smoothed loss of a label t in the shard: (1 - s)(lse - z_t) + s (lse - sum_j z_j / total); a label outside the
// shard keeps only the smoothing part. With `split` (one rank of several) the shard's lse is left out of the loss
// (the host adds the global one) and there is no z-loss; otherwise the z-loss zs lse^2 is added and stored. A row
// whose label is ignore_index has loss and z-loss 0 (its lse is still stored).
template <typename T>
__device__ void ce_fwd(const T* x, const long long* labels, float* loss, float* lse_io, float* zloss, int rows, int V,
                       int ld, float s, float scale, float zs, int ignore_index, int total, int start, int split,
                       int precomputed) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const T* xr = x + r * ld;
  float sum_exp = 0.f, sum_z = 0.f;
  for (int j = 0; j < V; ++j) {
    float z = scale * as_float(xr[j]);
    sum_exp += expf(z);
    sum_z += z;
  }
  float lse;
  if (precomputed) {
    lse = lse_io[r];
  } else {
    lse = logf(sum_exp);
    lse_io[r] = lse;
  }
  long long label = labels[r];
  float l = 0.f, zl = 0.f;
  if (label != ignore_index) {
    int t = (int)(label - start);
    int here = t >= 0 && t < V;
    float base = split ? 0.f : lse;
    float zt = here ? scale * as_float(xr[t]) : 0.f;
    if (here)
      l = (1.f - s) * (base - zt) + s * (base - sum_z / total);
    else
      l = s * (base - sum_z / total);
    if (!split) {
      zl = zs * lse * lse;
      l += zl;
    }
  }
  loss[r] = l;
  if (!split) zloss[r] = zl;
}

extern "C" __global__ void ce_fwd_f32(const float* x, const long long* labels, float* loss, float* lse, float* zloss,
                                      int rows, int V, int ld, float s, float scale, float zs, int ignore_index,
                                      int total, int start, int split, int precomputed) {
  ce_fwd(x, labels, loss, lse, zloss, rows, V, ld, s, scale, zs, ignore_index, total, start, split, precomputed);
}

extern "C" __global__ void ce_fwd_bf16(const __nv_bfloat16* x, const long long* labels, float* loss, float* lse,
                                       float* zloss, int rows, int V, int ld, float s, float scale, float zs,
                                       int ignore_index, int total, int start, int split, int precomputed) {
  ce_fwd(x, labels, loss, lse, zloss, rows, V, ld, s, scale, zs, ignore_index, total, start, split, precomputed);
}

// d loss / d x of the loss above (the shard's part): g scale (p_j (1 + 2 zs lse) - (1 - s)[j == t] - s / total),
// p_j = exp(z_j - lse) with the lse given, g = dloss[r * dstride] (0 on an ignored row). One thread per cell.
template <typename T>
__device__ void ce_bwd(const T* x, const float* dloss, const float* lse, const long long* labels, T* dx, int rows,
                       int V, float s, float scale, float zs, int ignore_index, int total, int start, int dstride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * V) return;
  int r = i / V, j = i % V;
  long long label = labels[r];
  float g = label == ignore_index ? 0.f : dloss[r * dstride];
  float p = expf(scale * as_float(x[i]) - lse[r]);
  float d = p * (1.f + 2.f * zs * lse[r]) - (label - start == j ? 1.f - s : 0.f) - s / total;
  dx[i] = from_float<T>(g * scale * d);
}

extern "C" __global__ void ce_bwd_f32(const float* x, const float* dloss, const float* lse, const long long* labels,
                                      float* dx, int rows, int V, float s, float scale, float zs, int ignore_index,
                                      int total, int start, int dstride) {
  ce_bwd(x, dloss, lse, labels, dx, rows, V, s, scale, zs, ignore_index, total, start, dstride);
}

extern "C" __global__ void ce_bwd_bf16(const __nv_bfloat16* x, const float* dloss, const float* lse,
                                       const long long* labels, __nv_bfloat16* dx, int rows, int V, float s,
                                       float scale, float zs, int ignore_index, int total, int start, int dstride) {
  ce_bwd(x, dloss, lse, labels, dx, rows, V, s, scale, zs, ignore_index, total, start, dstride);
}

// ---------------------------------------------------------------------------------------------------------------
// LayerNorm / RMSNorm forward, one thread per row of x [M][N]:
// v = x rowscale + x1 + residual (each if given), residual_out = v; mean = sum v / N (LayerNorm),
// var = sum (v - mean)^2 / N (RMSNorm: sum v^2 / N, mean 0), rstd = 1 / sqrt(var + eps), xhat = (v - mean) rstd,
// y = xhat (w + zc) + b, y1 = xhat (w1 + zc) + b1 (the parallel second output). Flags say which are given.
// With dropout (probability p), element j of row r of x is kept when u > p, u = uniform(seeds[r], j), and kept
// elements are scaled by 1 / (1 - p); x1 draws with seeds[M + r]. The keep mask is stored when asked.
enum {
  LN_RMS = 1, LN_BIAS = 2, LN_RES = 4, LN_STORE_RES = 8, LN_X1 = 16, LN_W1 = 32, LN_B1 = 64, LN_ROWSCALE = 128,
  LN_ZERO_CENTERED = 256, LN_DROPOUT = 8192, LN_STORE_MASK = 16384
};

// One uniform float in [0, 1) from the Philox4x32 counter-based generator (Salmon et al., SC'11) with 7 rounds:
// counter (offset, 0, 0, 0), key (seed, 0); the first output word, read as a signed int32 x, is folded to x >= 0
// (x < 0 -> -x - 1) and scaled by 4.6566127342e-10, the largest f32 below 2^-31 that keeps the largest x below 1.
__device__ float philox7_uniform(unsigned seed, unsigned offset) {
  unsigned c0 = offset, c1 = 0, c2 = 0, c3 = 0, k0 = seed, k1 = 0;
  for (int r = 0; r < 7; ++r) {
    unsigned n0 = __umulhi(0xCD9E8D57u, c2) ^ c1 ^ k0;
    unsigned n2 = __umulhi(0xD2511F53u, c0) ^ c3 ^ k1;
    unsigned n1 = 0xCD9E8D57u * c2;
    unsigned n3 = 0xD2511F53u * c0;
    c0 = n0; c1 = n1; c2 = n2; c3 = n3;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  int x = int(c0);
  if (x < 0) x = -x - 1;
  return float(x) * 4.6566127342e-10f;
}

__device__ bool keep(const long long* seeds, int k, int j, float p) {
  return philox7_uniform(unsigned(seeds[k]), unsigned(j)) > p;
}

template <typename T, typename R>
__device__ void ln_fwd(const T* x, const T* x1, const R* res, const float* rowscale, const T* w, const T* b,
                       const T* w1, const T* b1, T* y, T* y1, R* res_out, float* mean_out, float* rstd_out, int M,
                       int N, float eps, int flags, const long long* seeds, float p, bool* mask, bool* mask1) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float v[256];
  for (int j = 0; j < N; ++j) {
    float a = as_float(x[r * N + j]);
    if (flags & LN_ROWSCALE) a = a * rowscale[r];
    if (flags & LN_DROPOUT) {
      bool kept = keep(seeds, r, j, p);
      a = kept ? a / (1.f - p) : 0.f;
      if (flags & LN_STORE_MASK) mask[r * N + j] = kept;
    }
    if (flags & LN_X1) {
      float a1 = as_float(x1[r * N + j]);
      if (flags & LN_DROPOUT) {
        bool kept = keep(seeds, M + r, j, p);
        a1 = kept ? a1 / (1.f - p) : 0.f;
        if (flags & LN_STORE_MASK) mask1[r * N + j] = kept;
      }
      a = a + a1;
    }
    if (flags & LN_RES) a = a + as_float(res[r * N + j]);
    v[j] = a;
    if (flags & LN_STORE_RES) res_out[r * N + j] = from_float<R>(a);
  }
  float mean = 0.f;
  if (!(flags & LN_RMS)) {
    for (int j = 0; j < N; ++j) mean += v[j];
    mean = mean / N;
    mean_out[r] = mean;
  }
  float var = 0.f;
  for (int j = 0; j < N; ++j) var += (v[j] - mean) * (v[j] - mean);
  var = var / N;
  float rstd = 1.f / sqrtf(var + eps);
  rstd_out[r] = rstd;
  float zc = (flags & LN_ZERO_CENTERED) ? 1.f : 0.f;
  for (int j = 0; j < N; ++j) {
    float xhat = (v[j] - mean) * rstd;
    float o = xhat * (as_float(w[j]) + zc);
    if (flags & LN_BIAS) o = o + as_float(b[j]);
    y[r * N + j] = from_float<T>(o);
    if (flags & LN_W1) {
      float o1 = xhat * (as_float(w1[j]) + zc);
      if (flags & LN_B1) o1 = o1 + as_float(b1[j]);
      y1[r * N + j] = from_float<T>(o1);
    }
  }
}

extern "C" __global__ void ln_fwd_f32(const float* x, const float* x1, const float* res, const float* rowscale,
                                      const float* w, const float* b, const float* w1, const float* b1, float* y,
                                      float* y1, float* res_out, float* mean, float* rstd, int M, int N, float eps,
                                      int flags, const long long* seeds, float p, bool* mask, bool* mask1) {
  ln_fwd(x, x1, res, rowscale, w, b, w1, b1, y, y1, res_out, mean, rstd, M, N, eps, flags, seeds, p, mask, mask1);
}

// f16 x, weights and y; an f32 residual (residual_in_fp32)
extern "C" __global__ void ln_fwd_f16_res32(const __half* x, const __half* x1, const float* res,
                                            const float* rowscale, const __half* w, const __half* b, const __half* w1,
                                            const __half* b1, __half* y, __half* y1, float* res_out, float* mean,
                                            float* rstd, int M, int N, float eps, int flags, const long long* seeds,
                                            float p, bool* mask, bool* mask1) {
  ln_fwd(x, x1, res, rowscale, w, b, w1, b1, y, y1, res_out, mean, rstd, M, N, eps, flags, seeds, p, mask, mask1);
}

// LayerNorm / RMSNorm backward with the weight gradients summed per program: program p of P owns rows
// [p rpp, min((p + 1) rpp, M)); one thread per program. For a row: xhat = (x - mean) rstd (RMSNorm: x rstd),
// g = (w + zc) dy + (w1 + zc) dy1, dx = rstd (g - mean_j(g) - xhat mean_j(g xhat)) (RMSNorm: no mean_j(g)),
// plus dresidual; dresidual_in = dx; with dropout (probability dp) dx1 = dx through x1's keep mask (seeds[M + r]) and
// dx through x's (seeds[r]), each kept element scaled by 1 / (1 - dp); dx scaled by the rowscale. dw[p] = sum dy xhat,
// db[p] = sum dy (and dw1, db1 with dy1) over the program's rows; y = xhat (w + zc) + b recomputed when asked.
enum { LB_DRES = 512, LB_STORE_DRES = 1024, LB_DY1 = 2048, LB_RECOMPUTE = 4096, LB_DX1 = 32768 };

template <typename T>
__device__ void ln_bwd(const T* x, const T* w, const T* b, const T* dy, const float* mean, const float* rstd,
                       const T* dres, const T* w1, const T* dy1, const float* rowscale, T* dx, float* dw, float* db,
                       float* dw1, float* db1, T* dres_in, T* y, int P, int rpp, int M, int N, int flags,
                       const long long* seeds, float dp, T* dx1) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  float zc = (flags & LN_ZERO_CENTERED) ? 1.f : 0.f;
  float sw[256], sb[256], sw1[256], sb1[256];
  for (int j = 0; j < N; ++j) sw[j] = sb[j] = sw1[j] = sb1[j] = 0.f;
  int end = (p + 1) * rpp < M ? (p + 1) * rpp : M;
  for (int r = p * rpp; r < end; ++r) {
    float mu = (flags & LN_RMS) ? 0.f : mean[r];
    float rs = rstd[r];
    float sg = 0.f, sgx = 0.f;
    for (int j = 0; j < N; ++j) {
      float xhat = (as_float(x[r * N + j]) - mu) * rs;
      float g = (as_float(w[j]) + zc) * as_float(dy[r * N + j]);
      if (flags & LB_DY1) g = g + (as_float(w1[j]) + zc) * as_float(dy1[r * N + j]);
      sg += g;
      sgx += g * xhat;
      sw[j] += as_float(dy[r * N + j]) * xhat;
      sb[j] += as_float(dy[r * N + j]);
      if (flags & LB_DY1) {
        sw1[j] += as_float(dy1[r * N + j]) * xhat;
        sb1[j] += as_float(dy1[r * N + j]);
      }
      if (flags & LB_RECOMPUTE) {
        float o = xhat * (as_float(w[j]) + zc);
        if (flags & LN_BIAS) o = o + as_float(b[j]);
        y[r * N + j] = from_float<T>(o);
      }
    }
    for (int j = 0; j < N; ++j) {
      float xhat = (as_float(x[r * N + j]) - mu) * rs;
      float g = (as_float(w[j]) + zc) * as_float(dy[r * N + j]);
      if (flags & LB_DY1) g = g + (as_float(w1[j]) + zc) * as_float(dy1[r * N + j]);
      float d = (flags & LN_RMS) ? rs * (g - xhat * sgx / N) : rs * (g - sg / N - xhat * sgx / N);
      if (flags & LB_DRES) d = d + as_float(dres[r * N + j]);
      if (flags & LB_STORE_DRES) dres_in[r * N + j] = from_float<T>(d);
      if (flags & LB_DX1) {
        float d1 = d;
        if (flags & LN_DROPOUT) d1 = keep(seeds, M + r, j, dp) ? d / (1.f - dp) : 0.f;
        dx1[r * N + j] = from_float<T>(d1);
      }
      if (flags & LN_DROPOUT) d = keep(seeds, r, j, dp) ? d / (1.f - dp) : 0.f;
      if (flags & LN_ROWSCALE) d = d * rowscale[r];
      dx[r * N + j] = from_float<T>(d);
    }
  }
  for (int j = 0; j < N; ++j) {
    dw[p * N + j] = sw[j];
    if (flags & LN_BIAS) db[p * N + j] = sb[j];
    if (flags & LB_DY1) {
      dw1[p * N + j] = sw1[j];
      if (flags & LN_B1) db1[p * N + j] = sb1[j];
    }
  }
}

extern "C" __global__ void ln_bwd_f32(const float* x, const float* w, const float* b, const float* dy,
                                      const float* mean, const float* rstd, const float* dres, const float* w1,
                                      const float* dy1, const float* rowscale, float* dx, float* dw, float* db,
                                      float* dw1, float* db1, float* dres_in, float* y, int P, int rpp, int M, int N,
                                      int flags, const long long* seeds, float dp, float* dx1) {
  ln_bwd(x, w, b, dy, mean, rstd, dres, w1, dy1, rowscale, dx, dw, db, dw1, db1, dres_in, y, P, rpp, M, N, flags,
         seeds, dp, dx1);
}

extern "C" __global__ void ln_bwd_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, const __nv_bfloat16* b,
                                       const __nv_bfloat16* dy, const float* mean, const float* rstd,
                                       const __nv_bfloat16* dres, const __nv_bfloat16* w1, const __nv_bfloat16* dy1,
                                       const float* rowscale, __nv_bfloat16* dx, float* dw, float* db, float* dw1,
                                       float* db1, __nv_bfloat16* dres_in, __nv_bfloat16* y, int P, int rpp, int M,
                                       int N, int flags, const long long* seeds, float dp, __nv_bfloat16* dx1) {
  ln_bwd(x, w, b, dy, mean, rstd, dres, w1, dy1, rowscale, dx, dw, db, dw1, db1, dres_in, y, P, rpp, M, N, flags,
         seeds, dp, dx1);
}

// ---------------------------------------------------------------------------------------------------------------
// Rotary embedding of the first rd channels of x: [B][S][H][D] (or [total][H][D] with cu_seqlens, sequence b
// holding tokens [cu[b], cu[b + 1])), the token at position s of its sequence rotated by angle index
// p = s + offset (offsets[b] if given): for pair f < rd / 2 of channels (f, f + rd / 2) (interleaved: (2f, 2f + 1)),
// (a, b) -> (a cos - b sin, a sin + b cos) with cos = cos[p][f], sin = sin[p][f] (sin negated when conjugating).
// Channels past rd are left as they are (out may be x). One thread per (token, head, pair).
template <typename T>
__device__ void rotary(const T* x, T* out, const T* cos, const T* sin, const int* offsets, const int* cu, int B,
                       int S, int H, int D, int rd, int offset, int interleaved, int conj) {
  int half = rd / 2;
  int tokens = cu ? cu[B] : B * S;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= tokens * H * half) return;
  int f = i % half, h = (i / half) % H, tok = i / half / H;
  int b = tok / S, s = tok % S;
  if (cu) {
    b = 0;
    while (cu[b + 1] <= tok) ++b;
    s = tok - cu[b];
  }
  int p = s + (offsets ? offsets[b] : offset);
  float c = as_float(cos[p * half + f]), sn = as_float(sin[p * half + f]);
  if (conj) sn = -sn;
  int i1 = interleaved ? 2 * f : f, i2 = interleaved ? 2 * f + 1 : f + half;
  int base = (tok * H + h) * D;
  float a = as_float(x[base + i1]), bb = as_float(x[base + i2]);
  out[base + i1] = from_float<T>(a * c - bb * sn);
  out[base + i2] = from_float<T>(a * sn + bb * c);
}

extern "C" __global__ void rotary_f32(const float* x, float* out, const float* cos, const float* sin,
                                      const int* offsets, const int* cu, int B, int S, int H, int D, int rd,
                                      int offset, int interleaved, int conj) {
  rotary(x, out, cos, sin, offsets, cu, B, S, H, D, rd, offset, interleaved, conj);
}

extern "C" __global__ void rotary_bf16(const __nv_bfloat16* x, __nv_bfloat16* out, const __nv_bfloat16* cos,
                                       const __nv_bfloat16* sin, const int* offsets, const int* cu, int B, int S,
                                       int H, int D, int rd, int offset, int interleaved, int conj) {
  rotary(x, out, cos, sin, offsets, cu, B, S, H, D, rd, offset, interleaved, conj);
}

// ---------------------------------------------------------------------------------------------------------------
// Linear layer with a fused activation: x [M][K] times w^T (w [N][K], nn.Linear's layout) plus bias [N], f16 in and
// out, f32 accumulation: pre = x w^T + b (saved to act_in when asked), out = act(pre). One thread per cell.
// act 2: squared ReLU max(v, 0)^2. (act 1, the tanh GELU, does not compile in the library's forward on Triton 3.6.)
#define SQRT_2_OVER_PI 0.7978845608028654f

// tanh(u) = 1 - 2 / (exp(2u) + 1) (CUDA's tanhf is another approximation of tanh, not read as tanh by Racer)
__device__ float tanh_by_exp(float u) { return 1.f - 2.f / (expf(2.f * u) + 1.f); }

extern "C" __global__ void linear_act_fwd(const __half* x, const __half* w, const __half* bias, __half* out,
                                          __half* act_in, int M, int N, int K, int act) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float v = 0.f;
  for (int k = 0; k < K; ++k) v += __half2float(x[m * K + k]) * __half2float(w[n * K + k]);
  if (bias) v += __half2float(bias[n]);
  if (act_in) act_in[i] = __float2half(v);
  float o = v;
  if (act == 2) o = v > 0.f ? v * v : 0.f;
  out[i] = __float2half(o);
}

// The backward through the activation: dx [M][N] = (g [M][K] w [K][N]) act'(pre [M][N]), f16 in and out.
// act 1: d/dv of the tanh GELU, 0.5 (1 + t) + 0.5 v (1 - t^2) sqrt(2 / pi) (1 + 3 0.044715 v^2) with
// t = tanh(sqrt(2 / pi) (v + 0.044715 v^3)) (sqrt(2 / pi) 3 0.044715 = 0.1070322244); act 2: 2 max(v, 0).
extern "C" __global__ void linear_act_bwd(const __half* g, const __half* w, const __half* pre, __half* dx, int M,
                                          int N, int K, int act) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += __half2float(g[m * K + k]) * __half2float(w[k * N + n]);
  if (act == 1) {
    float v = __half2float(pre[i]);
    float t = tanh_by_exp(SQRT_2_OVER_PI * (v + 0.044715f * v * v * v));
    s = s * (0.5f * (1.f + t) + 0.5f * v * (1.f - t * t) * (SQRT_2_OVER_PI + 0.1070322244f * v * v));
  }
  if (act == 2) {
    float v = __half2float(pre[i]);
    s = s * (v > 0.f ? 2.f * v : 0.f);
  }
  dx[i] = __float2half(s);
}
