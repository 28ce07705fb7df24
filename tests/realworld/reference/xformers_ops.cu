// Naive references for xformers' Triton kernels (RMSNorm with and without the residual add, rotary embedding
// of a padded batch with its KV-cache writes, index_select_cat forward and backward, scaled_index_add forward
// and backward, the matmul over a 2 x 2 grid of tiles): one thread per row or cell, textbook formulas, f32
// accumulation, 16-bit values through cuda_bf16.h conversions.
#include <cuda_bf16.h>
#include <math.h>
#include "float_formats.cuh"

// RMSNorm of the rows of x[R][N]: h = x (+ y, rounded to T and stored back to x when y is given),
// out = T(h / sqrt(mean(s^2) + eps) (* w)), where s is the f32 sum x + y before its rounding (the mean is taken
// over the sums, the output scales the stored, rounded ones). w == nullptr: no weight.
template <typename T>
__device__ void rms_norm_rows(T* x, const T* y, const T* w, T* out, int R, int N, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) {
    float s = as_float(x[r * N + j]);
    if (y) s += as_float(y[r * N + j]);
    ss += s * s;
  }
  float inv = 1.f / sqrtf(ss / N + eps);
  for (int j = 0; j < N; ++j) {
    float h = as_float(x[r * N + j]);
    if (y) {
      T stored = from_float<T>(h + as_float(y[r * N + j]));
      x[r * N + j] = stored;
      h = as_float(stored);
    }
    float v = h * inv;
    if (w) v = v * as_float(w[j]);
    out[r * N + j] = from_float<T>(v);
  }
}

extern "C" __global__ void rms_norm_f32(float* x, const float* w, float* out, int R, int N, float eps) {
  rms_norm_rows<float>(x, nullptr, w, out, R, N, eps);
}

extern "C" __global__ void rms_norm_bf16(__nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* out, int R, int N,
                                         float eps) {
  rms_norm_rows<__nv_bfloat16>(x, nullptr, w, out, R, N, eps);
}

extern "C" __global__ void add_rms_norm_f32(float* x, const float* y, const float* w, float* out, int R, int N,
                                            float eps) {
  rms_norm_rows<float>(x, y, w, out, R, N, eps);
}

extern "C" __global__ void add_rms_norm_bf16(__nv_bfloat16* x, const __nv_bfloat16* y, const __nv_bfloat16* w,
                                             __nv_bfloat16* out, int R, int N, float eps) {
  rms_norm_rows<__nv_bfloat16>(x, y, w, out, R, N, eps);
}

// Rotary embedding of a batch of B sequences packed along tokens (rope_padded): queries of sequence b are
// tokens qstart[b] .. qstart[b+1) - 1; their keys and values go to the last rows of sequence b's cache
// segment, which starts at row kstart[b] and holds klen[b] rows, so token t of b is cache row
// kstart[b] + klen[b] - (qstart[b+1] - t), at position p = klen[b] - (qstart[b+1] - t) in the sequence
// (plus first[b] when given; pos[t] instead when given). xq[T][Hq][D] rotated into oq, xk[T][Hk][D] rotated
// into ck[rows][Hk][D], xv copied into cv. Pairs (2i, 2i+1) (adjacent) or (i, i + D/2), angle
// p * theta^(-2i / D) / scale; in f32, values of T read and written through f32.
template <typename T>
__device__ void rope_padded(const T* xq, const T* xk, const T* xv, T* oq, T* ck, T* cv, const int* qstart,
                            const int* kstart, const int* klen, const int* first, const int* pos, int B, int Ttok,
                            int Hq, int Hk, int D, float theta, float scale, int adjacent) {
  int half = D / 2;
  int H = Hq + 2 * Hk;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= Ttok * H * half) return;
  int t = i / (H * half), h = (i / half) % H, p = i % half;
  int b = 0;
  while (b < B - 1 && t >= qstart[b + 1]) ++b;
  int back = qstart[b + 1] - t;
  int row = kstart[b] + klen[b] - back;
  int seqpos = klen[b] - back;
  if (first) seqpos += first[b];
  if (pos) seqpos = pos[t];
  int jr = adjacent ? 2 * p : p, ji = adjacent ? 2 * p + 1 : p + half;
  const T* in;
  T* out;
  if (h < Hq) {
    in = xq + (t * Hq + h) * D;
    out = oq + (t * Hq + h) * D;
  } else if (h < Hq + Hk) {
    in = xk + (t * Hk + h - Hq) * D;
    out = ck + (row * Hk + h - Hq) * D;
  } else {
    in = xv + (t * Hk + h - Hq - Hk) * D;
    out = cv + (row * Hk + h - Hq - Hk) * D;
    out[jr] = in[jr];
    out[ji] = in[ji];
    return;
  }
  // theta^e as exp(e log theta): the library's pow is that routine (Racer reads it as exp(t)); CUDA's powf on
  // constants runs to a rational of its own, so the two frequencies would be two different readings of one number.
  float freq = expf((2.f * p) / (float)(-D) * logf(theta));
  float angle = (float)seqpos * freq / scale;
  float c = cosf(angle), s = sinf(angle);
  float re = as_float(in[jr]), im = as_float(in[ji]);
  out[jr] = from_float<T>(re * c - im * s);
  out[ji] = from_float<T>(im * c + re * s);
}

