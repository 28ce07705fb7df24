// Naive references for colossalai's Triton kernels (colossalai/kernel/triton/): RMSNorm (with the residual added
// first), softmax over rows, the Llama SwiGLU combine forward and backward, the rotary cos/sin gathers, KV-cache
// writes into a paged cache (two K layouts), rotary embeddings (in place, into the cache), the 4-D batched matmul,
// causal prefill attention over packed sequences (with ALiBi) and decode attention over a paged cache (with ALiBi,
// speculative verification tokens), and the merge of per-split attention states.
// One thread per row or per output cell; textbook formulas, f32 accumulation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include "float_formats.cuh"

__device__ float sigmoid(float v) { return 1.f / (1.f + expf(-v)); }

// ---- RMSNorm: s = x (+ r), y = s / sqrt(mean(s^2) + eps) * w; with a residual s is also written to x_out ----
// x, r, x_out, y [M][N] f16, w [N] f16.
extern "C" __global__ void rmsnorm_f16(const __half* x, const __half* r, const __half* w, __half* y, __half* x_out,
                                       int M, int N, float eps) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) {
    float s = as_float(x[row * N + j]) + (r ? as_float(r[row * N + j]) : 0.f);
    ss += s * s;
  }
  float rstd = 1.f / sqrtf(ss / N + eps);
  for (int j = 0; j < N; ++j) {
    float s = as_float(x[row * N + j]) + (r ? as_float(r[row * N + j]) : 0.f);
    if (r) x_out[row * N + j] = from_float<__half>(s);
    y[row * N + j] = from_float<__half>(s * rstd * as_float(w[j]));
  }
}

// ---- softmax over each row: y = exp(x) / sum exp(x); x, y [M][N] ----
template <typename T>
__device__ void softmax_rows(const T* x, T* y, int M, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  float sum = 0.f;
  for (int j = 0; j < N; ++j) sum += expf(as_float(x[row * N + j]));
  for (int j = 0; j < N; ++j) y[row * N + j] = from_float<T>(expf(as_float(x[row * N + j])) / sum);
}
extern "C" __global__ void softmax_f32(const float* x, float* y, int M, int N) { softmax_rows(x, y, M, N); }
extern "C" __global__ void softmax_f16(const __half* x, __half* y, int M, int N) { softmax_rows(x, y, M, N); }

// ---- Llama SwiGLU combine: y = g1 silu(g2) up, silu(v) = v sigmoid(v); g1, g2, up, y [M][N] ----
template <typename T>
__device__ void act_combine_fwd(const T* g1, const T* g2, const T* up, T* y, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  float b = as_float(g2[i]);
  y[i] = from_float<T>(as_float(g1[i]) * b * sigmoid(b) * as_float(up[i]));
}
extern "C" __global__ void act_combine_fwd_f32(const float* g1, const float* g2, const float* up, float* y, int total) {
  act_combine_fwd(g1, g2, up, y, total);
}
extern "C" __global__ void act_combine_fwd_bf16(const __nv_bfloat16* g1, const __nv_bfloat16* g2,
                                                const __nv_bfloat16* up, __nv_bfloat16* y, int total) {
  act_combine_fwd(g1, g2, up, y, total);
}
// Its gradients from dy: d g1 = dy silu(g2) up, d up = dy g1 silu(g2), d g2 = dy g1 up silu'(g2) with
// silu'(v) = sigmoid(v) + v sigmoid(v) (1 - sigmoid(v)).
extern "C" __global__ void act_combine_bwd_f32(const float* g1, const float* g2, const float* up, const float* dy,
                                               float* dg1, float* dg2, float* dup, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  float b = g2[i], s = sigmoid(b);
  float silu = b * s;
  dg1[i] = dy[i] * silu * up[i];
  dup[i] = dy[i] * g1[i] * silu;
  dg2[i] = dy[i] * g1[i] * up[i] * (s + b * s * (1.f - s));
}

