// Naive references for cut-cross-entropy's kernels (instances/cce_ops.py): the logits z = E C^T of a
// token's embedding (a row of E) against each classifier row (a row of C), optionally soft-capped
// z -> cap tanh(z / cap); the log-sum-exp of a token's logits, the dot product with its target's row,
// and the gradients of the cross-entropy through the logits. One thread per token (or per class),
// f32 accumulation, no max subtraction. A token list `valids` (nullable) selects the tokens in use:
// token i of the launch is row valids[i] of E; `shift` reads the target (and the output gradient)
// of the next position.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include "float_formats.cuh"

template <typename T>
__device__ float logit(const T* e, const T* c, int row, int v, int D, float cap) {
  float z = 0.f;
  for (int d = 0; d < D; ++d) z += as_float(e[row * D + d]) * as_float(c[v * D + d]);
  return cap != 0.f ? cap * tanhf(z / cap) : z;
}

// lse[i] = log sum_v exp z(row_i, v); with la given, la[v] = sum_i z(row_i, v) / B (the mean logit).
template <typename T>
__device__ void lse_fwd(const T* e, const T* c, float* lse, float* la, const int* valids, int B, int V, int D,
                        float cap) {
  int i = threadIdx.x;
  if (i < B) {
    int row = valids ? valids[i] : i;
    float s = 0.f;
    for (int v = 0; v < V; ++v) s += expf(logit(e, c, row, v, D, cap));
    lse[i] = logf(s);
  }
  if (la && i < V) {
    float s = 0.f;
    for (int k = 0; k < B; ++k) s += logit(e, c, valids ? valids[k] : k, i, D, cap);
    la[i] = s / (float)B;
  }
}

extern "C" __global__ void lse_fwd_bf16(const __nv_bfloat16* e, const __nv_bfloat16* c, float* lse, float* la,
                                        const int* valids, int B, int V, int D, float cap) {
  lse_fwd(e, c, lse, la, valids, B, V, D, cap);
}

extern "C" __global__ void lse_fwd_f16(const __half* e, const __half* c, float* lse, float* la, const int* valids,
                                       int B, int V, int D, float cap) {
  lse_fwd(e, c, lse, la, valids, B, V, D, cap);
}

// out[i] = -sum_d round(e[row_i, d] c[t, d]) with t = targets[row_i + shift]: the products are taken in
// the input type (each rounded to it), then summed in f32.
template <typename T>
__device__ void neg_target_dot(const T* e, const T* c, const long long* targets, const int* valids, float* out,
                               int B, int D, int shift) {
  int i = threadIdx.x;
  if (i >= B) return;
  int row = valids ? valids[i] : i;
  int t = (int)targets[row + shift];
  float s = 0.f;
  for (int d = 0; d < D; ++d) s += as_float(from_float<T>(as_float(e[row * D + d]) * as_float(c[t * D + d])));
  out[i] = -s;
}

extern "C" __global__ void neg_target_dot_bf16(const __nv_bfloat16* e, const __nv_bfloat16* c,
                                               const long long* targets, const int* valids, float* out, int B, int D,
                                               int shift) {
  neg_target_dot(e, c, targets, valids, out, B, D, shift);
}

extern "C" __global__ void neg_target_dot_f16(const __half* e, const __half* c, const long long* targets,
                                              const int* valids, float* out, int B, int D, int shift) {
  neg_target_dot(e, c, targets, valids, out, B, D, shift);
}

// The gradient of the cross-entropy of token i at class v, in the input type:
//   g = (exp(z - lse[i]) - [v == t]) * dz/dx * scale * dout,
// z the (soft-capped) logit, t = targets[row_i + shift], dz/dx = 1 - (z / cap)^2 under soft-capping,
// dout one value (n_dout == 1) or dout[row_i + shift].
template <typename T>
__device__ T grad_logit(const T* e, const T* c, const float* lse, const long long* targets, const int* valids,
                        const float* dout, int n_dout, float scale, int i, int v, int D, float cap, int shift) {
  int row = valids ? valids[i] : i;
  float z = logit(e, c, row, v, D, cap);
  float g = expf(z - lse[i]) - (targets[row + shift] == v ? 1.f : 0.f);
  if (cap != 0.f) {
    float y = z / cap;
    g = g * (1.f - y * y);
  }
  float o = n_dout == 1 ? dout[0] : dout[row + shift];
  return from_float<T>(g * (scale * o));
}

// Threads 0..B-1: dE[row_i, :] += round(sum_v g(i, v) C[v, :]); threads B..B+V-1: dC[v, :] += round(sum_i g(i, v)
// E[row_i, :]) (dE and dC start at zero, as the library allocates them).
template <typename T>
__device__ void ce_bwd(const T* e, const T* c, const float* lse, const long long* targets, const int* valids,
                       const float* dout, int n_dout, float scale, T* de, T* dc, int B, int V, int D, float cap,
                       int shift) {
  int k = threadIdx.x;
  if (k < B) {
    int row = valids ? valids[k] : k;
    for (int d = 0; d < D; ++d) {
      float s = 0.f;
      for (int v = 0; v < V; ++v)
        s += as_float(grad_logit(e, c, lse, targets, valids, dout, n_dout, scale, k, v, D, cap, shift)) *
             as_float(c[v * D + d]);
      de[row * D + d] = from_float<T>(as_float(de[row * D + d]) + as_float(from_float<T>(s)));
    }
  } else if (k < B + V) {
    int v = k - B;
    for (int d = 0; d < D; ++d) {
      float s = 0.f;
      for (int i = 0; i < B; ++i) {
        int row = valids ? valids[i] : i;
        s += as_float(grad_logit(e, c, lse, targets, valids, dout, n_dout, scale, i, v, D, cap, shift)) *
             as_float(e[row * D + d]);
      }
      dc[v * D + d] = from_float<T>(as_float(dc[v * D + d]) + as_float(from_float<T>(s)));
    }
  }
}

extern "C" __global__ void ce_bwd_bf16(const __nv_bfloat16* e, const __nv_bfloat16* c, const float* lse,
                                       const long long* targets, const int* valids, const float* dout, int n_dout,
                                       float scale, __nv_bfloat16* de, __nv_bfloat16* dc, int B, int V, int D,
                                       float cap, int shift) {
  ce_bwd(e, c, lse, targets, valids, dout, n_dout, scale, de, dc, B, V, D, cap, shift);
}

extern "C" __global__ void ce_bwd_f16(const __half* e, const __half* c, const float* lse, const long long* targets,
                                      const int* valids, const float* dout, int n_dout, float scale, __half* de,
                                      __half* dc, int B, int V, int D, float cap, int shift) {
  ce_bwd(e, c, lse, targets, valids, dout, n_dout, scale, de, dc, B, V, D, cap, shift);
}
