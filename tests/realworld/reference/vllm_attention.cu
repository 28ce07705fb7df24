// Naive references for vLLM's Triton attention, KV-cache and sampling kernels (instances/vllm_attention.py,
// instances/vllm_sample.py): one thread per row, query or cell, textbook formulas (softmax without max
// subtraction), f32 accumulation.
#include <cuda_bf16.h>
#include <math.h>
#include "float_formats.cuh"

// Merging a prefix and a suffix attention pass of token t, head h by their log-sum-exps a and b (lse tensors
// laid out [heads][tokens]; outputs [tokens][heads][D]): out = (e^a va + e^b vb) / (e^a + e^b),
// out_lse = log(e^a + e^b). Tokens t >= n_ctx have no prefix: out = vb, out_lse = b.
extern "C" __global__ void merge_states_ref(const float* va, const float* a, const float* vb, const float* b,
                                            float* out, float* out_lse, int T, int H, int D, int n_ctx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H) return;
  int t = i / H, h = i % H, l = h * T + t;
  const float* pa = va + i * D;
  const float* pb = vb + i * D;
  if (t >= n_ctx) {
    out_lse[l] = b[l];
    for (int d = 0; d < D; ++d) out[i * D + d] = pb[d];
    return;
  }
  float ea = expf(a[l]), eb = expf(b[l]);
  out_lse[l] = logf(ea + eb);
  for (int d = 0; d < D; ++d) out[i * D + d] = (ea * pa[d] + eb * pb[d]) / (ea + eb);
}

// Decoding attention over a paged KV cache, one thread per (request, query head, channel): request b's key j
// (j < seq_len[b]) sits in page table[b][j / P] at row j % P; k laid out [pages][P][kv_heads][ks] (its first Dk
// channels are the key), v [pages][P][kv_heads][vs] (its first Dv channels are the value; MLA passes the key
// cache as v), q [batch][heads][Dk]; query head h reads kv head h / (heads / kv_heads).
// o = softmax(scale q k^T) v, lse[b][h] = log(sum_j exp(scale q k_j)).
template <typename T>
__device__ void paged_decode(const T* q, const T* k, const T* v, const int* table, const int* seq_len, T* o, T* lse,
                             int batch, int heads, int kv_heads, int Dk, int Dv, int ks, int vs, int P, int max_pages,
                             float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch * heads * Dv) return;
  int b = i / (heads * Dv), h = (i / Dv) % heads, c = i % Dv, kh = h / (heads / kv_heads);
  const T* qi = q + (b * heads + h) * Dk;
  float den = 0.f, num = 0.f;
  for (int j = 0; j < seq_len[b]; ++j) {
    int row = (table[b * max_pages + j / P] * P + j % P) * kv_heads + kh;
    float s = 0.f;
    for (int d = 0; d < Dk; ++d) s += as_float(qi[d]) * as_float(k[row * ks + d]);
    float p = expf(s * scale);
    den += p;
    num += p * as_float(v[row * vs + c]);
  }
  o[i] = from_float<T>(num / den);
  if (c == 0) lse[b * heads + h] = from_float<T>(logf(den));
}

extern "C" __global__ void paged_decode_f32(const float* q, const float* k, const float* v, const int* table,
                                            const int* seq_len, float* o, float* lse, int batch, int heads,
                                            int kv_heads, int Dk, int Dv, int ks, int vs, int P, int max_pages,
                                            float scale) {
  paged_decode<float>(q, k, v, table, seq_len, o, lse, batch, heads, kv_heads, Dk, Dv, ks, vs, P, max_pages, scale);
}

extern "C" __global__ void paged_decode_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                             const int* table, const int* seq_len, __nv_bfloat16* o,
                                             __nv_bfloat16* lse, int batch, int heads, int kv_heads, int Dk, int Dv,
                                             int ks, int vs, int P, int max_pages, float scale) {
  paged_decode<__nv_bfloat16>(q, k, v, table, seq_len, o, lse, batch, heads, kv_heads, Dk, Dv, ks, vs, P, max_pages,
                              scale);
}

