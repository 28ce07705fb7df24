// Naive references for DeepSpeed's Triton kernels (inference layer norms, GELU, residual add, softmax,
// matmuls with activation epilogues, packed flash attention; the training-side RMSNorm, rotary embedding,
// SwiGLU and grouped GEMM; the fp8-weight GEMM): one thread per row or cell, textbook formulas (softmax
// without max subtraction, two-pass variance), f32 accumulation. Where the library rounds to a 16-bit type
// on purpose (it reproduces eager PyTorch's roundings), the reference rounds there too.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include "float_formats.cuh"

// v rounded to T and read back

// ---- layer norm ----

// LayerNorm of the rows of s (given by s_at), y = (s - mean) / sqrt(var + eps) w + b, var two-pass.
template <typename T>
__device__ void layer_norm_row(const float* s, const T* w, const T* b, T* y, int cols, float eps) {
  float mean = 0.f;
  for (int j = 0; j < cols; ++j) mean += s[j];
  mean /= cols;
  float var = 0.f;
  for (int j = 0; j < cols; ++j) var += (s[j] - mean) * (s[j] - mean);
  var /= cols;
  float sd = sqrtf(var + eps);
  for (int j = 0; j < cols; ++j) y[j] = from_float<T>((s[j] - mean) / sd * as_float(w[j]) + as_float(b[j]));
}

#define MAXC 128

// y = LayerNorm(x) w + b, per row of x[rows][cols].
template <typename T>
__device__ void layer_norm(const T* x, const T* w, const T* b, T* y, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s[MAXC];
  for (int j = 0; j < cols; ++j) s[j] = as_float(x[r * cols + j]);
  layer_norm_row(s, w, b, y + r * cols, cols, eps);
}
extern "C" __global__ void layer_norm_f32(const float* x, const float* w, const float* b, float* y, int rows,
                                          int cols, float eps) {
  layer_norm(x, w, b, y, rows, cols, eps);
}
extern "C" __global__ void layer_norm_f16(const __half* x, const __half* w, const __half* b, __half* y, int rows,
                                          int cols, float eps) {
  layer_norm(x, w, b, y, rows, cols, eps);
}

// With a residual and (if ib) an input bias: s = x + ib + res, stored to sum (in T), y = LayerNorm(s) w + b
// of the stored sums.
template <typename T>
__device__ void layer_norm_residual(const T* x, const T* res, const T* ib, const T* w, const T* b, T* y, T* sum,
                                    int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s[MAXC];
  for (int j = 0; j < cols; ++j) {
    float v = as_float(x[r * cols + j]) + as_float(res[r * cols + j]) + (ib ? as_float(ib[j]) : 0.f);
    sum[r * cols + j] = from_float<T>(v);
    s[j] = as_float(sum[r * cols + j]);
  }
  layer_norm_row(s, w, b, y + r * cols, cols, eps);
}
extern "C" __global__ void layer_norm_residual_f32(const float* x, const float* res, const float* ib, const float* w,
                                                   const float* b, float* y, float* sum, int rows, int cols,
                                                   float eps) {
  layer_norm_residual(x, res, ib, w, b, y, sum, rows, cols, eps);
}
extern "C" __global__ void layer_norm_residual_f16(const __half* x, const __half* res, const __half* ib,
                                                   const __half* w, const __half* b, __half* y, __half* sum,
                                                   int rows, int cols, float eps) {
  layer_norm_residual(x, res, ib, w, b, y, sum, rows, cols, eps);
}

// ---- elementwise ----

// GELU, erf form: y = x/2 (1 + erf(x / sqrt 2)).
extern "C" __global__ void gelu_f32(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.5f * x[i] * (1.f + erff(x[i] / sqrtf(2.f)));
}

// The residual add after a transformer block, h, res, attn [n] (rows of bias_size), biases [bias_size]:
// mode 0 (MLP after attention, pre-attention norm): h + (res + fb + attn + ab) / mp;
// mode 1 (MLP after attention, post norm): h + res + fb;
// mode 2 (parallel attention and MLP, GPT-J style): h + attn + (res + fb) / mp + (add_ab ? ab / mp : 0).
extern "C" __global__ void residual_add_bias_f32(const float* h, const float* res, const float* attn,
                                                 const float* ab, const float* fb, float* out, int n,
                                                 int bias_size, int mode, int add_ab, float mp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int c = i % bias_size;
  float y;
  if (mode == 0) y = h[i] + (res[i] + fb[c] + attn[i] + ab[c]) / mp;
  else if (mode == 1) y = h[i] + res[i] + fb[c];
  else y = h[i] + attn[i] + (res[i] + fb[c]) / mp + (add_ab ? ab[c] / mp : 0.f);
  out[i] = y;
}

