// Naive references for sglang's Triton kernels (attention state merging, decode and prefill attention,
// row log-sum-exp, norms, activations, M-RoPE, sampling renormalization, KV page copies): one thread per
// row, query or cell, textbook formulas (softmax without max subtraction), f32 accumulation.
#include <cuda_bf16.h>
#include <math.h>
#include "float_formats.cuh"

// Merging two partial attention results of one query by their log-sum-exps a and b:
// out = (e^a va + e^b vb) / (e^a + e^b), out_lse = log(e^a + e^b). va, vb: [n][D], a, b: [n].
extern "C" __global__ void merge_attn_states(const float* va, const float* a, const float* vb, const float* b,
                                             float* out, float* out_lse, int n, int D) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  float ea = expf(a[i]), eb = expf(b[i]);
  out_lse[i] = logf(ea + eb);
  for (int d = 0; d < D; ++d) out[i * D + d] = (ea * va[i * D + d] + eb * vb[i * D + d]) / (ea + eb);
}

// Per row of x[rows][cols]: its maximum m and log(sum_j exp(x_j)) - m.
extern "C" __global__ void row_max_logsumexp(const float* x, float* mx, float* ls, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float m = x[r * cols], s = 0.f;
  for (int j = 0; j < cols; ++j) {
    m = fmaxf(m, x[r * cols + j]);
    s += expf(x[r * cols + j]);
  }
  mx[r] = m;
  ls[r] = logf(s) - m;
}

// GELU (erf form) of the first half of each row times the second half: x[rows][2 d], y[rows][d].
extern "C" __global__ void gelu_and_mul_rows(const float* x, float* y, int rows, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * d) return;
  int r = i / d, c = i % d;
  float a = x[r * 2 * d + c], b = x[r * 2 * d + d + c];
  y[i] = 0.5f * a * (1.f + erff(a / sqrtf(2.f))) * b;
}

// Logit soft-capping, in place: x = cap tanh(x / cap).
extern "C" __global__ void softcap_inplace(float* x, int n, float cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = cap * tanhf(x[i] / cap);
}

// Soft-capping of logits gathered rank by rank, g[world][tokens][W], into y[tokens][vocab]:
// column c of token t is g[c / W][t][c % W].
extern "C" __global__ void gathered_softcap(const float* g, float* y, int tokens, int W, int vocab, float cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= tokens * vocab) return;
  int t = i / vocab, c = i % vocab;
  y[i] = cap * tanhf(g[((c / W) * tokens + t) * W + c % W] / cap);
}

// RMSNorm of rows: y = x / sqrt(mean(x^2) + eps) * w.
extern "C" __global__ void rmsnorm_rows(const float* x, const float* w, float* y, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += x[r * cols + j] * x[r * cols + j];
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = x[r * cols + j] / rms * w[j];
}

// Two RMSNorms around a residual add: mid = r + rmsnorm(x) w1, out = rmsnorm(mid) w2.
extern "C" __global__ void dual_residual_rmsnorm_rows(const float* x, const float* res, const float* w1,
                                                      const float* w2, float* out, float* mid, int rows, int cols,
                                                      float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += xr[j] * xr[j];
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) mid[r * cols + j] = res[r * cols + j] + xr[j] / rms * w1[j];
  float ss2 = 0.f;
  for (int j = 0; j < cols; ++j) ss2 += mid[r * cols + j] * mid[r * cols + j];
  float rms2 = sqrtf(ss2 / cols + eps);
  for (int j = 0; j < cols; ++j) out[r * cols + j] = mid[r * cols + j] / rms2 * w2[j];
}

// Gemma RMSNorm: y = x / sqrt(mean(x^2) + eps) (1 + w).
extern "C" __global__ void gemma_rmsnorm_rows(const float* x, const float* w, float* y, int rows, int cols,
                                              float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += x[r * cols + j] * x[r * cols + j];
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = x[r * cols + j] / rms * (1.f + w[j]);
}

// The same of s = x + res, with s stored too.
extern "C" __global__ void gemma_add_rmsnorm_rows(const float* x, const float* res, const float* w, float* y,
                                                  float* s, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) {
    s[r * cols + j] = x[r * cols + j] + res[r * cols + j];
    ss += s[r * cols + j] * s[r * cols + j];
  }
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = s[r * cols + j] / rms * (1.f + w[j]);
}