extern "C" __global__ void rope_padded_f32(const float* xq, const float* xk, const float* xv, float* oq, float* ck,
                                           float* cv, const int* qstart, const int* kstart, const int* klen,
                                           const int* first, const int* pos, int B, int Ttok, int Hq, int Hk, int D,
                                           float theta, float scale, int adjacent) {
  rope_padded<float>(xq, xk, xv, oq, ck, cv, qstart, kstart, klen, first, pos, B, Ttok, Hq, Hk, D, theta, scale,
                     adjacent);
}

extern "C" __global__ void rope_padded_bf16(const __nv_bfloat16* xq, const __nv_bfloat16* xk,
                                            const __nv_bfloat16* xv, __nv_bfloat16* oq, __nv_bfloat16* ck,
                                            __nv_bfloat16* cv, const int* qstart, const int* kstart, const int* klen,
                                            const int* first, const int* pos, int B, int Ttok, int Hq, int Hk, int D,
                                            float theta, float scale, int adjacent) {
  rope_padded<__nv_bfloat16>(xq, xk, xv, oq, ck, cv, qstart, kstart, klen, first, pos, B, Ttok, Hq, Hk, D, theta,
                             scale, adjacent);
}

// Gather of rows: out[i][c] = src[idx[i]][c] (out[n][C], src[R][C]).
extern "C" __global__ void gather_rows(const float* src, const long long* idx, float* out, int n, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * C) return;
  out[i] = src[idx[i / C] * C + i % C];
}

// Scatter of rows: dst[idx[i]][c] = g[i][c] (the other rows of dst kept).
extern "C" __global__ void scatter_rows(const float* g, const long long* idx, float* dst, int n, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * C) return;
  dst[idx[i / C] * C + i % C] = g[i];
}

// x[idx[s]][r][c] += alpha * scaling[c] * src[s][r][c] (scaling == nullptr: no scaling); x[I][RC], src[S][RC]
// with RC = R C cells a slice, idx distinct.
template <typename T>
__device__ void scaled_index_add(T* x, const long long* idx, const T* src, const T* scaling, float alpha, int S, int RC,
                                 int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= S * RC) return;
  int s = i / RC, k = i % RC;
  float a = alpha;
  if (scaling) a = a * as_float(scaling[k % C]);
  float v = as_float(x[idx[s] * RC + k]) + a * as_float(src[i]);
  x[idx[s] * RC + k] = from_float<T>(v);
}

extern "C" __global__ void scaled_index_add_f32(float* x, const long long* idx, const float* src, const float* scaling,
                                                float alpha, int S, int RC, int C) {
  scaled_index_add<float>(x, idx, src, scaling, alpha, S, RC, C);
}

extern "C" __global__ void scaled_index_add_bf16(__nv_bfloat16* x, const long long* idx, const __nv_bfloat16* src,
                                                 const __nv_bfloat16* scaling, float alpha, int S, int RC, int C) {
  scaled_index_add<__nv_bfloat16>(x, idx, src, scaling, alpha, S, RC, C);
}

// The backward of x[idx[s]] += alpha scaling src[s]: with g = grad_out[idx[s]][r][c],
// grad_src[s][r][c] = alpha g scaling[c] (alpha g without scaling), grad_scaling[s][r][c] = alpha g src[s][r][c]
// (per slice; the host sums it over s and r).
extern "C" __global__ void scaled_index_add_bwd_f32(const float* gout, const long long* idx, const float* src,
                                                    const float* scaling, float* gsrc, float* gscale, float alpha,
                                                    int S, int RC, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= S * RC) return;
  int s = i / RC, k = i % RC;
  float g = gout[idx[s] * RC + k];
  if (scaling) {
    gsrc[i] = alpha * g * scaling[k % C];
    gscale[i] = alpha * g * src[i];
  } else {
    gsrc[i] = alpha * g;
  }
}

// C = A B of a matrix given as a grid of tiles: A[M][K], B[K][N] row-major, f32 accumulation, C[M][N] in T.
template <typename T>
__device__ void matmul(const T* a, const T* b, T* c, int M, int N, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += as_float(a[m * K + k]) * as_float(b[k * N + n]);
  c[i] = from_float<T>(acc);
}

extern "C" __global__ void matmul_f32(const float* a, const float* b, float* c, int M, int N, int K) {
  matmul<float>(a, b, c, M, N, K);
}

extern "C" __global__ void matmul_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, int M, int N,
                                       int K) {
  matmul<__nv_bfloat16>(a, b, c, M, N, K);
}
