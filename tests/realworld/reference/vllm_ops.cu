// Naive references for vLLM's non-attention Triton kernels (fp8 quantization per token group and per tensor,
// int8 per token; fused activation + fp8 quantization; gated and MiniMax QK norms; fused QK norm + RoPE; the MTP
// embedding norm; multimodal and flash-attn rotary embeddings; the batch-invariant log-softmax): one thread per
// row, group or cell, textbook formulas (softmax without max subtraction, two-pass variance), f32 accumulation,
// 16-bit and fp8 values through cuda_bf16.h / cuda_fp8.h conversions.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <math.h>
#include "float_formats.cuh"

__device__ float sigmoid(float v) { return 1.f / (1.f + expf(-v)); }
__device__ float clampf(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }

#define E4M3_MAX 448.f

// fp8 quantization of x[M][K] in groups of G consecutive columns of a row: amax = max(max |x|, eps),
// s = amax * (1/448) (vLLM multiplies by the reciprocal), or with ue8m0 the power of two 2^ceil(log2 s);
// y = e4m3(clamp(x / s, -448, 448)) row-major (x's rows xs apart), s of group (r, g) at s[r ss0 + g ss1].
extern "C" __global__ void group_quant_fp8(const float* x, __nv_fp8_e4m3* y, float* s, int M, int K, int xs, int G,
                                           int ss0, int ss1, float eps, int ue8m0) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int gpr = K / G;
  if (i >= M * gpr) return;
  int r = i / gpr, g = i % gpr;
  const float* xr = x + r * xs + g * G;
  float amax = 0.f;
  for (int j = 0; j < G; ++j) amax = fmaxf(amax, fabsf(xr[j]));
  amax = fmaxf(amax, eps);
  float sc = amax * (1.f / E4M3_MAX);
  if (ue8m0) sc = exp2f(ceilf(log2f(sc)));
  for (int j = 0; j < G; ++j) y[r * K + g * G + j] = __nv_fp8_e4m3(clampf(xr[j] / sc, -E4M3_MAX, E4M3_MAX));
  s[r * ss0 + g * ss1] = sc;
}

// int8 quantization of each row of x[M][K]: amax = max(max |x|, 1e-10), scale = amax / 127,
// q = round(x 127 / amax) (half away from zero).
extern "C" __global__ void token_quant_int8(const float* x, signed char* q, float* scale, int M, int K) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float amax = 0.f;
  for (int j = 0; j < K; ++j) amax = fmaxf(amax, fabsf(x[r * K + j]));
  amax = fmaxf(amax, 1e-10f);
  float inv = 127.f / amax;
  for (int j = 0; j < K; ++j) q[r * K + j] = (signed char)roundf(x[r * K + j] * inv);
  scale[r] = amax / 127.f;
}

// SiLU-and-mul of x[M][N] (bf16; gate = first half, up = second half) then fp8 quantization per group of
// G outputs: v = bf16(bf16(silu(gate)) bf16(up)), amax = max(max |v|, eps), s = amax * (1/448),
// y[M][N/2] = e4m3(clamp(v / s)), s column-major: s[g M + r].
extern "C" __global__ void silu_mul_group_quant_fp8(const __nv_bfloat16* x, __nv_fp8_e4m3* y, float* s, int M, int N,
                                                    int G, float eps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int H = N / 2, gpr = H / G;
  if (i >= M * gpr) return;
  int r = i / gpr, g = i % gpr;
  float amax = 0.f;
  for (int j = 0; j < G; ++j) {
    float a = as_float(x[r * N + g * G + j]), b = as_float(x[r * N + H + g * G + j]);
    float v = rnd<__nv_bfloat16>(rnd<__nv_bfloat16>(a * sigmoid(a)) * b);
    amax = fmaxf(amax, fabsf(v));
  }
  amax = fmaxf(amax, eps);
  float sc = amax * (1.f / E4M3_MAX);
  for (int j = 0; j < G; ++j) {
    float a = as_float(x[r * N + g * G + j]), b = as_float(x[r * N + H + g * G + j]);
    float v = rnd<__nv_bfloat16>(rnd<__nv_bfloat16>(a * sigmoid(a)) * b);
    y[r * H + g * G + j] = __nv_fp8_e4m3(clampf(v / sc, -E4M3_MAX, E4M3_MAX));
  }
  s[g * M + r] = sc;
}

