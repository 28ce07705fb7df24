// Naive references for SageAttention's Triton kernels (per-block int8 quantization of Q and K, attention whose
// scores are the int8 dot dequantized by the two blocks' scales, softmax in base 2): one thread per block of rows
// or per output cell, textbook formulas, f32 accumulation, softmax without max subtraction, f16 values through
// cuda_fp16.h conversions.
#include <cuda_fp16.h>
#include <math.h>

// Symmetric int8 quantization of each block of BLK rows of x (f16, one head of D channels per row):
// y = x mult (f32), s = max |y| over the block / 127, q = int8(y / s rounded half away from zero) (the rounding
// written as adding +-0.5 and truncating toward zero). x and q share the strides (sb, sh, sn); D is contiguous;
// the scales are s[(b H + h) nblk + blk]. One thread per (b, h, blk).
extern "C" __global__ void quant_per_block(const __half* x, signed char* q, float* s, int B, int H, int L, int D,
                                           int sb, int sh, int sn, int BLK, float mult) {
  int nblk = (L + BLK - 1) / BLK;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H * nblk) return;
  int b = i / (H * nblk), h = (i / nblk) % H, blk = i % nblk;
  int n0 = blk * BLK, n1 = min(L, n0 + BLK);
  const __half* xb = x + b * sb + h * sh;
  float amax = 0.f;
  for (int n = n0; n < n1; ++n)
    for (int d = 0; d < D; ++d) amax = fmaxf(amax, fabsf(__half2float(xb[n * sn + d]) * mult));
  float sc = amax / 127.f;
  for (int n = n0; n < n1; ++n)
    for (int d = 0; d < D; ++d) {
      float y = __half2float(xb[n * sn + d]) * mult / sc;
      y += y >= 0.f ? 0.5f : -0.5f;
      q[b * sb + h * sh + n * sn + d] = (signed char)(int)y;
    }
  s[i] = sc;
}

// Attention over int8 q [B][H][Lq][D] and k [B][KVH][Lk][D] with per-block scales qs [B][H][cdiv(Lq, BM)] and
// ks [B][KVH][cdiv(Lk, BN)], v [B][KVH][Lk][D] f16 (HND, contiguous): the score of query i and key j is
// t = (q_i . k_j) qs[i / BM] ks[j / BN] (already in base 2: the quantizer folded log2(e) into q's scale), and
// o_i = sum_j 2^t_j v_j / sum_j 2^t_j over the keys j < Lk (j <= i when causal), stored f16. Query head h reads
// KV head h / (H / KVH). One thread per query row (the dot products of a row are made once, not once per output
// channel: per cell they cost the symbolic run D times as much), D <= 128.
extern "C" __global__ void attn_int8(const signed char* q, const signed char* k, const __half* v, const float* qs,
                                     const float* ks, __half* o, int B, int H, int KVH, int Lq, int Lk, int D,
                                     int BM, int BN, int causal) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= B * H * Lq) return;
  int i = row % Lq, h = (row / Lq) % H, b = row / (Lq * H);
  int kh = h / (H / KVH);
  int nqb = (Lq + BM - 1) / BM, nkb = (Lk + BN - 1) / BN;
  const signed char* qi = q + ((b * H + h) * Lq + i) * D;
  float sq = qs[(b * H + h) * nqb + i / BM];
  float num[128];
  for (int d = 0; d < D; ++d) num[d] = 0.f;
  float den = 0.f;
  for (int j = 0; j < Lk; ++j) {
    if (causal && j > i) break;
    const signed char* kj = k + ((b * KVH + kh) * Lk + j) * D;
    int dot = 0;
    for (int e = 0; e < D; ++e) dot += (int)qi[e] * (int)kj[e];
    float t = (float)dot * sq * ks[(b * KVH + kh) * nkb + j / BN];
    float p = exp2f(t);
    den += p;
    for (int d = 0; d < D; ++d) num[d] += p * __half2float(v[((b * KVH + kh) * Lk + j) * D + d]);
  }
  for (int d = 0; d < D; ++d) o[row * D + d] = __float2half(num[d] / den);
}

// quant_per_block over packed variable-length sequences: x [T][H][D] (f16), sequence b holds rows cu[b] ..
// cu[b + 1] - 1 and its blocks' scales s[(cus[b] + blk) H + h]; otherwise as quant_per_block. One thread per
// (b, blk, h) with blk < cdiv(len_b, BLK).
extern "C" __global__ void quant_per_block_varlen(const __half* x, signed char* q, float* s, const int* cu,
                                                  const int* cus, int nseq, int H, int D, int BLK, int maxblk,
                                                  float mult) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nseq * maxblk * H) return;
  int b = i / (maxblk * H), blk = (i / H) % maxblk, h = i % H;
  int len = cu[b + 1] - cu[b];
  if (blk * BLK >= len) return;
  int n0 = cu[b] + blk * BLK, n1 = cu[b] + min(len, blk * BLK + BLK);
  float amax = 0.f;
  for (int n = n0; n < n1; ++n)
    for (int d = 0; d < D; ++d) amax = fmaxf(amax, fabsf(__half2float(x[(n * H + h) * D + d]) * mult));
  float sc = amax / 127.f;
  for (int n = n0; n < n1; ++n)
    for (int d = 0; d < D; ++d) {
      float y = __half2float(x[(n * H + h) * D + d]) * mult / sc;
      y += y >= 0.f ? 0.5f : -0.5f;
      q[(n * H + h) * D + d] = (signed char)(int)y;
    }
  s[(cus[b] + blk) * H + h] = sc;
}

// Causal attention over packed variable-length sequences (the same q and k lengths): q, k int8 and v f16 [T][H][D],
// sequence b holds tokens cu[b] .. cu[b + 1] - 1; its query block scales qs[(cusq[b] + i / BM) H + h] and key
// block scales ks[(cusk[b] + j / BN) H + h] (i, j positions inside the sequence); o_i = sum_{j <= i} 2^t_j v_j /
// sum_{j <= i} 2^t_j with t = (q_i . k_j) qs ks, stored f16. One thread per token and head (as attn_int8), D <= 128.
extern "C" __global__ void attn_int8_varlen_causal(const signed char* q, const signed char* k, const __half* v,
                                                   const float* qs, const float* ks, const int* cu, const int* cusq,
                                                   const int* cusk, __half* o, int nseq, int T, int H, int D, int BM,
                                                   int BN) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= T * H) return;
  int h = row % H, t = row / H;
  int b = 0;
  while (b + 1 < nseq && t >= cu[b + 1]) ++b;
  int i = t - cu[b];
  float sq = qs[(cusq[b] + i / BM) * H + h];
  float num[128];
  for (int d = 0; d < D; ++d) num[d] = 0.f;
  float den = 0.f;
  for (int j = 0; j <= i; ++j) {
    int tk = cu[b] + j;
    int dot = 0;
    for (int e = 0; e < D; ++e) dot += (int)q[(t * H + h) * D + e] * (int)k[(tk * H + h) * D + e];
    float p = exp2f((float)dot * sq * ks[(cusk[b] + j / BN) * H + h]);
    den += p;
    for (int d = 0; d < D; ++d) num[d] += p * __half2float(v[(tk * H + h) * D + d]);
  }
  for (int d = 0; d < D; ++d) o[(t * H + h) * D + d] = __float2half(num[d] / den);
}
