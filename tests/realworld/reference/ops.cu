// Naive references for flag-gems' pointwise ops, reductions, norms and index ops: one thread per
// element (pointwise), per row or per output cell, textbook formulas, f32 throughout.
#include <math.h>
#include <stdint.h>

#define UNARY(name, expr)                                                   \
  extern "C" __global__ void name(const float* x, float* y, int n) {        \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          \
    if (i < n) {                                                            \
      float v = x[i];                                                       \
      y[i] = (expr);                                                        \
    }                                                                       \
  }

UNARY(exp_fwd, expf(v))
UNARY(exp2_fwd, exp2f(v))
UNARY(log_fwd, logf(v))
UNARY(expm1_fwd, expm1f(v))
UNARY(sqrt_fwd, sqrtf(v))
UNARY(rsqrt_fwd, 1.f / sqrtf(v))
UNARY(erf_fwd, erff(v))
UNARY(sin_fwd, sinf(v))
UNARY(atan_fwd, atanf(v))
// log(sigmoid(x)) = -log(1 + exp(-x))
UNARY(log_sigmoid_fwd, -logf(1.f + expf(-v)))
UNARY(log1p_fwd, log1pf(v))
// SELU with PyTorch's constants: scale * (x > 0 ? x : alpha (e^x - 1))
UNARY(selu_fwd, 1.0507009873554805f * (v > 0.f ? v : 1.6732632423543772f * (expf(v) - 1.f)))
// hardswish(x) = x relu6(x + 3) / 6
UNARY(hardswish_fwd, v * fminf(fmaxf(v + 3.f, 0.f), 6.f) / 6.f)
UNARY(relu6_fwd, fminf(fmaxf(v, 0.f), 6.f))

// CELU: x > 0 ? x : alpha (exp(x / alpha) - 1)
extern "C" __global__ void celu_fwd(const float* x, float* y, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.f ? x[i] : alpha * (expf(x[i] / alpha) - 1.f);
}

// threshold: x > th ? x : value
extern "C" __global__ void threshold_fwd(const float* x, float* y, int n, float th, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > th ? x[i] : value;
}

// clamp to [lo, hi]
extern "C" __global__ void clamp_fwd(const float* x, float* y, int n, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fminf(fmaxf(x[i], lo), hi);
}

// softshrink: x - lambda above lambda, x + lambda below -lambda, 0 between
extern "C" __global__ void softshrink_fwd(const float* x, float* y, int n, float lambd) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = v > lambd ? v - lambd : (v < -lambd ? v + lambd : 0.f);
}

// logit with eps: z = clamp(x, eps, 1 - eps); log(z / (1 - z))
extern "C" __global__ void logit_fwd(const float* x, float* y, int n, float eps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float z = fminf(fmaxf(x[i], eps), 1.f - eps);
  y[i] = logf(z / (1.f - z));
}

// hardswish in place (flag-gems hardswish_)
extern "C" __global__ void hardswish_inplace(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * fminf(fmaxf(x[i] + 3.f, 0.f), 6.f) / 6.f;
}

// log1p in place (flag-gems log1p_)
extern "C" __global__ void log1p_inplace(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = log1pf(x[i]);
}

#define BINARY(name, expr)                                                          \
  extern "C" __global__ void name(const float* a, const float* b, float* y, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                  \
    if (i < n) {                                                                    \
      float u = a[i], v = b[i];                                                     \
      y[i] = (expr);                                                                \
    }                                                                               \
  }

BINARY(div_fwd, u / v)
// Python's modulo: the remainder has the divisor's sign
BINARY(remainder_fwd, u - v * floorf(u / v))
BINARY(hypot_fwd, sqrtf(u * u + v * v))
BINARY(logaddexp_fwd, logf(expf(u) + expf(v)))
BINARY(maximum_fwd, fmaxf(u, v))

// lerp: a + w (b - a)
extern "C" __global__ void lerp_fwd(const float* a, const float* b, const float* w, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] + w[i] * (b[i] - a[i]);
}

// addcdiv: x + value * t1 / t2
extern "C" __global__ void addcdiv_fwd(const float* x, const float* t1, const float* t2, float* y, int n, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + value * t1[i] / t2[i];
}

// addcmul: x + value * t1 * t2
extern "C" __global__ void addcmul_fwd(const float* x, const float* t1, const float* t2, float* y, int n, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + value * t1[i] * t2[i];
}

// ---- Whole-tensor reductions: one thread, a plain loop.
extern "C" __global__ void prod_all(const float* x, float* out, int n) {
  if (threadIdx.x != 0) return;
  float p = 1.f;
  for (int i = 0; i < n; ++i) p *= x[i];
  out[0] = p;
}

// mean((a - b)^2)
extern "C" __global__ void mse_mean_all(const float* a, const float* b, float* out, int n) {
  if (threadIdx.x != 0) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  out[0] = s / n;
}

