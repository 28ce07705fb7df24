// Naive references for lightllm's Triton kernels (norms, rotary, gated activations, sampling penalties, KV-cache
// copies and int8 quantization, token attention in its pieces, flash decoding, causal / sliding-window / ALiBi
// prefill attention, int8 / int4 weight dequantization): one thread per row, token, pair or cell, textbook
// formulas, f32 accumulation, softmax without max subtraction, 16-bit values through cuda_fp16.h / cuda_bf16.h.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include "float_formats.cuh"

// RMSNorm of x[R][N] (bf16): y = bf16((x / sqrt(mean(x^2) + eps)) w)
extern "C" __global__ void rms_norm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int R,
                                         int N, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) ss += as_float(x[r * N + j]) * as_float(x[r * N + j]);
  float rms = sqrtf(ss / N + eps);
  for (int j = 0; j < N; ++j) y[r * N + j] = __float2bfloat16(as_float(x[r * N + j]) / rms * as_float(w[j]));
}

// LayerNorm of x[R][N] (bf16), two-pass variance: y = bf16((x - mean) / sqrt(var + eps) w + b)
extern "C" __global__ void layer_norm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, const __nv_bfloat16* b,
                                           __nv_bfloat16* y, int R, int N, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  float s = 0.f;
  for (int j = 0; j < N; ++j) s += as_float(x[r * N + j]);
  float mean = s / N, v = 0.f;
  for (int j = 0; j < N; ++j) {
    float d = as_float(x[r * N + j]) - mean;
    v += d * d;
  }
  float sd = sqrtf(v / N + eps);
  for (int j = 0; j < N; ++j)
    y[r * N + j] = __float2bfloat16((as_float(x[r * N + j]) - mean) / sd * as_float(w[j]) + as_float(b[j]));
}

// In-place rotary embedding of x[S][H][D] (f32) with cos / sin [S][CW]: pair p (p < CW) is (p, p + CW)
// (interleaved 0) or (2p, 2p + 1) (interleaved 1); (a, b) -> (a c - b s, a s + b c). Dims past the pairs stay.
extern "C" __global__ void rotary_f32(float* x, const float* cs, const float* sn, int S, int H, int D, int CW,
                                      int interleaved) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= S * H * CW) return;
  int s = i / (H * CW), h = (i / CW) % H, p = i % CW;
  int jl = interleaved ? 2 * p : p, jh = interleaved ? 2 * p + 1 : p + CW;
  float* r = x + (s * H + h) * D;
  float a = r[jl], b = r[jh], c = cs[s * CW + p], sv = sn[s * CW + p];
  r[jl] = a * c - b * sv;
  r[jh] = a * sv + b * c;
}

// In-place gated activations of x[R][2N] (bf16): x[r][j] = bf16(u bf16(act(g))), g = x[r][j], u = x[r][N + j].
// act 0: SiLU g / (1 + e^-g); act 1 (no row: gemma_2b's GELU kernel does not compile on Triton 3.6):
// tanh-GELU 0.5 g (1 + tanh(sqrt(2/pi) (g + 0.044715 g^3))), with tanh(t) = (e^2t - 1) / (e^2t + 1).
extern "C" __global__ void gated_act_bf16(__nv_bfloat16* x, int R, int N, int act) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= R * N) return;
  int r = i / N, j = i % N;
  float g = as_float(x[r * 2 * N + j]), u = as_float(x[r * 2 * N + N + j]);
  float a;
  if (act == 0) {
    a = g / (1.f + expf(-g));
  } else {
    float t = 0.7978845608028654f * (g + 0.044715f * g * g * g);
    float e = expf(2.f * t);
    a = 0.5f * g * (1.f + (e - 1.f) / (e + 1.f));
  }
  x[r * 2 * N + j] = __float2bfloat16(u * rnd<__nv_bfloat16>(a));
}

// Sampling penalties in place on logits[B][V] (f32): for the tokens ids[cu[b] .. cu[b+1]) with counts c:
// l = (l > 0 ? l / rep[b] : l rep[b]) - c freq[b] - pres[b].
extern "C" __global__ void apply_penalty_f32(float* logits, const float* pres, const float* freq, const float* rep,
                                             const int* ids, const int* counts, const int* cu, int B, int V) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  for (int t = cu[b]; t < cu[b + 1]; ++t) {
    float l = logits[b * V + ids[t]];
    float r = l > 0.f ? l / rep[b] : l * rep[b];
    logits[b * V + ids[t]] = r - counts[t] * freq[b] - pres[b];
  }
}

// KV-cache copy: out[dest[t]][h][d] = k[t][h][d] (f32)
extern "C" __global__ void copy_kv_f32(const float* k, const int* dest, float* out, int T, int H, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), r = i % (H * D);
  out[dest[t] * H * D + r] = k[i];
}

