// Naive references for lmdeploy's elementwise, norm, rotary, KV-cache and quantization Triton kernels
// (RMSNorm with and without residual, SiLU-and-mul (plain and MoE with per-expert token counts), rotary
// embedding (rotate-half and complex pairs), paged KV-cache fill (plain, int8 / int4 asymmetric, fp8 per
// tensor) and flatten (plain, int8 / int4 dequantizing, fp8 into f16), cache block copies, per-token int8
// quantization, RMSNorm fused with dynamic int8 quantization, gated-delta preprocessing, fp8 quantization per
// token group): one thread per row, token or cell,
// textbook formulas, f32 accumulation, 16-bit values through cuda_bf16.h conversions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <math.h>
#include "float_formats.cuh"

// RMSNorm of the rows of x[R][N] (row r at x + r xs): h = x (+ res, rounded to T, stored to hout),
// y = T(w (h / sqrt(mean(h^2) + eps))) (the normalized row stays f32 until the
// product). Rows of res / hout / y are rs / hs / ys apart.
template <typename T>
__device__ void rms_norm_rows(const T* x, const T* w, const T* res, T* hout, T* y, int R, int N, int xs, int rs,
                              int hs, int ys, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) {
    float h = as_float(x[r * xs + j]);
    if (res) h = rnd<T>(h + as_float(res[r * rs + j]));
    ss += h * h;
  }
  float rms = sqrtf(ss / N + eps);
  for (int j = 0; j < N; ++j) {
    float h = as_float(x[r * xs + j]);
    if (res) {
      h = rnd<T>(h + as_float(res[r * rs + j]));
      hout[r * hs + j] = from_float<T>(h);
    }
    y[r * ys + j] = from_float<T>(as_float(w[j]) * (h / rms));
  }
}

extern "C" __global__ void rms_norm_f32(const float* x, const float* w, float* y, int R, int N, float eps) {
  rms_norm_rows<float>(x, w, nullptr, nullptr, y, R, N, N, 0, 0, N, eps);
}

extern "C" __global__ void add_rms_norm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w,
                                             const __nv_bfloat16* res, __nv_bfloat16* hout, __nv_bfloat16* y,
                                             int R, int N, float eps) {
  rms_norm_rows<__nv_bfloat16>(x, w, res, hout, y, R, N, N, N, N, N, eps);
}

// SiLU-and-mul of bf16 gate | up halves: out = bf16(bf16(g / (1 + e^-g)) u). x rows xs apart, the up half
// starting N after the gate; out rows N apart. Rows r of `rows` are written only when r < count[e] for the
// expert e = r / per (count == nullptr: every row).
extern "C" __global__ void silu_and_mul_bf16(const __nv_bfloat16* x, __nv_bfloat16* out, const int* count,
                                             int rows, int per, int N, int xs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * N) return;
  int r = i / N, j = i % N;
  if (count) {
    int e = r / per, m = r % per;
    if (m >= count[e]) return;
  }
  float g = as_float(x[r * xs + j]), u = as_float(x[r * xs + N + j]);
  float s = rnd<__nv_bfloat16>(g / (1.f + expf(-g)));
  out[r * N + j] = __float2bfloat16(s * u);
}

