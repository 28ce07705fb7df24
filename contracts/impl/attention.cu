// Single-head attention O = softmax(Q K^T / sqrt(D)) V, S queries and S keys of dimension D
// (D <= 64). One thread per query; the softmax is the online (streaming) form.
#include <cuda_fp16.h>

extern "C" __global__ void att_baseline(const float* q, const float* k, const float* v, float* o, int s, int d) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= s) return;
  for (int c = 0; c < d; ++c) o[r * d + c] = 0.0f;
}

// good: f32 scores, running max and sum, f32 output accumulator.
extern "C" __global__ void att_good(const float* q, const float* k, const float* v, float* o, int s, int d) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= s) return;
  float acc[64];
  for (int c = 0; c < d; ++c) acc[c] = 0.0f;
  float m = -INFINITY, l = 0.0f, scale = rsqrtf((float)d);
  for (int j = 0; j < s; ++j) {
    float x = 0.0f;
    for (int c = 0; c < d; ++c) x = fmaf(q[r * d + c], k[j * d + c], x);
    x *= scale;
    float mn = fmaxf(m, x);
    float corr = __expf(m - mn), p = __expf(x - mn);
    l = l * corr + p;
    for (int c = 0; c < d; ++c) acc[c] = acc[c] * corr + p * v[j * d + c];
    m = mn;
  }
  for (int c = 0; c < d; ++c) o[r * d + c] = acc[c] / l;
}

// bad: the scores q.k are computed in f16 (a silent downcast of the QK^T product). Close at
// small magnitudes; at large |q|, |k| the rounded scores move the softmax weights.
extern "C" __global__ void att_bad(const float* q, const float* k, const float* v, float* o, int s, int d) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= s) return;
  float acc[64];
  for (int c = 0; c < d; ++c) acc[c] = 0.0f;
  float m = -INFINITY, l = 0.0f, scale = rsqrtf((float)d);
  for (int j = 0; j < s; ++j) {
    __half xh = __float2half(0.0f);
    for (int c = 0; c < d; ++c) xh = __hfma(__float2half(q[r * d + c]), __float2half(k[j * d + c]), xh);
    float x = __half2float(xh) * scale;
    float mn = fmaxf(m, x);
    float corr = __expf(m - mn), p = __expf(x - mn);
    l = l * corr + p;
    for (int c = 0; c < d; ++c) acc[c] = acc[c] * corr + p * v[j * d + c];
    m = mn;
  }
  for (int c = 0; c < d; ++c) o[r * d + c] = acc[c] / l;
}

// bad_shape: written for d = 32 (the benchmarked head size): it reads and writes 32 columns
// whatever d is.
extern "C" __global__ void att_bad_shape(const float* q, const float* k, const float* v, float* o, int s, int d) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= s) return;
  const int D = 32;
  float acc[D];
  for (int c = 0; c < D; ++c) acc[c] = 0.0f;
  float m = -INFINITY, l = 0.0f, scale = rsqrtf((float)D);
  for (int j = 0; j < s; ++j) {
    float x = 0.0f;
    for (int c = 0; c < D && c < d; ++c) x = fmaf(q[r * d + c], k[j * d + c], x);
    x *= scale;
    float mn = fmaxf(m, x);
    float corr = __expf(m - mn), p = __expf(x - mn);
    l = l * corr + p;
    for (int c = 0; c < D && c < d; ++c) acc[c] = acc[c] * corr + p * v[j * d + c];
    m = mn;
  }
  for (int c = 0; c < D && c < d; ++c) o[r * d + c] = acc[c] / l;
}

// reference: two passes in f64 (max, then normalized weights).
extern "C" __global__ void att_reference(const float* q, const float* k, const float* v, double* o_ref, int s, int d) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= s) return;
  double scale = 1.0 / sqrt((double)d), m = -INFINITY, l = 0.0;
  for (int j = 0; j < s; ++j) {
    double x = 0.0;
    for (int c = 0; c < d; ++c) x += (double)q[r * d + c] * k[j * d + c];
    m = fmax(m, x * scale);
  }
  for (int c = 0; c < d; ++c) o_ref[r * d + c] = 0.0;
  for (int j = 0; j < s; ++j) {
    double x = 0.0;
    for (int c = 0; c < d; ++c) x += (double)q[r * d + c] * k[j * d + c];
    double p = exp(x * scale - m);
    l += p;
    for (int c = 0; c < d; ++c) o_ref[r * d + c] += p * v[j * d + c];
  }
  for (int c = 0; c < d; ++c) o_ref[r * d + c] /= l;
}

// bad_det: a CTA per query, a thread per key; each thread adds its weighted value row into the
// output with atomicAdd, so the order of the additions (and the rounding) varies by run.
extern "C" __global__ void att_bad_det(const float* q, const float* k, const float* v, float* o, int s, int d) {
  int r = blockIdx.x, j = threadIdx.x;
  if (j >= s) return;
  float scale = rsqrtf((float)d), m = -INFINITY, l = 0.0f, mine = 0.0f;
  for (int t = 0; t < s; ++t) {
    float x = 0.0f;
    for (int c = 0; c < d; ++c) x = fmaf(q[r * d + c], k[t * d + c], x);
    m = fmaxf(m, x * scale);
    if (t == j) mine = x * scale;
  }
  for (int t = 0; t < s; ++t) {
    float x = 0.0f;
    for (int c = 0; c < d; ++c) x = fmaf(q[r * d + c], k[t * d + c], x);
    l += __expf(x * scale - m);
  }
  float w = __expf(mine - m) / l;
  for (int c = 0; c < d; ++c) atomicAdd(&o[r * d + c], w * v[j * d + c]);
}