// KV-cache copy with symmetric int8 quantization per group of G channels (f16 in): scale = f16(max|x| / 127),
// q = int8(trunc(f16(x / scale))) (the quotient rounded to f16 as the f16 division does), out[dest[t]].
extern "C" __global__ void quant_copy_kv_f16(const __half* k, const int* dest, signed char* out, __half* scale, int T,
                                             int H, int D, int G) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int ng = D / G;
  if (i >= T * H * ng) return;
  int t = i / (H * ng), h = (i / ng) % H, g = i % ng;
  const __half* src = k + (t * H + h) * D + g * G;
  float m = 0.f;
  for (int j = 0; j < G; ++j) m = fmaxf(m, fabsf(as_float(src[j])));
  __half s = __float2half(m / 127.f);
  int o = (dest[t] * H + h) * D + g * G;
  for (int j = 0; j < G; ++j) out[o + j] = (signed char)(int)rnd<__half>(as_float(src[j]) / __half2float(s));
  scale[(dest[t] * H + h) * ng + g] = s;
}

// Per-row int8 quantization of a[M][K] (f16): s = max|a| / 127 (f32), q = int8(trunc(a / s)), scale stored f16.
extern "C" __global__ void quant_perrow_f16(const __half* a, signed char* q, __half* scale, int M, int K) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float m = 0.f;
  for (int j = 0; j < K; ++j) m = fmaxf(m, fabsf(as_float(a[r * K + j])));
  float s = m / 127.f;
  for (int j = 0; j < K; ++j) q[r * K + j] = (signed char)(int)(as_float(a[r * K + j]) / s);
  scale[r] = __float2half(s);
}

// Token attention over a request-to-token slot table: sequence b's token n sits in slot
// r2t[req[b] ldr + n] of k / v [slots][KVH][D]; query head h reads KV head h / (H / KVH).
__device__ int slot_of(const int* r2t, const int* req, int b, int n, int ldr) { return r2t[req[b] * ldr + n]; }

// att[h][start[b] + n] = scale q[b][h] . k[slot(b, n)][h / g] for n < len[b] (f32)
extern "C" __global__ void token_att1_f32(const float* q, const float* k, const int* r2t, const int* req,
                                          const int* start, const int* len, float* att, int B, int H, int KVH,
                                          int D, int ldr, int ldatt, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H) return;
  int b = i / H, h = i % H, kh = h / (H / KVH);
  for (int n = 0; n < len[b]; ++n) {
    const float* kr = k + (slot_of(r2t, req, b, n, ldr) * KVH + kh) * D;
    float s = 0.f;
    for (int d = 0; d < D; ++d) s += q[(b * H + h) * D + d] * kr[d];
    att[h * ldatt + start[b] + n] = s * scale;
  }
}

// prob[h][start[b] + n] = e^x / sum e^x over the sequence's logits x = logits[h][start[b] ..] (f32)
extern "C" __global__ void token_softmax_f32(const float* logits, const int* start, const int* len, float* prob,
                                             int B, int H, int ld) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H) return;
  int b = i / H, h = i % H;
  const float* x = logits + h * ld + start[b];
  float z = 0.f;
  for (int n = 0; n < len[b]; ++n) z += expf(x[n]);
  for (int n = 0; n < len[b]; ++n) prob[h * ld + start[b] + n] = expf(x[n]) / z;
}

// out[b][h][d] = sum_n w_n v[slot(b, n)][h / g][d], w_n = p[h][start[b] + n] (softmax 0) or
// e^x_n / sum e^x (softmax 1, x the logits there) (f32)
extern "C" __global__ void token_reducev_f32(const float* p, const float* v, const int* r2t, const int* req,
                                             const int* start, const int* len, float* out, int B, int H, int KVH,
                                             int D, int ldr, int ldp, int softmax) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H * D) return;
  int b = i / (H * D), h = (i / D) % H, d = i % D, kh = h / (H / KVH);
  const float* x = p + h * ldp + start[b];
  float z = 0.f;
  if (softmax)
    for (int n = 0; n < len[b]; ++n) z += expf(x[n]);
  float acc = 0.f;
  for (int n = 0; n < len[b]; ++n) {
    float w = softmax ? expf(x[n]) / z : x[n];
    acc += w * v[(slot_of(r2t, req, b, n, ldr) * KVH + kh) * D + d];
  }
  out[i] = acc;
}