// Rotary embedding of x[S][H][D] (T) into y[S][H][D] with cos / sin tables (f32). rotate-half (complex 0):
// cos, sin [S][D]; pairs (j, j + D/2): y_j = x_j c_j - x_{j+D/2} s_j, y_{j+D/2} = x_{j+D/2} c_{j+D/2} +
// x_j s_{j+D/2}. complex: cos, sin [S][D/2]; pairs (2i, 2i+1) with c_i, s_i. Products and sums rounded to T
// (c, s first rounded to T).
template <typename T>
__device__ void rotary(const T* x, const float* cs, const float* sn, T* y, int S, int H, int D, int cplx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = D / 2;
  if (i >= S * H * half) return;
  int s = i / (H * half), h = (i / half) % H, p = i % half;
  int jl = cplx ? 2 * p : p, jh = cplx ? 2 * p + 1 : p + half;
  int cl = cplx ? s * half + p : s * D + p, ch = cplx ? s * half + p : s * D + p + half;
  const T* xr = x + (s * H + h) * D;
  float xl = as_float(xr[jl]), xh = as_float(xr[jh]);
  float cosl = rnd<T>(cs[cl]), cosh_ = rnd<T>(cs[ch]), sinl = rnd<T>(sn[cl]),
        sinh_ = rnd<T>(sn[ch]);
  float a = rnd<T>(xl * cosl), b = rnd<T>(xh * sinl);
  float c = rnd<T>(xh * cosh_), d = rnd<T>(xl * sinh_);
  y[(s * H + h) * D + jl] = from_float<T>(a - b);
  y[(s * H + h) * D + jh] = from_float<T>(c + d);
}

extern "C" __global__ void rotary_f32(const float* x, const float* cs, const float* sn, float* y, int S, int H, int D,
                                      int cplx) {
  rotary<float>(x, cs, sn, y, S, H, D, cplx);
}

extern "C" __global__ void rotary_bf16(const __nv_bfloat16* x, const float* cs, const float* sn, __nv_bfloat16* y,
                                       int S, int H, int D, int cplx) {
  rotary<__nv_bfloat16>(x, cs, sn, y, S, H, D, cplx);
}

// The cache position of token t of a packed batch: batch b holds tokens start[b] .. start[b] + qlen[b] - 1,
// which are positions kvlen[b] - qlen[b] .. kvlen[b] - 1 of its sequence; position p lives in page
// boff[b nblk + p / BS], row p % BS. Returns false for a token of no batch.
__device__ bool cache_slot(int t, const int* start, const int* qlen, const int* kvlen, const int* boff, int B,
                           int nblk, int BS, int* page, int* row) {
  for (int b = 0; b < B; ++b) {
    if (t >= start[b] && t < start[b] + qlen[b]) {
      int p = kvlen[b] - qlen[b] + (t - start[b]);
      *page = boff[b * nblk + p / BS];
      *row = p % BS;
      return true;
    }
  }
  return false;
}

// Paged KV-cache fill: k[T][H][D] and v[T][H][D] copied to kc / vc [pages][BS][H][D].
extern "C" __global__ void fill_kv(const float* k, const float* v, float* kc, float* vc, const int* start,
                                   const int* qlen, const int* kvlen, const int* boff, int B, int nblk, int T, int H,
                                   int D, int BS) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), h = (i / D) % H, d = i % D;
  int page, row;
  if (!cache_slot(t, start, qlen, kvlen, boff, B, nblk, BS, &page, &row)) return;
  kc[((page * BS + row) * H + h) * D + d] = k[i];
  vc[((page * BS + row) * H + h) * D + d] = v[i];
}

// Asymmetric quantization of one token-head vector x[n] (or two halves x[0..n) and x[n..2n) packed as
// low | high nibble with bits 4): scale = (max - min) / (2^bits - 1), zero = -min / scale,
// q = trunc(x / scale + zero + 0.5).
__device__ void quant_asym(const float* x, int n, int bits, unsigned char* q, float* sz) {
  int m = bits == 4 ? 2 * n : n;
  float mn = x[0], mx = x[0];
  for (int j = 0; j < m; ++j) {
    mn = fminf(mn, x[j]);
    mx = fmaxf(mx, x[j]);
  }
  float scale = (mx - mn) / (bits == 4 ? 15.f : 255.f);
  float zero = -mn / scale;
  for (int j = 0; j < n; ++j) {
    unsigned lo = (unsigned)(x[j] / scale + zero + 0.5f);
    if (bits == 4) {
      unsigned hi = (unsigned)(x[n + j] / scale + zero + 0.5f);
      q[j] = (unsigned char)(lo + hi * 16);
    } else {
      q[j] = (unsigned char)lo;
    }
  }
  sz[0] = scale;
  sz[1] = zero;
}

