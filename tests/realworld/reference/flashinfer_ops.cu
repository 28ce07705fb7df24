// Naive references for flashinfer's Triton kernels (flashinfer/triton/: cascade state merging in base 2,
// RMSNorm with residual and scales, SiLU-and-mul, GEMM with an alpha/beta epilogue, Mamba2's chunked dA
// cumsum, page and GDN slot bookkeeping, Ulysses all-to-all packing): one thread per row, state or cell,
// textbook formulas, f32 accumulation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <math.h>

// ---- cascade (attention states whose lse is in base 2: softmax weights 2^s) ----

// Two states of one (token, head) merged: out = (2^a va + 2^b vb) / (2^a + 2^b), lse = log2(2^a + 2^b).
// va, vb: [n][D], a, b: [n].
extern "C" __global__ void merge_state_base2(const float* va, const float* a, const float* vb, const float* b,
                                             float* out, float* out_lse, int n, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float ea = exp2f(a[i]), eb = exp2f(b[i]);
  out_lse[i] = log2f(ea + eb);
  for (int d = 0; d < D; ++d) out[i * D + d] = (ea * va[i * D + d] + eb * vb[i * D + d]) / (ea + eb);
}

// The same in place on (v, s) for the tokens whose mask is nonzero; v: [T][H][D], s: [T][H], mask: [T].
extern "C" __global__ void merge_state_in_place_base2(float* v, float* s, const float* vo, const float* so,
                                                      const unsigned char* mask, int T, int H, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H || mask[i / H] == 0) return;
  float ea = exp2f(s[i]), eb = exp2f(so[i]);
  for (int d = 0; d < D; ++d) v[i * D + d] = (ea * v[i * D + d] + eb * vo[i * D + d]) / (ea + eb);
  s[i] = log2f(ea + eb);
}

// K states per (token, head) merged: v: [T][K][H][D], s: [T][K][H] -> out: [T][H][D], lse: [T][H];
// out = sum_k 2^s_k v_k / sum_k 2^s_k, lse = log2(sum_k 2^s_k).
extern "C" __global__ void merge_states_base2(const float* v, const float* s, float* out, float* lse, int T, int K,
                                              int H, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H) return;
  int t = i / H, h = i % H;
  float den = 0.f;
  for (int k = 0; k < K; ++k) den += exp2f(s[(t * K + k) * H + h]);
  for (int d = 0; d < D; ++d) {
    float num = 0.f;
    for (int k = 0; k < K; ++k) num += exp2f(s[(t * K + k) * H + h]) * v[((t * K + k) * H + h) * D + d];
    out[i * D + d] = num / den;
  }
  lse[i] = log2f(den);
}

// Token t's states are rows indptr[t] .. indptr[t+1] of v: [rows][H][D], s: [rows][H].
extern "C" __global__ void variable_length_merge_states_base2(const float* v, const float* s, const int* indptr,
                                                              float* out, float* lse, int T, int H, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H) return;
  int t = i / H, h = i % H;
  float den = 0.f;
  for (int r = indptr[t]; r < indptr[t + 1]; ++r) den += exp2f(s[r * H + h]);
  for (int d = 0; d < D; ++d) {
    float num = 0.f;
    for (int r = indptr[t]; r < indptr[t + 1]; ++r) num += exp2f(s[r * H + h]) * v[(r * H + h) * D + d];
    out[i * D + d] = num / den;
  }
  lse[i] = log2f(den);
}

// ---- RMSNorm ----

// y = x / sqrt(mean(x^2) + eps) * w of x[rows][cols] scaled by in_scale (nullptr: 1).
extern "C" __global__ void rmsnorm_scaled_rows(const float* x, const float* in_scale, const float* w, float* y,
                                               int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float sc = in_scale ? in_scale[0] : 1.f, ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += (x[r * cols + j] * sc) * (x[r * cols + j] * sc);
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = x[r * cols + j] * sc / rms * w[j];
}

// Residual add then RMSNorm: res = x + res (stored), y = res / sqrt(mean(res^2) + eps) * w. y may be x.
extern "C" __global__ void add_rmsnorm_rows(float* x, float* res, const float* w, float* y, int rows, int cols,
                                            float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) {
    res[r * cols + j] = x[r * cols + j] + res[r * cols + j];
    ss += res[r * cols + j] * res[r * cols + j];
  }
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = res[r * cols + j] / rms * w[j];
}