// Interleaved M-RoPE's channel selection: x[3][S][D] holds the temporal, height and width copies of each
// channel; channel d comes from the height copy where d % 3 == 1 and d < 3 sec_h, from the width copy where
// d % 3 == 2 and d < 3 sec_w, otherwise from the temporal one.
extern "C" __global__ void mrope_interleave_select(const float* x, float* y, int S, int D, int sec_h, int sec_w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= S * D) return;
  int d = i % D;
  int axis = (d % 3 == 1 && d < 3 * sec_h) ? 1 : (d % 3 == 2 && d < 3 * sec_w) ? 2 : 0;
  y[i] = x[axis * S * D + i];
}

// Multimodal RoPE of q[T][nqh hd] and k[T][nkh hd], in place. Frequency i < rd/2 takes its position from
// axis t, h or w (positions[3][T]): in sections [sec_t, sec_h, sec_w] of the frequencies, or interleaved
// (i % 3 == 1 -> h while i <= 3 sec_h, i % 3 == 2 -> w while i <= 3 sec_w, else t). cache[pos][rd] holds
// cos of the rd/2 frequencies, then their sin. neox rotates (x[i], x[i + rd/2]), otherwise (x[2i], x[2i+1]).
extern "C" __global__ void mrope_qk(float* q, float* k, const float* cache, const long long* positions, int T, int nqh,
                                    int nkh, int hd, int rd, int sec_t, int sec_h, int sec_w, int interleaved,
                                    int neox) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = rd / 2, heads = nqh + nkh;
  if (i >= T * heads * half) return;
  int t = i / (heads * half), h = (i / half) % heads, f = i % half;
  int axis;
  if (interleaved)
    axis = (f % 3 == 1 && f <= 3 * sec_h) ? 1 : (f % 3 == 2 && f <= 3 * sec_w) ? 2 : 0;
  else
    axis = f < sec_t ? 0 : f < sec_t + sec_h ? 1 : 2;
  int pos = positions[axis * T + t];
  float c = cache[pos * rd + f], s = cache[pos * rd + half + f];
  float* x = h < nqh ? q + (t * nqh + h) * hd : k + (t * nkh + h - nqh) * hd;
  int i1 = neox ? f : 2 * f, i2 = neox ? f + half : 2 * f + 1;
  float x1 = x[i1], x2 = x[i2];
  x[i1] = x1 * c - x2 * s;
  x[i2] = x2 * c + x1 * s;
}

// Top-k / top-p renormalization from a pivot per row: probabilities below the pivot are dropped and the
// rest divided by their sum.
extern "C" __global__ void renorm_from_pivots(const float* p, const float* pivot, float* out, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j)
    if (p[r * cols + j] >= pivot[r]) s += p[r * cols + j];
  for (int j = 0; j < cols; ++j) out[r * cols + j] = (p[r * cols + j] >= pivot[r] ? p[r * cols + j] : 0.f) / s;
}

// Softmax of x / t[row] per row.
extern "C" __global__ void temperature_softmax_rows(const float* x, const float* t, float* p, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(x[r * cols + j] / t[r]);
  for (int j = 0; j < cols; ++j) p[r * cols + j] = expf(x[r * cols + j] / t[r]) / s;
}

// Copies page src[i] of buf[pages][W] to page dst[i], for i < n (the two sets disjoint).
extern "C" __global__ void copy_pages_ref(long long* buf, const long long* src, const long long* dst, int n, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * W) return;
  buf[dst[i / W] * W + i % W] = buf[src[i / W] * W + i % W];
}

// Decoding attention, one thread per (sequence, query head, channel): sequence b's keys are the KV-cache
// slots kv_indices[kv_indptr[b] .. kv_indptr[b+1]), k and v laid out [slot][kv_heads][D]; q [batch][heads][D];
// query head h reads kv head h / (heads / kv_heads). o = softmax(scale q k^T) v.
template <typename T>
__device__ void decode_attention(const T* q, const T* k, const T* v, const int* kv_indptr, const int* kv_indices,
                                 T* o, int batch, int heads, int kv_heads, int D, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch * heads * D) return;
  int b = i / (heads * D), h = (i / D) % heads, c = i % D, kh = h / (heads / kv_heads);
  const T* qi = q + (b * heads + h) * D;
  float den = 0.f, num = 0.f;
  for (int j = kv_indptr[b]; j < kv_indptr[b + 1]; ++j) {
    const T* kj = k + (kv_indices[j] * kv_heads + kh) * D;
    float s = 0.f;
    for (int d = 0; d < D; ++d) s += as_float(qi[d]) * as_float(kj[d]);
    float p = expf(s * scale);
    den += p;
    num += p * as_float(v[(kv_indices[j] * kv_heads + kh) * D + c]);
  }
  o[i] = from_float<T>(num / den);
}

