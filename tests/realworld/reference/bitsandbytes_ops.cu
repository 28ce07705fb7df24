// Naive references for bitsandbytes' Triton kernels (backends/triton/): the 32-bit optimizer updates (Adam /
// AdamW, AdEMAMix, momentum SGD, RMSprop, Adagrad, Lion; LAMB and LARS with their update-norm clipping), the
// 8-bit blockwise optimizer states (Adam), 4-bit NF4 / FP4 blockwise quantization (two codes a byte, the first
// element in the high nibble) and dequantization, 8-bit blockwise quantization by a code table and its
// dequantization. One thread per element, block or tensor; textbook formulas in f32 (PyTorch's optimizer
// forms: the bias corrections and the 1 - beta factors given as the host computes them), the nearest code
// by plain comparisons.
#include <cuda_bf16.h>
#include <math.h>
#include "float_formats.cuh"

__device__ int element() { return blockIdx.x * blockDim.x + threadIdx.x; }

// ---- 32-bit optimizers: one thread per element; p, states updated in place ----

// Adam / AdamW (PyTorch's form): m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2 (g scaled by gs),
// p = p (1 - lr wd) - lr / (1 - b1^t) m / (sqrt(v) / sqrt(1 - b2^t) + eps); b1t = b1^t, b2t = b2^t.
// The update is multiplied by `scale` (LAMB's trust ratio; 1 for Adam).
template <typename T>
__device__ void adam_element(int i, const T* g, T* p, float* m, float* v, float b1, float omb1, float b2, float omb2,
                             float eps, float wd, float lr, float b1t, float b2t, float gs, float scale) {
  float gi = as_float(g[i]) * gs;
  float mi = b1 * m[i] + omb1 * gi;
  float vi = b2 * v[i] + omb2 * gi * gi;
  float pi = as_float(p[i]) * (1.f - lr * wd);
  float denom = sqrtf(vi) / sqrtf(1.f - b2t) + eps;
  pi = pi - scale * (lr / (1.f - b1t)) * (mi / denom);
  p[i] = from_float<T>(pi);
  m[i] = mi;
  v[i] = vi;
}

extern "C" __global__ void adam_32bit(const float* g, float* p, float* m, float* v, int n, float b1, float omb1,
                                      float b2, float omb2, float eps, float wd, float lr, float b1t, float b2t,
                                      float gs) {
  int i = element();
  if (i < n) adam_element<float>(i, g, p, m, v, b1, omb1, b2, omb2, eps, wd, lr, b1t, b2t, gs, 1.f);
}

extern "C" __global__ void adam_32bit_bf16(const __nv_bfloat16* g, __nv_bfloat16* p, float* m, float* v, int n,
                                           float b1, float omb1, float b2, float omb2, float eps, float wd, float lr,
                                           float b1t, float b2t, float gs) {
  int i = element();
  if (i < n) adam_element<__nv_bfloat16>(i, g, p, m, v, b1, omb1, b2, omb2, eps, wd, lr, b1t, b2t, gs, 1.f);
}

// LAMB: Adam whose update is scaled by min(1, max_unorm pnorm / ||u||), u the bias-corrected Adam direction
// (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps) of the new states; ||u||^2 is stored to unorm. One thread.
extern "C" __global__ void lamb_32bit(const float* g, float* p, float* m, float* v, float* unorm, int n, float b1,
                                      float omb1, float b2, float omb2, float eps, float wd, float lr, float b1t,
                                      float b2t, float max_unorm, float pnorm) {
  if (element() != 0) return;
  float sum = 0.f;
  for (int i = 0; i < n; ++i) {
    float gi = g[i];
    float mi = b1 * m[i] + omb1 * gi;
    float vi = b2 * v[i] + omb2 * gi * gi;
    float u = (mi / (1.f - b1t)) / (sqrtf(vi / (1.f - b2t)) + eps);
    sum += u * u;
  }
  unorm[0] = sum;
  float norm = sqrtf(sum);
  float scale = norm > max_unorm * pnorm ? max_unorm * pnorm / norm : 1.f;
  for (int i = 0; i < n; ++i) adam_element<float>(i, g, p, m, v, b1, omb1, b2, omb2, eps, wd, lr, b1t, b2t, 1.f, scale);
}