// RMSNorm quantized to fp8 e4m3: q = fp8(clamp(y * out_scale, -448, 448)).
extern "C" __global__ void rmsnorm_fp8_rows(const float* x, const float* w, const float* out_scale,
                                            __nv_fp8_e4m3* q, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += x[r * cols + j] * x[r * cols + j];
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j)
    q[r * cols + j] = __nv_fp8_e4m3(fminf(fmaxf(x[r * cols + j] / rms * w[j] * out_scale[0], -448.f), 448.f));
}

// The same into bf16: q = bf16(clamp(y * out_scale, -max, max)), max the largest finite bf16.
extern "C" __global__ void rmsnorm_bf16_rows(const float* x, const float* w, const float* out_scale,
                                             __nv_bfloat16* q, int rows, int cols, float eps) {
  const float big = 3.3895313892515355e38f;
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += x[r * cols + j] * x[r * cols + j];
  float rms = sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j)
    q[r * cols + j] = __float2bfloat16(fminf(fmaxf(x[r * cols + j] / rms * w[j] * out_scale[0], -big), big));
}

// ---- SiLU and mul ----

// y = silu(a) b on the halves a = x[:, :d], b = x[:, d:] of x[rows][2d]; silu(a) = a / (1 + e^-a).
extern "C" __global__ void silu_and_mul_rows(const float* x, float* y, int rows, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * d) return;
  int r = i / d, c = i % d;
  float a = x[r * 2 * d + c], b = x[r * 2 * d + d + c];
  y[i] = a / (1.f + expf(-a)) * b;
}

// The same of the inputs times x_scale, the result times o_scale clamped to +-65504 and stored as f16.
extern "C" __global__ void silu_and_mul_scaled_f16(const float* x, const float* x_scale, const float* o_scale,
                                                   __half* y, int rows, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * d) return;
  int r = i / d, c = i % d;
  float a = x[r * 2 * d + c] * x_scale[0], b = x[r * 2 * d + d + c] * x_scale[0];
  y[i] = __float2half(fminf(fmaxf(a / (1.f + expf(-a)) * b * o_scale[0], -65504.f), 65504.f));
}

// ---- GEMM ----

// c = alpha a b + beta c, a: [M][K], b: [K][N] bf16, c: [M][N] f32 in place.
extern "C" __global__ void gemm_bf16_f32_epilogue(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int M,
                                                  int N, int K, float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += __bfloat162float(a[m * K + k]) * __bfloat162float(b[k * N + n]);
  c[i] = alpha * acc + beta * c[i];
}

// ---- Mamba2 SSD: dt processing and the chunked cumsum of dt A ----

// dt: [B][L][H]; per (batch, head, chunk) of chunk_size steps: dt_out = clamp(softplus(dt + bias), lo, hi)
// (0 past the sequence end), dA_cs = running sum over the chunk of dt_out A[h]. dt_out, dA_cs: [B][H][NC][CS].
// softplus(x) = log(1 + e^x), x for x > 20 (torch's threshold).
extern "C" __global__ void ssd_chunk_cumsum(const float* dt, const float* A, const float* bias, float* dt_out,
                                            float* dA_cs, int B, int L, int H, int CS, float lo, float hi) {
  int NC = (L + CS - 1) / CS;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H * NC) return;
  int b = i / (H * NC), h = (i / NC) % H, ch = i % NC;
  float cum = 0.f;
  for (int c = 0; c < CS; ++c) {
    int t = ch * CS + c;
    float v = 0.f;
    if (t < L) {
      float x = dt[(b * L + t) * H + h] + bias[h];
      x = x > 20.f ? x : logf(1.f + expf(x));
      v = fminf(fmaxf(x, lo), hi);
    }
    dt_out[i * CS + c] = v;
    cum += v * A[h];
    dA_cs[i * CS + c] = cum;
  }
}

// ---- page bookkeeping ----