extern "C" __global__ void decode_attention_f32(const float* q, const float* k, const float* v, const int* kv_indptr,
                                                const int* kv_indices, float* o, int batch, int heads, int kv_heads,
                                                int D, float scale) {
  decode_attention<float>(q, k, v, kv_indptr, kv_indices, o, batch, heads, kv_heads, D, scale);
}

extern "C" __global__ void decode_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                 const __nv_bfloat16* v, const int* kv_indptr, const int* kv_indices,
                                                 __nv_bfloat16* o, int batch, int heads, int kv_heads, int D,
                                                 float scale) {
  decode_attention<__nv_bfloat16>(q, k, v, kv_indptr, kv_indices, o, batch, heads, kv_heads, D, scale);
}

// Causal self-attention over packed sequences, one thread per (token, head, channel): sequence b is tokens
// start[b] .. start[b] + len[b] of q, k, v [tokens][heads or kv_heads][D] (in order, no gaps); a token
// attends to its sequence's tokens up to itself. o = softmax(scale q k^T) v.
extern "C" __global__ void prefill_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                  const __nv_bfloat16* v, const int* start, const int* len,
                                                  __nv_bfloat16* o, int batch, int tokens, int heads, int kv_heads,
                                                  int D, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= tokens * heads * D) return;
  int t = i / (heads * D), h = (i / D) % heads, c = i % D, kh = h / (heads / kv_heads);
  int b = 0;
  while (b + 1 < batch && t >= start[b + 1]) ++b;
  const __nv_bfloat16* qi = q + (t * heads + h) * D;
  float den = 0.f, num = 0.f;
  for (int j = start[b]; j <= t; ++j) {
    float s = 0.f;
    for (int d = 0; d < D; ++d) s += as_float(qi[d]) * as_float(k[(j * kv_heads + kh) * D + d]);
    float p = expf(s * scale);
    den += p;
    num += p * as_float(v[(j * kv_heads + kh) * D + c]);
  }
  o[i] = __float2bfloat16(num / den);
}

// Attention output gating: y[t][h D + d] = attn[t][h D + d] sigmoid(gate[t row_stride + h head_stride + d]).
extern "C" __global__ void sigmoid_gate_mul(const float* attn, const float* gate, float* y, int tokens, int heads,
                                            int D, int row_stride, int head_stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= tokens * heads * D) return;
  int t = i / (heads * D), h = (i / D) % heads, d = i % D;
  y[i] = attn[i] / (1.f + expf(-gate[t * row_stride + h * head_stride + d]));
}

// Writes token n's K and V rows (k, v [n][H D]) to cache slot loc[n] of kbuf, vbuf [slots][H D] where mask[n].
extern "C" __global__ void masked_set_kv(const float* k, const float* v, float* kbuf, float* vbuf,
                                         const long long* loc, const bool* mask, int n, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * width) return;
  int t = i / width, c = i % width;
  if (!mask[t]) return;
  kbuf[loc[t] * width + c] = k[i];
  vbuf[loc[t] * width + c] = v[i];
}

// Vocabulary-parallel embedding on one rank: its weight holds rows for tokens [start, end), then pad unused
// rows, then the added tokens [added_start, added_end); tokens of other ranks embed to 0.
extern "C" __global__ void vocab_parallel_embedding_ref(const long long* tokens, const float* w, float* y, int n,
                                                        int hidden, int start, int end, int pad, int added_start,
                                                        int added_end) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * hidden) return;
  long long tok = tokens[i / hidden];
  int c = i % hidden;
  if (tok >= start && tok < end)
    y[i] = w[(tok - start) * hidden + c];
  else if (tok >= added_start && tok < added_end)
    y[i] = w[(end - start + pad + tok - added_start) * hidden + c];
  else
    y[i] = 0.f;
}