// ---- softmax ----

// Softmax of each row of x[rows][cols] plus an additive mask (mask row r * mask_stride; none if mask is null):
// y_j = exp(x_j + m_j) / sum_k exp(x_k + m_k).
extern "C" __global__ void masked_softmax_f32(const float* x, const float* mask, float* y, int rows, int cols,
                                              int mask_stride) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float den = 0.f;
  for (int j = 0; j < cols; ++j) den += expf(x[r * cols + j] + (mask ? mask[r * mask_stride + j] : 0.f));
  for (int j = 0; j < cols; ++j)
    y[r * cols + j] = expf(x[r * cols + j] + (mask ? mask[r * mask_stride + j] : 0.f)) / den;
}

// ---- matmuls ----

// C = act(A B + bias) in f16 from f16 A[M][K], B[K][N], bias[N] (or none); f32 sums.
// act: 0 none, 1 relu, 2 leaky relu (slope 0.01), 3 gelu (erf), 4 sigmoid.
extern "C" __global__ void matmul_act_f16(const __half* a, const __half* b, const __half* bias, __half* c, int M,
                                          int N, int K, int act) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += __half2float(a[m * K + k]) * __half2float(b[k * N + n]);
  if (bias) s += __half2float(bias[n]);
  if (act == 1) s = s >= 0.f ? s : 0.f;
  else if (act == 2) s = s >= 0.f ? s : 0.01f * s;
  else if (act == 3) s = 0.5f * s * (1.f + erff(s / sqrtf(2.f)));
  else if (act == 4) s = 1.f / (1.f + expf(-s));
  c[i] = __float2half(s);
}

// Attention scores from a packed qkv[B][S][3 D] (D = H hd; q, k, v side by side, heads of hd within each):
// out[b][h][i][j] = f16(f16(q_i . k_j) scale) for scale > 0, else f16(q_i . k_j).
extern "C" __global__ void attn_scores_f16(const __half* qkv, __half* out, int B, int S, int H, int hd,
                                           float scale) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * H * S * S) return;
  int j = t % S, i = (t / S) % S, h = (t / (S * S)) % H, b = t / (H * S * S);
  int D = H * hd;
  const __half* q = qkv + (b * S + i) * 3 * D + h * hd;
  const __half* k = qkv + (b * S + j) * 3 * D + D + h * hd;
  float s = 0.f;
  for (int d = 0; d < hd; ++d) s += __half2float(q[d]) * __half2float(k[d]);
  float r = __half2float(__float2half(s));
  out[t] = __float2half(scale > 0.f ? r * scale : r);
}

// Attention context: out[b][i][h][d] = f16(sum_j p[b][h][i][j] v_j[h][d]), v from the packed qkv.
extern "C" __global__ void attn_context_f16(const __half* p, const __half* qkv, __half* out, int B, int S, int H,
                                            int hd) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * S * H * hd) return;
  int d = t % hd, h = (t / hd) % H, i = (t / (hd * H)) % S, b = t / (hd * H * S);
  int D = H * hd;
  float s = 0.f;
  for (int j = 0; j < S; ++j)
    s += __half2float(p[((b * H + h) * S + i) * S + j]) * __half2float(qkv[(b * S + j) * 3 * D + 2 * D + h * hd + d]);
  out[t] = __float2half(s);
}

// Packed flash attention, one thread per (b, query i, head h, channel d): q scaled by c = sm_scale log2(e) (the
// kernel's f32 constant) and rounded to f16, scores t_j = f16(q' . k_j) (the kernel's f16 dot), keys j <= i when
// causal; out = f16(sum_j 2^t_j v_j / sum_j 2^t_j).
extern "C" __global__ void flash_packed_f16(const __half* qkv, __half* out, int B, int S, int H, int hd, float c,
                                            int causal) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * S * H * hd) return;
  int d = t % hd, h = (t / hd) % H, i = (t / (hd * H)) % S, b = t / (hd * H * S);
  int D = H * hd;
  const __half* q = qkv + (b * S + i) * 3 * D + h * hd;
  float num = 0.f, den = 0.f;
  for (int j = 0; j < (causal ? i + 1 : S); ++j) {
    const __half* k = qkv + (b * S + j) * 3 * D + D + h * hd;
    float s = 0.f;
    for (int e = 0; e < hd; ++e) s += rnd<__half>(__half2float(q[e]) * c) * __half2float(k[e]);
    float p = exp2f(rnd<__half>(s));
    den += p;
    num += p * __half2float(qkv[(b * S + j) * 3 * D + 2 * D + h * hd + d]);
  }
  out[(b * S + i) * D + h * hd + d] = __float2half(num / den);
}