// Self-attention over packed sequences, one thread per (token, head, channel): sequence b is tokens
// start[b] .. start[b] + len[b] of q, k, v [tokens][heads or kv_heads][D]. Token t (position p in its
// sequence) attends to the positions j of its sequence with j <= p when causal, and p - j <= window when
// window > 0. o = softmax(scale q k^T) v.
extern "C" __global__ void packed_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                 const __nv_bfloat16* v, const int* start, const int* len,
                                                 __nv_bfloat16* o, int batch, int tokens, int heads, int kv_heads,
                                                 int D, float scale, int causal, int window) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= tokens * heads * D) return;
  int t = i / (heads * D), h = (i / D) % heads, c = i % D, kh = h / (heads / kv_heads);
  int b = 0;
  while (b + 1 < batch && t >= start[b + 1]) ++b;
  int p = t - start[b];
  const __nv_bfloat16* qi = q + (t * heads + h) * D;
  float den = 0.f, num = 0.f;
  for (int j = 0; j < len[b]; ++j) {
    if (causal && j > p) continue;
    if (window > 0 && p - j > window) continue;
    int kt = start[b] + j;
    float s = 0.f;
    for (int d = 0; d < D; ++d) s += as_float(qi[d]) * as_float(k[(kt * kv_heads + kh) * D + d]);
    float e = expf(s * scale);
    den += e;
    num += e * as_float(v[(kt * kv_heads + kh) * D + c]);
  }
  o[i] = __float2bfloat16(num / den);
}

// Writing token n's K and V rows (key, value [n][W], W = heads * D) to cache slot slot[n] (slot < 0: a padding
// token, skipped). Flash layout: both caches [blocks][B][heads][D], the slot's row at slot * W. Head-major
// layout: key cache [blocks][heads][D / x][B][x], value cache [blocks][heads][D][B].
extern "C" __global__ void cache_kv_ref(const float* key, const float* value, float* kc, float* vc, const long long* slot,
                                        int n, int heads, int D, int B, int x, int head_major) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int W = heads * D;
  if (i >= n * W) return;
  int t = i / W, h = (i % W) / D, d = i % D;
  long long s = slot[t];
  if (s < 0) return;
  long long blk = s / B, off = s % B;
  long long kdst, vdst;
  if (head_major) {
    kdst = (((blk * heads + h) * (D / x) + d / x) * B + off) * x + d % x;
    vdst = ((blk * heads + h) * D + d) * B + off;
  } else {
    kdst = s * W + h * D + d;
    vdst = kdst;
  }
  kc[kdst] = key[i];
  vc[vdst] = value[i];
}

// ---- sampling ----

// Temperature: row r of logits[rows][V] belongs to request map[r]; divided by t = temp[map[r]] unless t is 0
// (greedy) or 1. In place.
extern "C" __global__ void temperature_ref(float* x, const int* map, const float* temp, int rows, int V) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * V) return;
  float t = temp[map[i / V]];
  if (t == 0.f || t == 1.f) return;
  x[i] = x[i] / t;
}

// Min-p: where p = min_p[map[r]] > 0, logits below max_j x_j + log(p) (probability below p times the top
// probability) become -inf. In place, one thread per row.
extern "C" __global__ void min_p_ref(float* x, const int* map, const float* min_p, int rows, int V) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float p = min_p[map[r]];
  if (p == 0.f) return;
  float* row = x + r * V;
  float m = row[0];
  for (int j = 1; j < V; ++j) m = fmaxf(m, row[j]);
  float th = m + logf(p);
  for (int j = 0; j < V; ++j)
    if (row[j] < th) row[j] = -INFINITY;
}