// Quantized paged KV-cache fill: each token-head vector of k / v [T][H][Ds] (Ds = D, or 2 D for int4)
// quantized into kc / vc [pages][BS][H][D] (u8) with (scale, zero) into ksz / vsz [pages][BS][H][2].
extern "C" __global__ void fill_kv_quant(const float* k, const float* v, unsigned char* kc, unsigned char* vc,
                                         float* ksz, float* vsz, const int* start, const int* qlen, const int* kvlen,
                                         const int* boff, int B, int nblk, int T, int H, int D, int BS, int bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H) return;
  int t = i / H, h = i % H;
  int Ds = bits == 4 ? 2 * D : D;
  int page, row;
  if (!cache_slot(t, start, qlen, kvlen, boff, B, nblk, BS, &page, &row)) return;
  int c = (page * BS + row) * H + h;
  quant_asym(k + i * Ds, D, bits, kc + c * D, ksz + c * 2);
  quant_asym(v + i * Ds, D, bits, vc + c * D, vsz + c * 2);
}

// Per-tensor fp8 KV-cache fill: kc = e4m3(clamp(k / ks, -448, 448)), the same for v with vs.
extern "C" __global__ void fill_kv_fp8(const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_fp8_e4m3* kc,
                                       __nv_fp8_e4m3* vc, const float* ks, const float* vs, const int* start,
                                       const int* qlen, const int* kvlen, const int* boff, int B, int nblk, int T,
                                       int H, int D, int BS) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), h = (i / D) % H, d = i % D;
  int page, row;
  if (!cache_slot(t, start, qlen, kvlen, boff, B, nblk, BS, &page, &row)) return;
  int c = ((page * BS + row) * H + h) * D + d;
  kc[c] = __nv_fp8_e4m3(fminf(fmaxf(as_float(k[i]) / ks[0], -448.f), 448.f));
  vc[c] = __nv_fp8_e4m3(fminf(fmaxf(as_float(v[i]) / vs[0], -448.f), 448.f));
}

// Flattening a paged cache [pages][BS][H][D] into out[H][OUT][D]: out row t of batch b (start[b] <= t <
// start[b] + len[b]) is position t - start[b] of its sequence, page boff[b nblk + p / BS] row p % BS; rows
// from the end of the last batch to OUT are zero. With sz (u8 cache): dequantized as q scale - scale zero.
__device__ bool flat_slot(int t, const int* start, const int* len, const int* boff, int B, int nblk, int BS, int* page,
                          int* row, bool* zero) {
  *zero = false;
  for (int b = 0; b < B; ++b) {
    if (t >= start[b] && t < start[b] + len[b]) {
      int p = t - start[b];
      *page = boff[b * nblk + p / BS];
      *row = p % BS;
      return true;
    }
  }
  *zero = t >= start[B - 1] + len[B - 1];
  return false;
}

extern "C" __global__ void flatten_kv(const float* kc, const float* vc, float* ko, float* vo, const int* start,
                                      const int* len, const int* boff, int B, int nblk, int OUT, int H, int D,
                                      int BS) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= H * OUT * D) return;
  int h = i / (OUT * D), t = (i / D) % OUT, d = i % D;
  int page, row;
  bool zero;
  if (flat_slot(t, start, len, boff, B, nblk, BS, &page, &row, &zero)) {
    ko[i] = kc[((page * BS + row) * H + h) * D + d];
    vo[i] = vc[((page * BS + row) * H + h) * D + d];
  } else if (zero) {
    ko[i] = 0.f;
    vo[i] = 0.f;
  }
}

// bits 8: u8 cache [pages][BS][H][D]; bits 4: [pages][BS][H][D / 2], channel d < D/2 the low nibble of byte d,
// channel d >= D/2 the high nibble of byte d - D/2.
__device__ float unpack_q(const unsigned char* c, int d, int D, int bits) {
  if (bits == 8) return (float)c[d];
  int half = D / 2;
  return (float)((c[d % half] >> (d / half * 4)) & 15);
}