// AdEMAMix: two EMAs of g in mm[0][n] (rate b1) and mm[1][n] (rate b3), nu = b2 nu + (1 - b2) g^2,
// p = p (1 - lr wd) - lr (m1 / (1 - b1^t) + alpha m2) / (sqrt(nu) / sqrt(1 - b2^t) + eps).
extern "C" __global__ void ademamix_32bit(const float* g, float* p, float* mm, float* nu, int n, float b1, float omb1,
                                          float b2, float omb2, float b3, float alpha, float eps, float wd, float lr,
                                          float b1t, float b2t) {
  int i = element();
  if (i >= n) return;
  float gi = g[i];
  float m1 = b1 * mm[i] + omb1 * gi;
  float m2 = b3 * mm[n + i] + (1.f - b3) * gi;
  float ni = b2 * nu[i] + omb2 * gi * gi;
  float pi = p[i] * (1.f - lr * wd);
  p[i] = pi - lr * ((m1 / (1.f - b1t) + alpha * m2) / (sqrtf(ni) / sqrtf(1.f - b2t) + eps));
  mm[i] = m1;
  mm[n + i] = m2;
  nu[i] = ni;
}

// SGD with momentum (coupled weight decay g += wd p): s = g at step 1, else s = b1 s + g; p -= scale lr s.
__device__ void momentum_element(int i, const float* g, float* p, float* s, int step, float b1, float wd, float lr,
                                 float scale) {
  float gi = g[i] + wd * p[i];
  float si = step == 1 ? gi : b1 * s[i] + gi;
  p[i] = p[i] - scale * (lr * si);
  s[i] = si;
}

extern "C" __global__ void momentum_32bit(const float* g, float* p, float* s, int n, int step, float b1, float wd,
                                          float lr) {
  int i = element();
  if (i < n) momentum_element(i, g, p, s, step, b1, wd, lr, 1.f);
}

// LARS (no weight decay): momentum SGD whose update is scaled by min(1, (max_unorm pnorm + eps) / ||s||), s the
// new momentum; ||s||^2 is stored to unorm. One thread.
extern "C" __global__ void lars_32bit(const float* g, float* p, float* s, float* unorm, int n, int step, float b1,
                                      float lr, float eps, float max_unorm, float pnorm) {
  if (element() != 0) return;
  float sum = 0.f;
  for (int i = 0; i < n; ++i) {
    float si = step == 1 ? g[i] : b1 * s[i] + g[i];
    sum += si * si;
  }
  unorm[0] = sum;
  float norm = sqrtf(sum), limit = max_unorm * pnorm + eps;
  float scale = norm > limit ? limit / norm : 1.f;
  for (int i = 0; i < n; ++i) momentum_element(i, g, p, s, step, b1, 0.f, lr, scale);
}

// RMSprop (coupled weight decay): s = b1 s + (1 - b1) g^2, p -= lr g / (sqrt(s) + eps).
extern "C" __global__ void rmsprop_32bit(const float* g, float* p, float* s, int n, float b1, float omb1, float eps,
                                         float wd, float lr) {
  int i = element();
  if (i >= n) return;
  float gi = g[i] + wd * p[i];
  float si = b1 * s[i] + omb1 * gi * gi;
  p[i] = p[i] - lr * gi / (sqrtf(si) + eps);
  s[i] = si;
}

// Adagrad (coupled weight decay): s += g^2, p -= lr g / (sqrt(s) + eps).
extern "C" __global__ void adagrad_32bit(const float* g, float* p, float* s, int n, float eps, float wd, float lr) {
  int i = element();
  if (i >= n) return;
  float gi = g[i] + wd * p[i];
  float si = s[i] + gi * gi;
  p[i] = p[i] - lr * gi / (sqrtf(si) + eps);
  s[i] = si;
}

