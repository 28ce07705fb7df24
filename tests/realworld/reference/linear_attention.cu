// Naive linear-attention references over x[batch][time][head][dim] with one batch and one head.
#include <cuda_fp16.h>

// Chunk-local cumulative sum of s[T] over chunks of BT (reverse: suffix sums within the chunk).
extern "C" __global__ void chunk_cumsum(const float* s, float* o, int T, int BT, int reverse) {
  if (threadIdx.x) return;
  for (int c = 0; c < T; c += BT) {
    float acc = 0.f;
    for (int i = 0; i < BT && c + i < T; ++i) {
      int t = reverse ? (c + BT - 1 - i < T ? c + BT - 1 - i : -1) : c + i;
      if (t < 0) continue;
      acc += s[t];
      o[t] = acc;
    }
  }
}

// The state before each chunk, h[c][k][v] = sum_{t < c*BT} K[t][k] V[t][v], and the final state.
extern "C" __global__ void chunk_states(const __half* k, const __half* v, float* h, float* ht, int T, int K, int V,
                                        int BT) {
  int i = threadIdx.x;
  if (i >= K * V) return;
  int kk = i / V, vv = i % V;
  float s = 0.f;
  for (int t = 0; t < T; ++t) {
    if (t % BT == 0) h[(t / BT) * K * V + i] = s;
    s += __half2float(k[t * K + kk]) * __half2float(v[t * V + vv]);
  }
  ht[i] = s;
}

// o[t] = scale * (q[t] h[chunk(t)] + sum over s <= t in t's chunk of (q[t] . k[s]) v[s]).
extern "C" __global__ void chunk_output(const __half* q, const __half* k, const __half* v, const __half* h, __half* o,
                                        int T, int K, int V, int BT, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * V) return;
  int t = i / V, vv = i % V, c = t / BT;
  float acc = 0.f;
  for (int kk = 0; kk < K; ++kk) acc += __half2float(q[t * K + kk]) * __half2float(h[(c * K + kk) * V + vv]);
  for (int s = c * BT; s <= t; ++s) {
    float qk = 0.f;
    for (int kk = 0; kk < K; ++kk) qk += __half2float(q[t * K + kk]) * __half2float(k[s * K + kk]);
    acc += qk * __half2float(v[s * V + vv]);
  }
  o[i] = __float2half(scale * acc);
}

// Per-row log-sum-exp over blocks of B columns: z[n][d] = log sum_{j in block d} exp(x[n][j]).
extern "C" __global__ void block_logsumexp(const float* x, float* z, int rows, int D, int B) {
  int i = threadIdx.x;
  int nb = (D + B - 1) / B;
  if (i >= rows * nb) return;
  int n = i / nb, d = i % nb;
  float s = 0.f;
  for (int j = d * B; j < D && j < (d + 1) * B; ++j) s += expf(x[n * D + j]);
  z[i] = logf(s);
}

// chunk_cumsum per column of s[T][S], one thread per column (fla's vector form).
extern "C" __global__ void chunk_cumsum_cols(const float* s, float* o, int T, int S, int BT, int reverse) {
  int j = threadIdx.x;
  if (j >= S) return;
  for (int c = 0; c < T; c += BT) {
    float acc = 0.f;
    for (int i = 0; i < BT && c + i < T; ++i) {
      int t = reverse ? c + BT - 1 - i : c + i;
      if (t >= T) continue;
      acc += s[t * S + j];
      o[t * S + j] = acc;
    }
  }
}

// chunk_states from an initial state h0[k][v].
extern "C" __global__ void chunk_states_h0(const __half* k, const __half* v, const float* h0, float* h, float* ht,
                                           int T, int K, int V, int BT) {
  int i = threadIdx.x;
  if (i >= K * V) return;
  int kk = i / V, vv = i % V;
  float s = h0[i];
  for (int t = 0; t < T; ++t) {
    if (t % BT == 0) h[(t / BT) * K * V + i] = s;
    s += __half2float(k[t * K + kk]) * __half2float(v[t * V + vv]);
  }
  ht[i] = s;
}