// Logit processing of row r (request q = map[r]), in place: if the request lists allowed tokens, every other
// logit becomes -inf; then bias[q][i] is added to token bias_ids[q][i]; then, while pos[r] + 1 < min_len[q],
// its stop tokens become -inf. Lists are [requests][cap_*], with counts n_*[q].
extern "C" __global__ void logit_bias_ref(float* x, const int* map, const int* n_allowed, const int* allowed,
                                          const int* n_bias, const int* bias_ids, const float* bias, const long long* pos,
                                          const int* min_len, const int* n_stop, const int* stop, int rows, int V,
                                          int cap_allowed, int cap_bias, int cap_stop) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int q = map[r];
  float* row = x + r * V;
  if (n_allowed[q] > 0) {
    for (int j = 0; j < V; ++j) {
      bool ok = false;
      for (int a = 0; a < n_allowed[q]; ++a) ok = ok || allowed[q * cap_allowed + a] == j;
      if (!ok) row[j] = -INFINITY;
    }
  }
  for (int a = 0; a < n_bias[q]; ++a) row[bias_ids[q * cap_bias + a]] += bias[q * cap_bias + a];
  if (pos[r] + 1 < min_len[q])
    for (int a = 0; a < n_stop[q]; ++a) row[stop[q * cap_stop + a]] = -INFINITY;
}

// Repetition, frequency and presence penalties of row r (request q = map[r]), in place. Token j's output
// count is counts[q][j] plus how often j is among the row's earlier draft tokens (ids[r - pos[r] + 1 ..
// r], pos[r] of them); it is in the prompt where bit j % 32 of prompt_bits[q][j / 32] is set. A token in
// the prompt or the output is divided by rep[q] if positive, else multiplied by it; then freq[q] * count and
// pres[q] (if counted) are subtracted.
extern "C" __global__ void penalties_ref(float* x, const int* map, const int* ids, const int* pos,
                                         const float* rep, const float* freq, const float* pres,
                                         const int* prompt_bits, const int* counts, int rows, int V, int words) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * V) return;
  int r = i / V, j = i % V, q = map[r];
  int c = counts[q * V + j];
  for (int a = 0; a < pos[r]; ++a) c += ids[r - pos[r] + 1 + a] == j;
  bool prompt = (prompt_bits[q * words + j / 32] >> (j % 32)) & 1;
  float v = x[i];
  if (prompt || c > 0) v = v > 0.f ? v / rep[q] : v * rep[q];
  v -= freq[q] * c;
  if (c > 0) v -= pres[q];
  x[i] = v;
}

// Log-probabilities of k chosen tokens per row: out[r][a] = x[r][ids[r][a]] - log(sum_j exp(x[r][j])).
extern "C" __global__ void token_logprobs_ref(const float* x, const long long* ids, float* out, int rows, int V, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < V; ++j) s += expf(x[r * V + j]);
  float ls = logf(s);
  for (int a = 0; a < k; ++a) out[r * k + a] = x[r * V + ids[r * k + a]] - ls;
}

// Bad words of row r (request q = map[r]), in place: word w of the request is tokens
// words[q][offs[q][w] .. offs[q][w + 1]); when the tokens before row r's position (the request's output
// tokens all_ids[q][prompt_len[q] ..], then the row's draft tokens input_ids[r - pos[r] + 1 ..]) end with the
// word's first len - 1 tokens, the word's last token becomes -inf.
extern "C" __global__ void bad_words_ref(float* x, const int* map, const int* words, const int* offs, const int* n_words,
                                         const int* all_ids, const int* prompt_len, const int* total_len,
                                         const int* input_ids, const int* pos, int rows, int V, int cap_words,
                                         int cap_offs, int cap_ids) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int q = map[r];
  int out_len = total_len[q] - prompt_len[q];
  int hist = out_len + pos[r];  // tokens generated before this row's
  for (int w = 0; w < n_words[q]; ++w) {
    int s = offs[q * cap_offs + w], e = offs[q * cap_offs + w + 1];
    int pre = e - s - 1;
    if (pre > hist) continue;
    bool match = true;
    for (int a = 0; a < pre; ++a) {
      int at = hist - pre + a;  // index into the generated history
      int tok = at < out_len ? all_ids[q * cap_ids + prompt_len[q] + at] : input_ids[r - pos[r] + 1 + at - out_len];
      match = match && tok == words[q * cap_words + s + a];
    }
    if (match) x[r * V + words[q * cap_words + e - 1]] = -INFINITY;
  }
}