extern "C" __global__ void flatten_kv_quant(const unsigned char* kc, const unsigned char* vc, const float* ksz,
                                            const float* vsz, float* ko, float* vo, const int* start, const int* len,
                                            const int* boff, int B, int nblk, int OUT, int H, int D, int BS,
                                            int bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= H * OUT * D) return;
  int h = i / (OUT * D), t = (i / D) % OUT, d = i % D;
  int page, row;
  bool zero;
  int cd = bits == 4 ? D / 2 : D;
  if (flat_slot(t, start, len, boff, B, nblk, BS, &page, &row, &zero)) {
    int c = (page * BS + row) * H + h;
    float ks = ksz[2 * c], kz = ksz[2 * c + 1], vs = vsz[2 * c], vz = vsz[2 * c + 1];
    ko[i] = unpack_q(kc + c * cd, d, D, bits) * ks - ks * kz;
    vo[i] = unpack_q(vc + c * cd, d, D, bits) * vs - vs * vz;
  } else if (zero) {
    ko[i] = 0.f;
    vo[i] = 0.f;
  }
}

// Copying whole blocks of a byte cache [outer][pages][P]: block = pp pages; for each pair n, block src[n]
// is copied onto block dst[n] in every outer slice.
extern "C" __global__ void copy_blocks(unsigned char* cache, const int* src, const int* dst, int pairs, int outer,
                                       int pages, int P, int pp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int bpb = P * pp;
  if (i >= pairs * outer * bpb) return;
  int n = i / (outer * bpb), o = (i / bpb) % outer, j = i % bpb;
  cache[o * pages * P + dst[n] * bpb + j] = cache[o * pages * P + src[n] * bpb + j];
}

// int8 quantization of each row of x[M][N]: s = max(max |x|, eps) / 127, q = round(x / s) (half away from
// zero).
extern "C" __global__ void token_quant_int8(const float* x, signed char* q, float* s, int M, int N, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float amax = 0.f;
  for (int j = 0; j < N; ++j) amax = fmaxf(amax, fabsf(x[r * N + j]));
  float sc = fmaxf(amax, eps) / 127.f;
  for (int j = 0; j < N; ++j) q[r * N + j] = (signed char)roundf(x[r * N + j] / sc);
  s[r] = sc;
}

// RMSNorm then dynamic int8 quantization of the rows of x[M][N] (f32), optionally after a residual add
// (h = x + res stored to hout): o = w (h / sqrt(mean(h^2) + eps)), s = max |o| / 127,
// q = clamp(round(o / s), -128, 127).
extern "C" __global__ void rms_norm_quant_int8(const float* x, const float* w, const float* res, float* hout,
                                               signed char* q, float* s, int M, int N, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) {
    float h = x[r * N + j] + (res ? res[r * N + j] : 0.f);
    if (res) hout[r * N + j] = h;
    ss += h * h;
  }
  float rms = sqrtf(ss / N + eps);
  float amax = 0.f;
  for (int j = 0; j < N; ++j) {
    float h = x[r * N + j] + (res ? res[r * N + j] : 0.f);
    amax = fmaxf(amax, fabsf(w[j] * (h / rms)));
  }
  float sc = amax / 127.f;
  for (int j = 0; j < N; ++j) {
    float h = x[r * N + j] + (res ? res[r * N + j] : 0.f);
    float v = roundf(w[j] * (h / rms) / sc);
    q[r * N + j] = (signed char)fminf(fmaxf(v, -128.f), 127.f);
  }
  s[r] = sc;
}