// ---- rotary cos/sin rows per token ----
// Prefill: tokens of the sequences (lengths lens[nseq]) packed one after another; token t at position p of its
// sequence gets row p of the caches. Decode: sequence i gets the row of its last position, lens[i] - 1.
// cos, sin [P][D]; out [tokens][D].
__device__ int position_in_packed(int t, const int* lens, int nseq) {
  int start = 0;
  for (int s = 0; s < nseq; ++s) {
    if (t < start + lens[s]) return t - start;
    start += lens[s];
  }
  return -1;
}
extern "C" __global__ void rope_rows_prefill(const float* cos, const float* sin, const int* lens, float* cos_out,
                                             float* sin_out, int nseq, int T, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * D) return;
  int t = i / D, d = i % D;
  int p = position_in_packed(t, lens, nseq);
  cos_out[i] = cos[p * D + d];
  sin_out[i] = sin[p * D + d];
}
extern "C" __global__ void rope_rows_decode(const float* cos, const float* sin, const int* lens, float* cos_out,
                                            float* sin_out, int nseq, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nseq * D) return;
  int s = i / D, d = i % D;
  int p = lens[s] - 1;
  cos_out[i] = cos[p * D + d];
  sin_out[i] = sin[p * D + d];
}

// ---- paged KV cache ----
// A sequence's position p lives in block bt[seq][p / bs], slot p % bs. Cache layouts: x == D is
// [blocks][heads][bs][D]; otherwise [blocks][heads][D / x][bs][x] (element d at [d / x][slot][d % x]).
__device__ int cache_index(int block, int h, int slot, int d, int H, int bs, int D, int x) {
  if (x == D) return ((block * H + h) * bs + slot) * D + d;
  return (((block * H + h) * (D / x) + d / x) * bs + slot) * x + d % x;
}
// Where token t's position lies. packed: tokens of whole sequences (lengths lens) one after another (prefill);
// otherwise the last n positions of each sequence, lens[seq] counting them (t = seq n + i at position
// lens[seq] - n + i).
__device__ void token_place(int t, const int* lens, int nseq, int n, int packed, int* seq, int* pos) {
  if (packed) {
    int start = 0;
    for (int s = 0; s < nseq; ++s) {
      if (t < start + lens[s]) {
        *seq = s;
        *pos = t - start;
        return;
      }
      start += lens[s];
    }
  }
  *seq = t / n;
  *pos = lens[*seq] - n + t % n;
}
// cache[place of token t, head h] = src[t][h][:], src [T][H][D].
template <typename T>
__device__ void to_cache(const T* src, T* cache, const int* bt, const int* lens, int nseq, int n, int packed, int Ttok,
                         int H, int D, int bs, int x, int maxb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= Ttok * H * D) return;
  int t = i / (H * D), h = (i / D) % H, d = i % D;
  int seq, pos;
  token_place(t, lens, nseq, n, packed, &seq, &pos);
  int block = bt[seq * maxb + pos / bs];
  cache[cache_index(block, h, pos % bs, d, H, bs, D, x)] = src[i];
}
extern "C" __global__ void to_cache_f32(const float* src, float* cache, const int* bt, const int* lens, int nseq,
                                        int n, int packed, int Ttok, int H, int D, int bs, int x, int maxb) {
  to_cache(src, cache, bt, lens, nseq, n, packed, Ttok, H, D, bs, x, maxb);
}
extern "C" __global__ void to_cache_f16(const __half* src, __half* cache, const int* bt, const int* lens, int nseq,
                                        int n, int packed, int Ttok, int H, int D, int bs, int x, int maxb) {
  to_cache(src, cache, bt, lens, nseq, n, packed, Ttok, H, D, bs, x, maxb);
}

