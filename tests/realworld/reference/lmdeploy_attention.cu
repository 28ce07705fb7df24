// Naive references for lmdeploy's Triton attention, GEMM and sampling kernels (instances/lmdeploy_attention.py):
// one thread per output cell, row or request, textbook formulas, f32 accumulation.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <math.h>
#include <stdint.h>

// ---- int8 GEMM with per-token and per-channel scales ----

// c[m][n] = f16(float(sum_k a[m][k] b[n][k]) * rs[m] * ls[n]) (+ res[m][n] in f16 when res is given);
// a [M][K] and b [N][K] int8 row-major.
extern "C" __global__ void int8_gemm_scaled(const int8_t* a, const int8_t* b, const float* rs, const float* ls,
                                            const __half* res, __half* c, int M, int N, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  int acc = 0;
  for (int k = 0; k < K; ++k) acc += int(a[m * K + k]) * int(b[n * K + k]);
  __half v = __float2half(float(acc) * rs[m] * ls[n]);
  if (res) v = __float2half(__half2float(v) + __half2float(res[i]));
  c[i] = v;
}

// ---- speculative decoding: rejection sampling ----

// Greedy verification of request r: draft tokens d[r][0..S) against the target's tokens t[r][0..S) (row stride
// ts) and its bonus token bonus[r * bs]. The accepted prefix is the drafts up to and including the first one that
// differs from the target; output[r][p] is the target's token at each accepted position, -1 after; output[r][S]
// is the bonus token if every draft matched, else -1. rejected[r] = S + 1 - accepted, last[r] = the last token
// written. Requests with greedy[r] == 0 (when greedy is given) are left alone.
extern "C" __global__ void greedy_rejection_ref(long long* out, long long* rejected, long long* last, const long long* d,
                                                const long long* t, int ts, const long long* bonus, int bs,
                                                const bool* greedy, int B, int S) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= B) return;
  if (greedy && !greedy[r]) return;
  int accepted = 0;
  long long lastv = 0;
  bool all = true;
  for (int p = 0; p < S; ++p) {
    long long tok = t[r * ts + p];
    out[r * (S + 1) + p] = tok;
    lastv = tok;
    ++accepted;
    if (d[r * S + p] != tok) {
      all = false;
      for (int q = p + 1; q < S; ++q) out[r * (S + 1) + q] = -1;
      break;
    }
  }
  if (all) {
    lastv = bonus[r * bs];
    out[r * (S + 1) + S] = lastv;
    ++accepted;
  } else {
    out[r * (S + 1) + S] = -1;
  }
  rejected[r] = S + 1 - accepted;
  last[r] = lastv;
}

// Random verification of request r (not greedy): draft token x = d[r][p] is accepted while
// q(x) > 0 and p(x) / q(x) >= u[r][p] (p = target probs [B][S][V], q = draft probs, or q = 1 when there are none);
// the first rejected position takes recovered[r][p] instead and ends the request's accepted prefix. Outputs as
// greedy_rejection_ref (the bonus token after S accepted drafts).
extern "C" __global__ void random_rejection_ref(long long* out, long long* rejected, long long* last, const long long* d,
                                                const float* qprobs, const float* pprobs, const long long* bonus,
                                                const long long* recovered, const double* u, const bool* greedy,
                                                int B, int S, int V) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= B) return;
  if (greedy && greedy[r]) return;
  int accepted = 0;
  long long lastv = 0;
  bool all = true;
  for (int p = 0; p < S; ++p) {
    long long x = d[r * S + p];
    float q = qprobs ? qprobs[(r * S + p) * V + x] : 1.f;
    float pt = pprobs[(r * S + p) * V + x];
    long long tok;
    bool ok = q > 0.f && double(pt / q) >= u[r * S + p];
    tok = ok ? x : recovered[r * S + p];
    out[r * (S + 1) + p] = tok;
    lastv = tok;
    ++accepted;
    if (!ok) {
      all = false;
      for (int q2 = p + 1; q2 < S; ++q2) out[r * (S + 1) + q2] = -1;
      break;
    }
  }
  if (all) {
    lastv = bonus[r];
    out[r * (S + 1) + S] = lastv;
    ++accepted;
  } else {
    out[r * (S + 1) + S] = -1;
  }
  rejected[r] = S + 1 - accepted;
  last[r] = lastv;
}

// Recovered token of draft position (r, p): the first index j maximizing w_j / e_j over the vocabulary, where
// w = max(p - q, 0) with draft probs q, or w = p with the draft token's own entry zeroed when there are none,
// and invq[r][j] = 1 / e_j (e exponential noise: the Gumbel-max trick).
extern "C" __global__ void recovered_tokens_ref(long long* out, const long long* d, const float* qprobs,
                                                const float* pprobs, const float* invq, int B, int S, int V) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * S) return;
  int r = i / S;
  float best = -INFINITY;
  long long id = 0;
  for (int j = 0; j < V; ++j) {
    float w;
    if (qprobs) w = fmaxf(pprobs[i * V + j] - qprobs[i * V + j], 0.f);
    else w = j == d[i] ? 0.f : pprobs[i * V + j];
    float s = w * invq[r * V + j];
    if (s > best) { best = s; id = j; }
  }
  out[i] = id;
}

// ---- attention ----