// Lion (decoupled weight decay): p = p (1 - lr wd) - lr sign(b1 s + (1 - b1) g), then s = b2 s + (1 - b2) g.
extern "C" __global__ void lion_32bit(const float* g, float* p, float* s, int n, float b1, float omb1, float b2,
                                      float omb2, float wd, float lr) {
  int i = element();
  if (i >= n) return;
  float c = b1 * s[i] + omb1 * g[i];
  float sign = c > 0.f ? 1.f : (c < 0.f ? -1.f : 0.f);
  p[i] = p[i] * (1.f - lr * wd) - lr * sign;
  s[i] = b2 * s[i] + omb2 * g[i];
}

// ---- 4-bit NF4 / FP4 ----

// The 16 NF4 levels (normal-float quantiles, ascending; code c is level c).
#define NF4_LEVELS                                                                                             \
  {-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,                 \
   -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,                  \
   0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0}

// The code of the NF4 level nearest v (ties to the lower): how many midpoints of adjacent levels v exceeds.
__device__ __forceinline__ int nf4_code(float v) {
  constexpr double L[16] = NF4_LEVELS;
  int q = 0;
#pragma unroll
  for (int i = 0; i < 15; ++i) q += v > (float)(0.5 * (L[i] + L[i + 1])) ? 1 : 0;
  return q;
}

__device__ __forceinline__ float nf4_level(int c) {
  constexpr double L[16] = NF4_LEVELS;
  float v = 0.f;
#pragma unroll
  for (int i = 0; i < 16; ++i) v = c == i ? (float)L[i] : v;
  return v;
}

// bitsandbytes' FP4 (1 sign, 2 exponent, 1 mantissa bit): the magnitude of codes 0..7, in code order.
#define FP4_LEVELS {0.0f, 0.005208333333f, 0.66666667f, 1.0f, 0.33333333f, 0.5f, 0.16666667f, 0.25f}

// The FP4 code of v: the magnitude's code walked up the ascending levels 0, 0.0052, 1/6, 1/4, 1/3, 1/2, 2/3, 1
// (codes 0, 1, 6, 7, 4, 5, 2, 3) past each decision boundary bitsandbytes uses (about the midpoints, written to
// 7 digits), the sign in bit 3.
__device__ __forceinline__ int fp4_code(float v) {
  constexpr float bound[7] = {0.00260417f, 0.0859375f, 0.20833333f, 0.29166667f, 0.4166667f, 0.583333f, 0.8333333f};
  constexpr int code[7] = {1, 6, 7, 4, 5, 2, 3};
  float a = fabsf(v);
  int q = 0;
#pragma unroll
  for (int i = 0; i < 7; ++i) q = a > bound[i] ? code[i] : q;
  return v < 0.f ? q | 8 : q;
}

__device__ __forceinline__ float fp4_level(int c) {
  constexpr float L[8] = FP4_LEVELS;
  float v = 0.f;
#pragma unroll
  for (int i = 0; i < 8; ++i) v = (c & 7) == i ? L[i] : v;
  return (c & 8) ? -v : v;
}

// Blockwise 4-bit quantization of x[n] (n a multiple of B): absmax[b] = max |x| of block b (0 for a block past n;
// nabs of them), each element's code of x / absmax, two a byte: out[k] = code(x[2k]) << 4 | code(x[2k + 1]).
// One thread per block.
template <bool NF4>
__device__ void quant_4bit(const float* x, float* absmax, unsigned char* out, int n, int nabs, int B) {
  int b = element();
  if (b >= nabs) return;
  float amax = 0.f;
  for (int i = b * B; i < (b + 1) * B && i < n; ++i) amax = fmaxf(amax, fabsf(x[i]));
  absmax[b] = amax;
  for (int i = b * B; i < (b + 1) * B && i < n; i += 2) {
    float v0 = x[i] / amax, v1 = x[i + 1] / amax;
    int c0 = NF4 ? nf4_code(v0) : fp4_code(v0);
    int c1 = NF4 ? nf4_code(v1) : fp4_code(v1);
    out[i / 2] = (unsigned char)(c0 << 4 | c1);
  }
}

extern "C" __global__ void quant_nf4(const float* x, float* absmax, unsigned char* out, int n, int nabs, int B) {
  quant_4bit<true>(x, absmax, out, n, nabs, B);
}

extern "C" __global__ void quant_fp4(const float* x, float* absmax, unsigned char* out, int n, int nabs, int B) {
  quant_4bit<false>(x, absmax, out, n, nabs, B);
}