// Dynamic per-tensor fp8 quantization of a bf16 [T][H][D] tensor with strides (st, sh, sd): d = amax / 448
// (1e-6 when amax is 0), y = e4m3(clamp(x / d)) contiguous, the descale d stored at *scale.
extern "C" __global__ void tensor_quant_fp8(const __nv_bfloat16* x, __nv_fp8_e4m3* y, float* scale, int T, int H,
                                            int D, int st, int sh, int sd) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float amax = 0.f;
  for (int t = 0; t < T; ++t)
    for (int h = 0; h < H; ++h)
      for (int d = 0; d < D; ++d) amax = fmaxf(amax, fabsf(as_float(x[t * st + h * sh + d * sd])));
  float ds = amax / E4M3_MAX;
  if (!(ds > 0.f)) ds = 1e-6f;
  for (int t = 0; t < T; ++t)
    for (int h = 0; h < H; ++h)
      for (int d = 0; d < D; ++d)
        y[(t * H + h) * D + d] = __nv_fp8_e4m3(clampf(as_float(x[t * st + h * sh + d * sd]) / ds, -E4M3_MAX,
                                                      E4M3_MAX));
  *scale = ds;
}

// Static fp8 quantization of a bf16 [S][H][D] tensor (strides st, sh, sd) into [S][H][P], P >= D, the
// head dimension padded with zeros: y = e4m3(clamp(x / scale)) for d < D, e4m3(0) beyond.
extern "C" __global__ void pad_quant_fp8(const __nv_bfloat16* x, const float* scale, __nv_fp8_e4m3* y, int S, int H,
                                         int D, int P, int st, int sh, int sd) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= S * H * P) return;
  int s = i / (H * P), h = (i / P) % H, d = i % P;
  float v = d < D ? as_float(x[s * st + h * sh + d * sd]) / scale[0] : 0.f;
  y[i] = __nv_fp8_e4m3(clampf(v, -E4M3_MAX, E4M3_MAX));
}

// ReLU^2 then static fp8 quantization, bf16 in: a = bf16(max(x, 0)^2), y = e4m3(clamp(a / scale)); NaN passes.
extern "C" __global__ void relu2_quant_fp8(const __nv_bfloat16* x, const float* scale, __nv_fp8_e4m3* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = as_float(x[i]);
  float r = fmaxf(v, 0.f);
  float q = clampf(rnd<__nv_bfloat16>(r * r) / scale[0], -E4M3_MAX, E4M3_MAX);
  y[i] = __nv_fp8_e4m3(isnan(v) ? v : q);
}

// Gemma 3n's sparse GELU-and-mul of x[M][2d] (f32): gate g, up u; cutoff = mean(g) + k std(g) (population
// std, two passes); h = max(g - cutoff, 0); y = 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h^3))) u, the tanh
// written as 2 / (1 + e^(-2z)) - 1.
extern "C" __global__ void gelu_and_mul_sparse(const float* x, float* y, int M, int d, float k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  const float* g = x + r * 2 * d;
  const float* u = g + d;
  float mean = 0.f;
  for (int j = 0; j < d; ++j) mean += g[j];
  mean /= d;
  float var = 0.f;
  for (int j = 0; j < d; ++j) var += (g[j] - mean) * (g[j] - mean);
  var /= d;
  float cutoff = mean + sqrtf(var) * k;
  for (int j = 0; j < d; ++j) {
    float h = fmaxf(g[j] - cutoff, 0.f);
    float z = 0.7978845608028654f * (h + 0.044715f * h * h * h);
    float th = 2.f / (1.f + expf(-2.f * z)) - 1.f;
    y[r * d + j] = 0.5f * h * (1.f + th) * u[j];
  }
}

// x sigmoid(gate), bf16 in, then static fp8 quantization: y = e4m3(clamp(bf16(x sigmoid(g)) / scale)).
extern "C" __global__ void sigmoid_gate_mul_fp8(const __nv_bfloat16* x, const __nv_bfloat16* g, const float* scale,
                                                __nv_fp8_e4m3* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = rnd<__nv_bfloat16>(as_float(x[i]) * sigmoid(as_float(g[i])));
  y[i] = __nv_fp8_e4m3(clampf(v / scale[0], -E4M3_MAX, E4M3_MAX));
}