// ---- RMSNorm (Hugging Face order: the normalized value rounded to the input type, then times the weight) ----

// rstd = 1 / sqrt(mean x^2 + eps) (f32), y = T(T(x rstd) w).
extern "C" __global__ void rms_norm_fwd_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y,
                                             float* rstd, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += as_float(x[r * cols + j]) * as_float(x[r * cols + j]);
  float rs = 1.f / sqrtf(ss / cols + eps);
  rstd[r] = rs;
  for (int j = 0; j < cols; ++j)
    y[r * cols + j] = __float2bfloat16(rnd<__nv_bfloat16>(as_float(x[r * cols + j]) * rs) * as_float(w[j]));
}

// Its input gradient, given the saved rstd: with g' = T(g w), dx = rstd (g' - x rstd^2 mean(g' x)).
extern "C" __global__ void rms_norm_dx_bf16(const __nv_bfloat16* g, const __nv_bfloat16* x, const __nv_bfloat16* w,
                                            const float* rstd, __nv_bfloat16* dx, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float rs = rstd[r], dot = 0.f;
  for (int j = 0; j < cols; ++j)
    dot += rnd<__nv_bfloat16>(as_float(g[r * cols + j]) * as_float(w[j])) * as_float(x[r * cols + j]);
  for (int j = 0; j < cols; ++j) {
    float gn = rnd<__nv_bfloat16>(as_float(g[r * cols + j]) * as_float(w[j]));
    dx[r * cols + j] = __float2bfloat16(rs * (gn - as_float(x[r * cols + j]) * rs * rs * dot / cols));
  }
}

// Its weight gradient summed over all rows (one row block): dw[c] = sum_r T(g[r][c] T(x[r][c] rstd[r])).
extern "C" __global__ void rms_norm_dw_bf16(const __nv_bfloat16* g, const __nv_bfloat16* x, const float* rstd,
                                            float* dw, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float s = 0.f;
  for (int r = 0; r < rows; ++r)
    s += rnd<__nv_bfloat16>(as_float(g[r * cols + c]) * rnd<__nv_bfloat16>(as_float(x[r * cols + c]) * rstd[r]));
  dw[c] = s;
}

// ---- rotary embedding (split halves, each product and sum rounded to T as eager PyTorch rounds them) ----

// x, y [B][H][S][D], cos, sin [S][D] (shared by the batch). Forward: y = x cos + rotate_half(x) sin with
// rotate_half(x) = (-x2, x1). Backward (x is the upstream gradient): y = x cos + rotate_half^T(x sin), where
// rotate_half^T(u) = (u2, -u1).
extern "C" __global__ void rotary_bf16(const __nv_bfloat16* x, const __nv_bfloat16* cs, const __nv_bfloat16* sn,
                                       __nv_bfloat16* y, int BH, int S, int D, int backward) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= BH * S * D) return;
  int d = i % D, s = (i / D) % S, half = D / 2;
  const __nv_bfloat16* row = x + (i - d);
  float c = as_float(cs[s * D + d]);
  float xc = rnd<__nv_bfloat16>(as_float(row[d]) * c);
  float other;
  if (!backward) {
    // rotate_half(x)[d] sin[d]
    float rot = d < half ? -as_float(row[d + half]) : as_float(row[d - half]);
    other = rnd<__nv_bfloat16>(rot * as_float(sn[s * D + d]));
  } else {
    // rotate_half^T(x sin)[d]
    other = d < half ? rnd<__nv_bfloat16>(as_float(row[d + half]) * as_float(sn[s * D + d + half]))
                     : -rnd<__nv_bfloat16>(as_float(row[d - half]) * as_float(sn[s * D + d - half]));
  }
  y[i] = __float2bfloat16(xc + other);
}

// ---- SwiGLU ----

__device__ float sigmoidf_(float v) { return 1.f / (1.f + expf(-v)); }