// Dequantization of packed 4-bit codes q[nq] into y[2 nq]: y[2k] = level(q[k] >> 4) absmax[2k / B],
// y[2k + 1] = level(q[k] & 15) absmax[2k / B].
template <bool NF4, typename T>
__device__ void dequant_4bit(const unsigned char* q, const float* absmax, T* y, int nq, int B) {
  int k = element();
  if (k >= nq) return;
  float s = absmax[2 * k / B];
  int hi = q[k] >> 4, lo = q[k] & 15;
  y[2 * k] = from_float<T>((NF4 ? nf4_level(hi) : fp4_level(hi)) * s);
  y[2 * k + 1] = from_float<T>((NF4 ? nf4_level(lo) : fp4_level(lo)) * s);
}

extern "C" __global__ void dequant_nf4_f32(const unsigned char* q, const float* absmax, float* y, int nq, int B) {
  dequant_4bit<true, float>(q, absmax, y, nq, B);
}

extern "C" __global__ void dequant_nf4_bf16(const unsigned char* q, const float* absmax, __nv_bfloat16* y, int nq,
                                            int B) {
  dequant_4bit<true, __nv_bfloat16>(q, absmax, y, nq, B);
}

extern "C" __global__ void dequant_fp4_f32(const unsigned char* q, const float* absmax, float* y, int nq, int B) {
  dequant_4bit<false, float>(q, absmax, y, nq, B);
}

// ---- 8-bit blockwise with a code table ----

// y[i] = code[q[i]] absmax[i / B].
extern "C" __global__ void dequant_8bit(const unsigned char* q, const float* code, const float* absmax, float* y, int n,
                                        int B) {
  int i = element();
  if (i < n) y[i] = code[q[i]] * absmax[i / B];
}

// The index of the entry of code[256] (ascending) nearest v, the lower one on a tie.
__device__ int nearest_code(float v, const float* code) {
  int best = 0;
  float bd = fabsf(v - code[0]);
  for (int j = 1; j < 256; ++j) {
    float d = fabsf(v - code[j]);
    if (d < bd) {
      best = j;
      bd = d;
    }
  }
  return best;
}

// Blockwise 8-bit quantization of x[n] (n a multiple of B): absmax[b] = max |x| of block b, q[i] = the nearest code
// to x[i] / absmax. One thread per block.
__device__ void quant_8bit_block(int b, const float* x, const float* code, float* absmax, unsigned char* q, int B) {
  float amax = 0.f;
  for (int i = b * B; i < (b + 1) * B; ++i) amax = fmaxf(amax, fabsf(x[i]));
  absmax[b] = amax;
  for (int i = b * B; i < (b + 1) * B; ++i) q[i] = (unsigned char)nearest_code(x[i] / amax, code);
}

extern "C" __global__ void quant_8bit(const float* x, const float* code, float* absmax, unsigned char* q, int n,
                                      int B) {
  int b = element();
  if (b < n / B) quant_8bit_block(b, x, code, absmax, q, B);
}

// 8-bit blockwise Adam (one block of B elements a thread): the states dequantized by their code tables and
// block absmax, the Adam step in f32 (adam_element), then requantized (new absmax, nearest codes).
// m32, v32 are scratch of n floats.
extern "C" __global__ void adam_8bit(const float* g, float* p, unsigned char* q1, unsigned char* q2, const float* code1,
                                     const float* code2, float* absmax1, float* absmax2, float* m32, float* v32, int n,
                                     int B, float b1, float omb1, float b2, float omb2, float eps, float wd, float lr,
                                     float b1t, float b2t) {
  int b = element();
  if (b >= n / B) return;
  for (int i = b * B; i < (b + 1) * B; ++i) {
    m32[i] = code1[q1[i]] * absmax1[b];
    v32[i] = code2[q2[i]] * absmax2[b];
    adam_element<float>(i, g, p, m32, v32, b1, omb1, b2, omb2, eps, wd, lr, b1t, b2t, 1.f, 1.f);
  }
  quant_8bit_block(b, m32, code1, absmax1, q1, B);
  quant_8bit_block(b, v32, code2, absmax2, q2, B);
}