// Gated norm of x[M][N] per group of G columns (Mamba2's RMSNormGated): with gate_first the input is first
// multiplied by silu(z); then RMS norm (rms) or LayerNorm (mean, two-pass variance) with eps, times w (plus b),
// and without gate_first the result is multiplied by silu(z). mean and rstd of (row, group) at [g M + row].
extern "C" __global__ void gated_norm(const float* x, const float* z, const float* w, const float* b, float* y,
                                      float* mean_out, float* rstd_out, int M, int N, int G, float eps, int rms,
                                      int gate_first, int has_bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int groups = N / G;
  if (i >= M * groups) return;
  int r = i / groups, g = i % groups;
  int o = r * N + g * G;
  float mean = 0.f;
  if (!rms) {
    for (int j = 0; j < G; ++j) mean += gate_first ? x[o + j] * z[o + j] * sigmoid(z[o + j]) : x[o + j];
    mean /= G;
  }
  float var = 0.f;
  for (int j = 0; j < G; ++j) {
    float v = (gate_first ? x[o + j] * z[o + j] * sigmoid(z[o + j]) : x[o + j]) - mean;
    var += v * v;
  }
  var /= G;
  float rstd = 1.f / sqrtf(var + eps);
  for (int j = 0; j < G; ++j) {
    float v = gate_first ? x[o + j] * z[o + j] * sigmoid(z[o + j]) : x[o + j];
    float out = (v - mean) * rstd * w[g * G + j] + (has_bias ? b[g * G + j] : 0.f);
    if (!gate_first) out = out * z[o + j] * sigmoid(z[o + j]);
    y[o + j] = out;
  }
  if (!rms) mean_out[g * M + r] = mean;
  rstd_out[g * M + r] = rstd;
}

// Qwen3-Next's attention input: per token, qkv[T][W] (bf16) holds per q head [q | gate] (2 hd each), then the k
// heads at kofs. Each q or k head: RMS norm with weight (w + beta), rounded to bf16; the first rd channels rotated
// NeoX-style by cos/sin of the token's position (cache[pos][rd]: rd/2 cos then rd/2 sin), the rest passed; the
// gate copied. q_out[T][nq hd], k_out[T][nk hd], gate_out[T][nq hd], all bf16.
extern "C" __global__ void qk_norm_rope_gate(const __nv_bfloat16* qkv, const float* qw, const float* kw,
                                             const float* cache, const long long* positions, __nv_bfloat16* q_out,
                                             __nv_bfloat16* k_out, __nv_bfloat16* gate_out, int T, int W, int kofs,
                                             int nq, int nk, int hd, int rd, float eps, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int heads = nq + nk;
  if (i >= T * heads) return;
  int t = i / heads, h = i % heads;
  bool is_k = h >= nq;
  const __nv_bfloat16* in = is_k ? qkv + t * W + kofs + (h - nq) * hd : qkv + t * W + h * 2 * hd;
  const float* w = is_k ? kw : qw;
  __nv_bfloat16* out = is_k ? k_out + t * nk * hd + (h - nq) * hd : q_out + t * nq * hd + h * hd;
  float ss = 0.f;
  for (int j = 0; j < hd; ++j) ss += as_float(in[j]) * as_float(in[j]);
  float rms = sqrtf(ss / hd + eps);
  int half = rd / 2;
  long long pos = positions[t];
  for (int j = rd; j < hd; ++j) out[j] = __float2bfloat16(as_float(in[j]) / rms * (w[j] + beta));
  for (int f = 0; f < half; ++f) {
    float x1 = rnd<__nv_bfloat16>(as_float(in[f]) / rms * (w[f] + beta));
    float x2 = rnd<__nv_bfloat16>(as_float(in[f + half]) / rms * (w[f + half] + beta));
    float c = cache[pos * rd + f], s = cache[pos * rd + half + f];
    out[f] = __float2bfloat16(x1 * c - x2 * s);
    out[f + half] = __float2bfloat16(x2 * c + x1 * s);
  }
  if (!is_k)
    for (int j = 0; j < hd; ++j) gate_out[t * nq * hd + h * hd + j] = in[hd + j];
}

// RMS norm of the H values at x with weight w + wplus into out: x / sqrt(mean(x^2) + eps) (w + wplus).
__device__ void rms_row(const float* x, const float* w, float* out, int H, float eps, float wplus) {
  float ss = 0.f;
  for (int j = 0; j < H; ++j) ss += x[j] * x[j];
  float rms = sqrtf(ss / H + eps);
  for (int j = 0; j < H; ++j) out[j] = x[j] / rms * (w[j] + wplus);
}

// MTP input: e = table[ids[t]], zero where positions[t] == 0; out[T][2H] = [norm(e, ew) | norm(prev, hw)].
extern "C" __global__ void embed_eh_norm(const long long* pos, const int* ids, const float* table, const float* prev,
                                         const float* ew, const float* hw, float* out, int T, int H, float eps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  float e[64];
  for (int j = 0; j < H; ++j) e[j] = pos[t] == 0 ? 0.f : table[ids[t] * H + j];
  rms_row(e, ew, out + t * 2 * H, H, eps, 0.f);
  rms_row(prev + t * H, hw, out + t * 2 * H + H, H, eps, 0.f);
}