// ---- rotary embedding, rotate-half: for i < D/2, with c = cos[row][i], s = sin[row][i]:
//   out[i] = v[i] c - v[i + D/2] s, out[i + D/2] = v[i] s + v[i + D/2] c ----
// The row of token t is t (cos/sin already gathered per token), or its position in its packed sequence when lens
// is given. v [T][H][D] rotated in place; cos, sin [rows][D/2].
extern "C" __global__ void rope_inplace(float* v, const float* cos, const float* sin, const int* lens, int nseq,
                                        int T, int H, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = D / 2;
  if (i >= T * H * half) return;
  int t = i / (H * half), h = (i / half) % H, j = i % half;
  int row = lens ? position_in_packed(t, lens, nseq) : t;
  float c = cos[row * half + j], s = sin[row * half + j];
  float* p = v + (t * H + h) * D;
  float a = p[j], b = p[j + half];
  p[j] = a * c - b * s;
  p[j + half] = a * s + b * c;
}
// The rotated k of a decode token (token t is sequence t, at position lens[t] - 1) written into the cache, k left
// as it is.
extern "C" __global__ void rope_to_cache(const float* k, const float* cos, const float* sin, float* cache,
                                         const int* bt, const int* lens, int T, int H, int D, int bs, int x,
                                         int maxb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = D / 2;
  if (i >= T * H * half) return;
  int t = i / (H * half), h = (i / half) % H, j = i % half;
  float c = cos[t * half + j], s = sin[t * half + j];
  const float* p = k + (t * H + h) * D;
  float a = p[j], b = p[j + half];
  int pos = lens[t] - 1;
  int block = bt[t * maxb + pos / bs];
  cache[cache_index(block, h, pos % bs, j, H, bs, D, x)] = a * c - b * s;
  cache[cache_index(block, h, pos % bs, j + half, H, bs, D, x)] = a * s + b * c;
}

// ---- batched matmul over 4-D tensors given by strides: c[b][h][m][n] = scale sum_k a[b][h][m][k] bb[b][h][k][n]
// (scale 1 when it is not positive); f16 in and out ----
extern "C" __global__ void bmm4d_f16(const __half* a, const __half* bb, __half* c, int B, int H, int M, int N, int K,
                                     int sab, int sah, int sam, int sak, int sbb, int sbh, int sbk, int sbn, int scb,
                                     int sch, int scm, int scn, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H * M * N) return;
  int n = i % N, m = (i / N) % M, h = (i / (N * M)) % H, b = i / (N * M * H);
  float acc = 0.f;
  for (int k = 0; k < K; ++k)
    acc += as_float(a[b * sab + h * sah + m * sam + k * sak]) * as_float(bb[b * sbb + h * sbh + k * sbk + n * sbn]);
  if (scale > 0.f) acc *= scale;
  c[b * scb + h * sch + m * scm + n * scn] = from_float<__half>(acc);
}

// ---- causal attention over packed sequences (prefill), one thread per output cell ----
// q [T][H][D], k, v [T][KVH][D] (head h reads kv head h / (H / KVH)), o [T][H][D], f16. Token t at position p of
// its sequence attends to that sequence's positions j <= p: score sm_scale q.k_j - slope_h (p - j) (slope 0
// without ALiBi); o = sum_j exp(score_j) v_j / sum_j exp(score_j).
extern "C" __global__ void prefill_attention_f16(const __half* q, const __half* k, const __half* v, __half* o,
                                                 const int* lens, const float* slopes, int nseq, int T, int H,
                                                 int KVH, int D, float sm_scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), h = (i / D) % H, e = i % D, kh = h / (H / KVH);
  int seq, p;
  token_place(t, lens, nseq, 1, 1, &seq, &p);
  int start = t - p;
  float slope = slopes ? slopes[h] : 0.f;
  const __half* qi = q + (t * H + h) * D;
  float den = 0.f, num = 0.f;
  for (int j = 0; j <= p; ++j) {
    const __half* kj = k + ((start + j) * KVH + kh) * D;
    float dot = 0.f;
    for (int d = 0; d < D; ++d) dot += as_float(qi[d]) * as_float(kj[d]);
    float w = expf(sm_scale * dot - slope * (p - j));
    den += w;
    num += w * as_float(v[((start + j) * KVH + kh) * D + e]);
  }
  o[i] = from_float<__half>(num / den);
}