// Decoding attention over a paged KV cache, one thread per (request b, query head h, channel c): request b's key j
// (j < seq_len[b]) sits in page table[b][j / P] at row j % P of k, v [pages][P][kv_heads][D] (f16); q [batch][heads][D];
// query head h reads kv head h / (heads / kv_heads). With t_j = (q . k_j) * scale * l2e (l2e: log2(e) as the
// kernel's f32 constant) and M = max_j t_j, o = sum_j 2^t_j v_j / (sum_j 2^t_j + eps 2^M): the softmax whose
// denominator, taken relative to its largest term, carries eps (lmdeploy's split-K reduce adds 1e-10 there).
extern "C" __global__ void paged_decode_ref(const __half* q, const __half* k, const __half* v, const int* table,
                                            const int* seq_len, __half* o, int batch, int heads, int kv_heads, int D,
                                            int P, int max_pages, float scale, float l2e, float eps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch * heads * D) return;
  int b = i / (heads * D), h = (i / D) % heads, c = i % D, kh = h / (heads / kv_heads);
  const __half* qi = q + (b * heads + h) * D;
  float den = 0.f, num = 0.f, m = -INFINITY;
  for (int j = 0; j < seq_len[b]; ++j) {
    int row = (table[b * max_pages + j / P] * P + j % P) * kv_heads + kh;
    float s = 0.f;
    for (int d = 0; d < D; ++d) s += __half2float(qi[d]) * __half2float(k[row * D + d]);
    float t = s * scale * l2e;
    float p = exp2f(t);
    m = fmaxf(m, t);
    den += p;
    num += p * __half2float(v[row * D + c]);
  }
  o[i] = __float2half(num / (den + eps * exp2f(m)));
}

// Varlen prefill attention, one thread per (query token, head, channel): sequence b's queries are tokens
// cq[b] .. cq[b + 1] of q [tokens][heads][D], its keys and values tokens ck[b] .. ck[b + 1] of k, v
// [kv_heads][kv_tokens][D]; the keys start with a history of (kv len - q len) cached tokens, so query position p
// sees keys j <= history + p when causal, every key otherwise. o = softmax(scale q k^T) v.
extern "C" __global__ void varlen_attention_ref(const __half* q, const __half* k, const __half* v, const int* cq,
                                                const int* ck, __half* o, int batch, int tokens, int kv_tokens,
                                                int heads, int kv_heads, int D, float scale, int causal) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= tokens * heads * D) return;
  int t = i / (heads * D), h = (i / D) % heads, c = i % D, kh = h / (heads / kv_heads);
  int b = 0;
  while (b + 1 < batch && t >= cq[b + 1]) ++b;
  int p = t - cq[b], kv_len = ck[b + 1] - ck[b], hist = kv_len - (cq[b + 1] - cq[b]);
  const __half* qi = q + (t * heads + h) * D;
  float den = 0.f, num = 0.f;
  for (int j = 0; j < kv_len; ++j) {
    if (causal && j > hist + p) continue;
    const __half* kj = k + (kh * kv_tokens + ck[b] + j) * D;
    float s = 0.f;
    for (int d = 0; d < D; ++d) s += __half2float(qi[d]) * __half2float(kj[d]);
    float e = expf(s * scale);
    den += e;
    num += e * __half2float(v[(kh * kv_tokens + ck[b] + j) * D + c]);
  }
  o[i] = __float2half(num / den);
}

// ---- multinomial sampling ----

// One uniform float in [0, 1) from the Philox4x32 counter-based generator (10 rounds; Salmon et al., SC'11):
// counter (offset, 0, 0, 0), key (low and high words of seed); the first output word, read as a signed int32 x,
// is folded to x >= 0 (x < 0 -> -x - 1) and scaled by 4.6566127342e-10, the largest f32 below 2^-31 for which
// the largest x maps below 1.
__device__ float philox_uniform(unsigned long long seed, unsigned offset) {
  unsigned c0 = offset, c1 = 0, c2 = 0, c3 = 0;
  unsigned k0 = unsigned(seed), k1 = unsigned(seed >> 32);
  for (int r = 0; r < 10; ++r) {
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

// Inverse-CDF sampling of row b of scores [B][N]: u from philox_uniform(seed[b], offset[b]); the first token i with
// c_(i-1) < u <= c_i (c the running sum of the row's scores) gives out[b] = ids[b][i]; ids[b][0] if there is none.
extern "C" __global__ void multinomial_ref(const float* scores, const long long* seed, const long long* offset,
                                           const long long* ids, long long* out, int B, int N) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  float u = philox_uniform((unsigned long long)seed[b], unsigned(int(offset[b])));
  float c = 0.f;
  long long pick = ids[b * N];
  for (int i = 0; i < N; ++i) {
    float prev = c;
    c += scores[b * N + i];
    if (prev < u && u <= c) { pick = ids[b * N + i]; break; }
  }
  out[b] = pick;
}

// ---- blocked fp8 GEMM ----

// c[m][n] = f16(sum_g as[m][g] bs[g][n / gn] sum_{k in group g} a[m][k] b[k][n]): a [M][K] and b [K][N] e4m3
// (row-major), as [M][K / gk] and bs [K / gk][N / gn] f32 scales of groups of gk along K (and gn along N).
extern "C" __global__ void fp8_blocked_gemm_ref(const __nv_fp8_e4m3* a, const float* as, const __nv_fp8_e4m3* b,
                                                const float* bs, __half* c, int M, int N, int K, int gk, int gn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N, G = K / gk, GN = N / gn;
  float acc = 0.f;
  for (int g = 0; g < G; ++g) {
    float s = 0.f;
    for (int k = g * gk; k < (g + 1) * gk; ++k) s += float(a[m * K + k]) * float(b[k * N + n]);
    acc += as[m * G + g] * bs[g * GN + n / gn] * s;
  }
  c[i] = __float2half(acc);
}