// MiniMax's QK RMS norm on a bf16 qkv[T][W] (q: the first qs columns, k: the next ks): var[T][2] = mean of
// squares of q and of k; q_out = bf16(q / sqrt(var_q / tp + eps) qw), k_out likewise.
extern "C" __global__ void minimax_qk_norm(const __nv_bfloat16* qkv, const float* qw, const float* kw, float* var,
                                           __nv_bfloat16* q_out, __nv_bfloat16* k_out, int T, int W, int qs, int ks,
                                           int tp, float eps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  const __nv_bfloat16* q = qkv + t * W;
  const __nv_bfloat16* k = q + qs;
  float sq = 0.f, sk = 0.f;
  for (int j = 0; j < qs; ++j) sq += as_float(q[j]) * as_float(q[j]);
  for (int j = 0; j < ks; ++j) sk += as_float(k[j]) * as_float(k[j]);
  var[t * 2] = sq / qs;
  var[t * 2 + 1] = sk / ks;
  float rq = sqrtf(sq / qs / tp + eps), rk = sqrtf(sk / ks / tp + eps);
  for (int j = 0; j < qs; ++j) q_out[t * qs + j] = __float2bfloat16(as_float(q[j]) / rq * qw[j]);
  for (int j = 0; j < ks; ++j) k_out[t * ks + j] = __float2bfloat16(as_float(k[j]) / rk * kw[j]);
}

// Multimodal RoPE of q[T][nqh hd] and k[T][nkh hd], in place, cos and sin already gathered per axis:
// cos[3][T][rd/2]. Frequency f takes axis t, h or w: in sections [st, sh, sw], or interleaved (f % 3 == 1 and
// f < 3 sh -> h, f % 3 == 2 and f < 3 sw -> w, else t). neox rotates (x[f], x[f + rd/2]), else (x[2f], x[2f+1]).
extern "C" __global__ void mrope_gathered(float* q, float* k, const float* cos, const float* sin, int T, int nqh,
                                          int nkh, int hd, int rd, int st, int sh, int sw, int interleaved, int neox) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = rd / 2, heads = nqh + nkh;
  if (i >= T * heads * half) return;
  int t = i / (heads * half), h = (i / half) % heads, f = i % half;
  int axis;
  if (interleaved)
    axis = (f % 3 == 1 && f < 3 * sh) ? 1 : (f % 3 == 2 && f < 3 * sw) ? 2 : 0;
  else
    axis = f < st ? 0 : f < st + sh ? 1 : 2;
  float c = cos[(axis * T + t) * half + f], s = sin[(axis * T + t) * half + f];
  float* x = h < nqh ? q + (t * nqh + h) * hd : k + (t * nkh + h - nqh) * hd;
  int i1 = neox ? f : 2 * f, i2 = neox ? f + half : 2 * f + 1;
  float x1 = x[i1], x2 = x[i2];
  x[i1] = x1 * c - x2 * s;
  x[i2] = x2 * c + x1 * s;
}

// flash-attn's rotary embedding of x[B][S][H][D] (rotary_dim = D) into out, positions offset by 0:
// cos, sin [S_ro][D/2]; interleaved rotates (x[2f], x[2f+1]), else (x[f], x[f + D/2]).
extern "C" __global__ void rotary_bshd(const float* x, const float* cos, const float* sin, float* out, int B, int S,
                                       int H, int D, int interleaved) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = D / 2;
  if (i >= B * S * H * half) return;
  int f = i % half, row = i / half;
  int s = (row / H) % S;
  const float* xr = x + row * D;
  float* o = out + row * D;
  float c = cos[s * half + f], sn = sin[s * half + f];
  int i1 = interleaved ? 2 * f : f, i2 = interleaved ? 2 * f + 1 : f + half;
  o[i1] = xr[i1] * c - xr[i2] * sn;
  o[i2] = xr[i2] * c + xr[i1] * sn;
}

// Row log-softmax (log_sm) or softmax of x[M][N]: x - log(sum exp x), exp(x) / sum exp x.
extern "C" __global__ void softmax_rows(const float* x, float* y, int M, int N, int log_sm) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float s = 0.f;
  for (int j = 0; j < N; ++j) s += expf(x[r * N + j]);
  for (int j = 0; j < N; ++j) y[r * N + j] = log_sm ? x[r * N + j] - logf(s) : expf(x[r * N + j]) / s;
}