// Ragged append indptr to COO: entry j of sequence b gets batch index b and position
// seq_len[b] - (indptr[b+1] - indptr[b]) + (j - indptr[b]).
extern "C" __global__ void batch_indices_positions(const int* indptr, const int* seq_lens, int* batch_indices,
                                                   int* positions, int batch) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  int n = indptr[b + 1] - indptr[b];
  for (int j = 0; j < n; ++j) {
    batch_indices[indptr[b] + j] = b;
    positions[indptr[b] + j] = seq_lens[b] - n + j;
  }
}

// Gated-delta-net paged state slots at prefill: sequence i holds total = (pages - 1) page_size + last_len
// tokens, prefix = total - new tokens of them. Read row: the page of the last prefix token (-1 without a
// prefix); write row: the last page unless the sequence is empty or ends on a page boundary (-1); the first
// checkpoint is the entry of token prefix; and the prefix length.
extern "C" __global__ void gdn_prefill_slots(const int* cu_seqlens, const int* pages, const int* indptr,
                                             const int* last_len, int* read_rows, int* write_rows, int* ckpt,
                                             int* prefix_lens, int n, int page_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int len = cu_seqlens[i + 1] - cu_seqlens[i];
  int total = (indptr[i + 1] - indptr[i] - 1) * page_size + last_len[i];
  int prefix = total - len;
  read_rows[i] = prefix > 0 ? pages[indptr[i] + (prefix - 1) / page_size] : -1;
  write_rows[i] = len > 0 && total % page_size != 0 ? pages[indptr[i + 1] - 1] : -1;
  ckpt[i] = indptr[i] + prefix / page_size;
  prefix_lens[i] = prefix;
}

// At decode: write row the last page; read row the page before it when the new token opens the last page.
extern "C" __global__ void gdn_decode_slots(const int* pages, const int* indptr, const int* last_len, int* read_rows,
                                            int* write_rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int last = indptr[i + 1] - 1;
  write_rows[i] = pages[last];
  read_rows[i] = last_len[i] == 1 ? pages[last - 1] : pages[last];
}

// ---- Ulysses sequence parallelism: all-to-all payloads ----

// q, k, v: [B][S][Htot][D]; heads head_offset .. head_offset + HC of each rank's band of local_heads go to
// destination w: record (b, s, w, hc) (nccl: (w, b, s, hc)) of [3 D] holds q, k, v of head
// w local_heads + head_offset + hc.
extern "C" __global__ void ulysses_pack_qkv(const float* q, const float* k, const float* v, float* out, int B, int S,
                                            int W, int local_heads, int HC, int head_offset, int D, int nccl) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * S * W * HC) return;
  int hc = i % HC, w = (i / HC) % W, s = (i / (HC * W)) % S, b = i / (HC * W * S);
  int Htot = W * local_heads, h = w * local_heads + head_offset + hc;
  int rec = nccl ? ((w * B + b) * S + s) * HC + hc : ((b * S + s) * W + w) * HC + hc;
  for (int d = 0; d < D; ++d) {
    int src = ((b * S + s) * Htot + h) * D + d;
    out[rec * 3 * D + d] = q[src];
    out[rec * 3 * D + D + d] = k[src];
    out[rec * 3 * D + 2 * D + d] = v[src];
  }
}

// src: [B][W S][HC][D] -> out: [W][B][S][HC][D] (sequence block w goes to rank w).
extern "C" __global__ void ulysses_pack_output_seq(const float* src, float* out, int B, int S, int W, int HC, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= W * B * S * HC * D) return;
  int d = i % D, hc = (i / D) % HC, s = (i / (D * HC)) % S, b = (i / (D * HC * S)) % B, w = i / (D * HC * S * B);
  out[i] = src[((b * W * S + w * S + s) * HC + hc) * D + d];
}

// recv: [W][B][S][HC][D] -> out[b][s][w local_heads + head_offset + hc][d] of out: [B][S][W local_heads][D].
extern "C" __global__ void ulysses_merge_output_heads(const float* recv, float* out, int W, int B, int S, int HC,
                                                      int D, int local_heads, int head_offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= W * B * S * HC * D) return;
  int d = i % D, hc = (i / D) % HC, s = (i / (D * HC)) % S, b = (i / (D * HC * S)) % B, w = i / (D * HC * S * B);
  out[((b * S + s) * W * local_heads + w * local_heads + head_offset + hc) * D + d] = recv[i];
}