// Decode attention: out[b][h] = softmax_n(scale q[b][h] . k_n) v_n over the sequence's slots (f32)
extern "C" __global__ void decode_attention_f32(const float* q, const float* k, const float* v, const int* r2t,
                                                const int* req, const int* len, float* out, int B, int H, int KVH,
                                                int D, int ldr, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H * D) return;
  int b = i / (H * D), h = (i / D) % H, d = i % D, kh = h / (H / KVH);
  float z = 0.f, acc = 0.f;
  for (int n = 0; n < len[b]; ++n) {
    int sl = slot_of(r2t, req, b, n, ldr);
    float s = 0.f;
    for (int e = 0; e < D; ++e) s += q[(b * H + h) * D + e] * k[(sl * KVH + kh) * D + e];
    float w = expf(s * scale);
    z += w;
    acc += w * v[(sl * KVH + kh) * D + d];
  }
  out[i] = acc / z;
}

// Causal prefill attention over packed sequences (bf16 q, k, v, o; tokens start[b] .. start[b] + len[b]):
// query i attends keys j <= i (and j > i - window when window > 0).
extern "C" __global__ void prefill_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                  const __nv_bfloat16* v, const int* start, const int* len,
                                                  __nv_bfloat16* o, int B, int T, int H, int KVH, int D, float scale,
                                                  int window) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), h = (i / D) % H, d = i % D, kh = h / (H / KVH);
  int b = 0;
  while (b < B && !(t >= start[b] && t < start[b] + len[b])) ++b;
  if (b == B) return;
  int qi = t - start[b];
  float z = 0.f, acc = 0.f;
  for (int j = 0; j <= qi; ++j) {
    if (window > 0 && j <= qi - window) continue;
    int kt = start[b] + j;
    float s = 0.f;
    for (int e = 0; e < D; ++e) s += as_float(q[(t * H + h) * D + e]) * as_float(k[(kt * KVH + kh) * D + e]);
    float w = expf(s * scale);
    z += w;
    acc += w * as_float(v[(kt * KVH + kh) * D + d]);
  }
  o[i] = __float2bfloat16(acc / z);
}

// ALiBi prefill with a prompt cache (bf16): sequence b has len[b] tokens, the first ready[b] of which are cached;
// its len[b] - ready[b] new queries (packed from start[b]) sit at positions ready[b] + m and attend positions
// j <= ready[b] + m, read from slot r2t[req[b] ldr + j] of k / v [slots][H][D]; the score is
// scale q . k - slope[h] (ready[b] + m - j).
extern "C" __global__ void alibi_prefill_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                              const __nv_bfloat16* v, const float* slope, const int* start,
                                              const int* len, const int* ready, const int* r2t, const int* req,
                                              __nv_bfloat16* o, int B, int T, int H, int D, int ldr, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), h = (i / D) % H, d = i % D;
  int b = 0;
  while (b < B && !(t >= start[b] && t < start[b] + len[b] - ready[b])) ++b;
  if (b == B) return;
  int pos = ready[b] + t - start[b];
  float z = 0.f, acc = 0.f;
  for (int j = 0; j <= pos; ++j) {
    int sl = slot_of(r2t, req, b, j, ldr);
    float s = 0.f;
    for (int e = 0; e < D; ++e) s += as_float(q[(t * H + h) * D + e]) * as_float(k[(sl * H + h) * D + e]);
    float w = expf(s * scale - slope[h] * (pos - j));
    z += w;
    acc += w * as_float(v[(sl * H + h) * D + d]);
  }
  o[i] = __float2bfloat16(acc / z);
}

// int8 weight dequantization: out[k][n] = f16(b[k][n] s[n])
extern "C" __global__ void dequant_int8_f16(const signed char* b, const __half* s, __half* out, int K, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= K * N) return;
  out[i] = __float2half((float)b[i] * __half2float(s[i % N]));
}

// GPTQ-style int4 matmul with one group: w[k][n] = f16(f16(q s[n]) - f16(z s[n])), q = 4 bits 4 (k % 8) of
// qw[k / 8][n], z = 4 bits 4 (n % 8) of qz[n / 8]; c[m][n] = f16(sum_k a[m][k] w[k][n]) (f32 sum)
extern "C" __global__ void matmul_int4_f16(const __half* a, const int* qw, const __half* s, const int* qz, __half* c,
                                           int M, int N, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float sc = __half2float(s[n]);
  float z = (float)((qz[n / 8] >> (4 * (n % 8))) & 15);
  float acc = 0.f;
  for (int kk = 0; kk < K; ++kk) {
    float qv = (float)((qw[(kk / 8) * N + n] >> (4 * (kk % 8))) & 15);
    float w = rnd<__half>(rnd<__half>(qv * sc) - rnd<__half>(z * sc));
    acc += __half2float(a[m * K + kk]) * w;
  }
  c[i] = __float2half(acc);
}