// y = silu(g) u = g sigmoid(g) u; g, u at gate[r][c], up[r][c] with row strides gs, us (packed: one [R][2 I]).
extern "C" __global__ void swiglu_fwd_bf16(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* y,
                                           int R, int I, int gs, int us) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= R * I) return;
  int r = i / I, c = i % I;
  float g = as_float(gate[r * gs + c]), u = as_float(up[r * us + c]);
  y[i] = __float2bfloat16(g * sigmoidf_(g) * u);
}

// Its gradients: dg = dy u silu'(g), silu'(g) = sigmoid(g) + g sigmoid(g) (1 - sigmoid(g)); du = dy silu(g).
extern "C" __global__ void swiglu_bwd_bf16(const __nv_bfloat16* dy, const __nv_bfloat16* gate,
                                           const __nv_bfloat16* up, __nv_bfloat16* dg, __nv_bfloat16* du, int R,
                                           int I, int gs, int us) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= R * I) return;
  int r = i / I, c = i % I;
  float g = as_float(gate[r * gs + c]), u = as_float(up[r * us + c]), d = as_float(dy[i]);
  float sg = sigmoidf_(g);
  dg[r * gs + c] = __float2bfloat16(d * u * (sg + g * sg * (1.f - sg)));
  du[r * us + c] = __float2bfloat16(d * g * sg);
}

// ---- grouped GEMM ----

// out[m][n] = sum_k a[m][k] b[e(m)][k][n], e(m) the group whose cumulative row bound offs[e] first exceeds m.
extern "C" __global__ void group_gemm_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, const int* offs,
                                           __nv_bfloat16* out, int M, int K, int N, int E) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N, e = 0;
  while (e < E - 1 && m >= offs[e]) ++e;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += as_float(a[m * K + k]) * as_float(b[(e * K + k) * N + n]);
  out[i] = __float2bfloat16(s);
}

// The weight gradient per group: out[e][k][n] = sum over the group's rows m of a[m][k] g[m][n].
extern "C" __global__ void group_gemm_dw_bf16(const __nv_bfloat16* a, const __nv_bfloat16* g, const int* offs,
                                              __nv_bfloat16* out, int K, int N, int E) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= E * K * N) return;
  int n = i % N, k = (i / N) % K, e = i / (N * K);
  int lo = e ? offs[e - 1] : 0;
  float s = 0.f;
  for (int m = lo; m < offs[e]; ++m) s += as_float(a[m * K + k]) * as_float(g[m * N + n]);
  out[i] = __float2bfloat16(s);
}

// Group bounds from cumulative offsets: start[e] = offs[e - 1] (0 for e = 0), size[e] = offs[e] - start[e].
extern "C" __global__ void group_meta(const int* offs, int* start, int* size, int E) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= E) return;
  start[e] = e ? offs[e - 1] : 0;
  size[e] = offs[e] - start[e];
}

// ---- fp8-weight GEMM ----

// DeepSpeed's fp8 weight byte as the fp8 GEMM reads it: sign, 4 exponent bits (bias 7), 3 mantissa bits, every
// exponent field normal (field 0 is 2^-7 (1 + m/8), no subnormals or zero).
__device__ float ds_fp8(unsigned char v) {
  int e = (v >> 3) & 15, m = v & 7;
  float mag = ldexpf(1.f + m / 8.f, e - 7);
  return (v & 0x80) ? -mag : mag;
}

// out = T(sum_k a[m][k] T(w[k][n] scale[k n / group])) with a[M][K] in T, w[K][N] bytes, f32 scales.
template <typename T>
__device__ void fp8_gemm(const T* a, const unsigned char* w, const float* scale, T* out, int M, int N, int K,
                         int group) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float s = 0.f;
  for (int k = 0; k < K; ++k)
    s += as_float(a[m * K + k]) * rnd<T>(ds_fp8(w[k * N + n]) * scale[(k * N + n) / group]);
  out[i] = from_float<T>(s);
}
extern "C" __global__ void fp8_gemm_bf16(const __nv_bfloat16* a, const unsigned char* w, const float* scale,
                                         __nv_bfloat16* out, int M, int N, int K, int group) {
  fp8_gemm(a, w, scale, out, M, N, K, group);
}
extern "C" __global__ void fp8_gemm_f16(const __half* a, const unsigned char* w, const float* scale, __half* out,
                                        int M, int N, int K, int group) {
  fp8_gemm(a, w, scale, out, M, N, K, group);
}