// Gated-delta preprocessing of q, k [T][Hk][D] and b, a [T][Hk R] (f32): per token and key head the
// L2-normalized q / sqrt(sum q^2 + eps) (and k) repeated into value heads Hk R ([T][Hk R][D]);
// beta = sigmoid(b), g = A[h] softplus(a + dt[h]) (softplus(x) = x above 20, log(1 + e^x) otherwise),
// g = -1e6 for tokens flagged in init (init == nullptr: none).
extern "C" __global__ void gated_delta_pre(const float* q, const float* k, const float* b, const float* a,
                                           const float* dt, const float* A, const bool* init, float* qo, float* ko,
                                           float* beta, float* g, int T, int Hk, int R, int D, float eps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * Hk) return;
  int t = i / Hk, hk = i % Hk;
  const float* qr = q + i * D;
  const float* kr = k + i * D;
  float sq = 0.f, sk = 0.f;
  for (int d = 0; d < D; ++d) {
    sq += qr[d] * qr[d];
    sk += kr[d] * kr[d];
  }
  float nq = sqrtf(sq + eps), nk = sqrtf(sk + eps);
  for (int rep = 0; rep < R; ++rep) {
    int hv = hk * R + rep, o = t * Hk * R + hv;
    for (int d = 0; d < D; ++d) {
      qo[o * D + d] = qr[d] / nq;
      ko[o * D + d] = kr[d] / nk;
    }
    beta[o] = 1.f / (1.f + expf(-b[o]));
    float x = a[o] + dt[hv];
    float sp = x > 20.f ? x : logf(1.f + expf(x));
    g[o] = (init && init[t]) ? -1.0e6f : A[hv] * sp;
  }
}

// fp8 quantization of a[M][K] (bf16) in groups of G columns: amax = max(max |a|, 1e-6), scale = amax *
// f32(1/448) and out = e4m3(clamp(a 448 / amax, -448, 448)); with ue8m0 scale = 2^ceil(log2(amax f32(1/448)))
// and out = e4m3(clamp(a / scale)). scales [M][K / G].
extern "C" __global__ void group_quant_fp8(const __nv_bfloat16* a, __nv_fp8_e4m3* y, float* s, int M, int K, int G,
                                           int ue8m0) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int gpr = K / G;
  if (i >= M * gpr) return;
  int r = i / gpr, g = i % gpr;
  const __nv_bfloat16* ar = a + r * K + g * G;
  float amax = 0.f;
  for (int j = 0; j < G; ++j) amax = fmaxf(amax, fabsf(as_float(ar[j])));
  amax = fmaxf(amax, 1e-6f);
  float sc = amax * (1.f / 448.f);
  if (ue8m0) sc = exp2f(ceilf(log2f(sc)));
  for (int j = 0; j < G; ++j) {
    float v = ue8m0 ? as_float(ar[j]) / sc : as_float(ar[j]) * (448.f / amax);
    y[r * K + g * G + j] = __nv_fp8_e4m3(fminf(fmaxf(v, -448.f), 448.f));
  }
  s[r * gpr + g] = sc;
}

// Flattening a per-tensor fp8 (e4m3) paged cache into f16 rows: out = f16(f32(q) scale), the tail zeroed.
extern "C" __global__ void flatten_kv_fp8(const __nv_fp8_e4m3* kc, const __nv_fp8_e4m3* vc, const float* ks,
                                          const float* vs, __half* ko, __half* vo, const int* start, const int* len,
                                          const int* boff, int B, int nblk, int OUT, int H, int D, int BS) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= H * OUT * D) return;
  int h = i / (OUT * D), t = (i / D) % OUT, d = i % D;
  int page, row;
  bool zero;
  if (flat_slot(t, start, len, boff, B, nblk, BS, &page, &row, &zero)) {
    int c = ((page * BS + row) * H + h) * D + d;
    ko[i] = __float2half(float(kc[c]) * ks[0]);
    vo[i] = __float2half(float(vc[c]) * vs[0]);
  } else if (zero) {
    ko[i] = __float2half(0.f);
    vo[i] = __float2half(0.f);
  }
}