// ---- decode attention over a paged cache, one thread per output cell ----
// q [T][H][D] with T = nseq qlen: token t is the (t % qlen)-th of the last qlen tokens of sequence t / qlen, whose
// cache holds lens[seq] positions; it attends to positions j < L = lens[seq] - (qlen - 1 - t % qlen), score
// sm_scale q.k_j - slope_h (L - 1 - j). K cache in either layout (x), V cache [blocks][KVH][bs][D]; o [T][H D];
// f16 or f32 throughout.
template <typename T>
__device__ void decode_attention(const T* q, const T* kc, const T* vc, const int* bt, const int* lens,
                                 const float* slopes, T* o, int Ttok, int H, int KVH, int D, int bs, int x, int maxb,
                                 int qlen, float sm_scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= Ttok * H * D) return;
  int t = i / (H * D), h = (i / D) % H, e = i % D, kh = h / (H / KVH), seq = t / qlen;
  int L = lens[seq] - (qlen - 1 - t % qlen);
  float slope = slopes ? slopes[h] : 0.f;
  const T* qi = q + (t * H + h) * D;
  float den = 0.f, num = 0.f;
  for (int j = 0; j < L; ++j) {
    int block = bt[seq * maxb + j / bs];
    float dot = 0.f;
    for (int d = 0; d < D; ++d) dot += as_float(qi[d]) * as_float(kc[cache_index(block, kh, j % bs, d, KVH, bs, D, x)]);
    float w = expf(sm_scale * dot - slope * (L - 1 - j));
    den += w;
    num += w * as_float(vc[cache_index(block, kh, j % bs, e, KVH, bs, D, D)]);
  }
  o[i] = from_float<T>(num / den);
}
extern "C" __global__ void decode_attention_f16(const __half* q, const __half* kc, const __half* vc, const int* bt,
                                                const int* lens, const float* slopes, __half* o, int T, int H,
                                                int KVH, int D, int bs, int x, int maxb, int qlen, float sm_scale) {
  decode_attention(q, kc, vc, bt, lens, slopes, o, T, H, KVH, D, bs, x, maxb, qlen, sm_scale);
}
extern "C" __global__ void decode_attention_f32(const float* q, const float* kc, const float* vc, const int* bt,
                                                const int* lens, const float* slopes, float* o, int T, int H,
                                                int KVH, int D, int bs, int x, int maxb, int qlen, float sm_scale) {
  decode_attention(q, kc, vc, bt, lens, slopes, o, T, H, KVH, D, bs, x, maxb, qlen, sm_scale);
}

// ---- merging per-split attention states: split b of (token t, head h) holds its normalized output mid[b] and
// log-sum-exp lse[b]; the whole is sum_b exp(lse_b) mid_b / sum_b exp(lse_b) over the splits b < ceil(L / bs),
// L = lens[seq] - (qlen - 1 - t % qlen). mid [T][H][S][D], lse [T][H][S] f32; o [T][H D] f16 ----
extern "C" __global__ void merge_splits_f16(const float* mid, const float* lse, const int* lens, __half* o, int T,
                                            int H, int S, int D, int bs, int qlen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), h = (i / D) % H, d = i % D;
  int L = lens[t / qlen] - (qlen - 1 - t % qlen);
  int nsplit = (L + bs - 1) / bs;
  float num = 0.f, den = 0.f;
  for (int b = 0; b < nsplit; ++b) {
    float w = expf(lse[(t * H + h) * S + b]);
    num += w * mid[((t * H + h) * S + b) * D + d];
    den += w;
  }
  o[i] = from_float<__half>(num / den);
}
