// Naive references for xformers' split-K decoding attention (fmha/_triton/splitk_kernels.py): the attention of
// one query per head over a sequence of keys, and the merge of partial attentions by their log-sum-exps. One
// thread per output cell, textbook formulas (no max subtraction), f32 accumulation, bf16 through cuda_bf16.h.
#include <cuda_bf16.h>
#include <math.h>

// out[h][d] = sum_n e^(scale q_h . k_nh) v_nh[d] / sum_n e^(scale q_h . k_nh): q[H][D], k, v [N][H][D], out[H][D].
extern "C" __global__ void decode_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                                 const __nv_bfloat16* v, __nv_bfloat16* out, int N, int H, int D,
                                                 float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= H * D) return;
  int h = i / D, d = i % D;
  float num = 0.f, den = 0.f;
  for (int n = 0; n < N; ++n) {
    float s = 0.f;
    for (int j = 0; j < D; ++j) s += __bfloat162float(q[h * D + j]) * __bfloat162float(k[(n * H + h) * D + j]);
    float w = expf(scale * s);
    num += w * __bfloat162float(v[(n * H + h) * D + d]);
    den += w;
  }
  out[i] = __float2bfloat16(num / den);
}

// The merge of S partial attentions o_s[h][d] with log-sum-exps lse_s[h]: out[h][d] = sum_s e^lse_s o_s[h][d] /
// sum_s e^lse_s. o rows of partial s, head h at o + (h S + s) os (os apart: the splits' rows are padded), lse
// [H][S] f64, out[H][D] bf16.
extern "C" __global__ void merge_partials_bf16(const float* o, const double* lse, __nv_bfloat16* out, int H, int S,
                                               int D, int os) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= H * D) return;
  int h = i / D, d = i % D;
  float num = 0.f, den = 0.f;
  for (int s = 0; s < S; ++s) {
    float w = expf((float)lse[h * S + s]);
    num += w * o[(h * S + s) * os + d];
    den += w;
  }
  out[i] = __float2bfloat16(num / den);
}

// The same merge in f32 with the merged log-sum-exp: o_s[h][d] at o + s ss + h hs + d, lse_s[h] at
// lse + s ls + h lh; out[h][d] = sum_s e^lse_s o_s[h][d] / sum_s e^lse_s, lse_out[h] = log(sum_s e^lse_s).
extern "C" __global__ void merge_partials_lse_f32(const float* o, const float* lse, float* out, float* lse_out, int H,
                                                  int S, int D, int ss, int hs, int ls, int lh) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= H * D) return;
  int h = i / D, d = i % D;
  float num = 0.f, den = 0.f;
  for (int s = 0; s < S; ++s) {
    float w = expf(lse[s * ls + h * lh]);
    num += w * o[s * ss + h * hs + d];
    den += w;
  }
  out[i] = num / den;
  if (d == 0) lse_out[h] = logf(den);
}