extern "C" __global__ void l2norm_all(const float* x, float* out, int n) {
  if (threadIdx.x != 0) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  out[0] = sqrtf(s);
}

extern "C" __global__ void dot_all(const float* a, const float* b, float* out, int n) {
  if (threadIdx.x != 0) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  out[0] = s;
}

// The first index of the largest element.
extern "C" __global__ void argmax_all(const float* x, long long* out, int n) {
  if (threadIdx.x != 0) return;
  int k = 0;
  float best = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > best) best = x[i], k = i;
  out[0] = k;
}

// Standard deviation with Bessel's correction, two-pass.
extern "C" __global__ void std_all(const float* x, float* out, int n) {
  if (threadIdx.x != 0) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += x[i];
  float m = s / n, v = 0.f;
  for (int i = 0; i < n; ++i) v += (x[i] - m) * (x[i] - m);
  out[0] = sqrtf(v / (n - 1));
}

// ---- Row reductions: one thread per row of x[rows][cols].
extern "C" __global__ void argmax_rows(const float* x, long long* out, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  int k = 0;
  float best = x[r * cols];
  for (int j = 1; j < cols; ++j)
    if (x[r * cols + j] > best) best = x[r * cols + j], k = j;
  out[r] = k;
}

// var (with Bessel's correction) and mean of each row, two-pass.
extern "C" __global__ void var_mean_rows(const float* x, float* var, float* mean, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += x[r * cols + j];
  float m = s / cols, v = 0.f;
  for (int j = 0; j < cols; ++j) v += (x[r * cols + j] - m) * (x[r * cols + j] - m);
  mean[r] = m;
  var[r] = v / (cols - 1);
}

// ---- Batch norm over x[batch][feat][spatial]: one thread per feature.
// Training: batch statistics (biased variance) normalize; the running stats move by momentum,
// the running variance with the unbiased variance.
extern "C" __global__ void batchnorm_train(const float* x, const float* w, const float* b, float* y, float* mean,
                                           float* inv_std, float* run_mean, float* run_var, int batch, int feat,
                                           int spatial, float momentum, float eps) {
  int f = threadIdx.x;
  if (f >= feat) return;
  int n = batch * spatial;
  float s = 0.f;
  for (int i = 0; i < batch; ++i)
    for (int j = 0; j < spatial; ++j) s += x[(i * feat + f) * spatial + j];
  float m = s / n, v = 0.f;
  for (int i = 0; i < batch; ++i)
    for (int j = 0; j < spatial; ++j) v += (x[(i * feat + f) * spatial + j] - m) * (x[(i * feat + f) * spatial + j] - m);
  v /= n;
  float inv = 1.f / sqrtf(v + eps);
  mean[f] = m;
  inv_std[f] = inv;
  run_mean[f] = (1.f - momentum) * run_mean[f] + momentum * m;
  run_var[f] = (1.f - momentum) * run_var[f] + momentum * v * n / (n - 1);
  for (int i = 0; i < batch; ++i)
    for (int j = 0; j < spatial; ++j) {
      int k = (i * feat + f) * spatial + j;
      y[k] = w[f] * (x[k] - m) * inv + b[f];
    }
}

// Inference: the running statistics normalize.
extern "C" __global__ void batchnorm_eval(const float* x, const float* w, const float* b, float* y,
                                          const float* run_mean, const float* run_var, int batch, int feat,
                                          int spatial, float eps) {
  int f = threadIdx.x;
  if (f >= feat) return;
  float inv = 1.f / sqrtf(run_var[f] + eps);
  for (int i = 0; i < batch; ++i)
    for (int j = 0; j < spatial; ++j) {
      int k = (i * feat + f) * spatial + j;
      y[k] = w[f] * (x[k] - run_mean[f]) * inv + b[f];
    }
}

// ---- Index ops: one thread per output cell.
// tril of each rows x cols matrix of a batch: x[i][j] where j <= i + diag, else 0.
extern "C" __global__ void tril_fwd(const float* x, float* y, int batch, int rows, int cols, int diag) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= batch * rows * cols) return;
  int i = k / cols % rows, j = k % cols;
  y[k] = j <= i + diag ? x[k] : 0.f;
}

// index_select along the last dim: y[r][c] = x[r][idx[c]] (idx in range).
extern "C" __global__ void index_select_last(const float* x, const long long* idx, float* y, int rows, int cols,
                                             int len) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= rows * len) return;
  int r = k / len, c = k % len;
  y[k] = x[r * cols + idx[c]];
}

// isin: y[i] = whether x[i] equals any of the n values of s (a scan, no order assumed).
extern "C" __global__ void isin_scan(const float* x, const float* s, bool* y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  bool found = false;
  for (int k = 0; k < n; ++k) found = found || x[i] == s[k];
  y[i] = found;
}
