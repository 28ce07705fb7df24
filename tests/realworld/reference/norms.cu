// Naive normalization references: one thread per row (or per column for weight gradients),
// straight from the textbook formulas, f32 throughout.
#include <math.h>

// RMSNorm: y = x / sqrt(mean(x^2) + eps) * (offset + w); rstd = 1 / sqrt(mean(x^2) + eps).
extern "C" __global__ void rmsnorm_fwd(const float* x, const float* w, float* y, float* rstd, int rows, int cols,
                                       float eps, float offset) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += x[r * cols + j] * x[r * cols + j];
  float inv = 1.f / sqrtf(ss / cols + eps);
  rstd[r] = inv;
  for (int j = 0; j < cols; ++j) y[r * cols + j] = x[r * cols + j] * inv * (offset + w[j]);
}

// RMSNorm backward with the saved rstd: dx = rstd * (g - x * rstd^2 * <g, x> / n), g = dy * (w + offset);
// dw = sum over rows of dy * x * rstd.
extern "C" __global__ void rmsnorm_bwd(const float* dy, const float* x, const float* w, const float* rstd, float* dx,
                                       float* dw, int rows, int cols, float offset) {
  int t = threadIdx.x;
  if (t < rows) {
    float dot = 0.f;
    for (int j = 0; j < cols; ++j) dot += dy[t * cols + j] * (w[j] + offset) * x[t * cols + j];
    float r = rstd[t];
    for (int j = 0; j < cols; ++j)
      dx[t * cols + j] = r * (dy[t * cols + j] * (w[j] + offset) - x[t * cols + j] * r * r * dot / cols);
  }
  if (t < cols) {
    float s = 0.f;
    for (int i = 0; i < rows; ++i) s += dy[i * cols + t] * x[i * cols + t] * rstd[i];
    dw[t] = s;
  }
}

// LayerNorm: two-pass mean and (biased) variance.
extern "C" __global__ void layernorm_fwd(const float* x, const float* w, const float* b, float* y, float* mean,
                                         float* rstd, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += x[r * cols + j];
  float m = s / cols;
  float v = 0.f;
  for (int j = 0; j < cols; ++j) v += (x[r * cols + j] - m) * (x[r * cols + j] - m);
  float inv = 1.f / sqrtf(v / cols + eps);
  mean[r] = m;
  rstd[r] = inv;
  for (int j = 0; j < cols; ++j) y[r * cols + j] = (x[r * cols + j] - m) * inv * w[j] + b[j];
}

// LayerNorm backward: dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = w * dy; dw = sum dy * xhat, db = sum dy.
extern "C" __global__ void layernorm_bwd(const float* x, const float* w, const float* mean, const float* rstd,
                                         const float* dy, float* dx, float* dw, float* db, int rows, int cols) {
  int t = threadIdx.x;
  if (t < rows) {
    float mg = 0.f, mgx = 0.f;
    for (int j = 0; j < cols; ++j) {
      float xhat = (x[t * cols + j] - mean[t]) * rstd[t];
      mg += w[j] * dy[t * cols + j];
      mgx += w[j] * dy[t * cols + j] * xhat;
    }
    mg /= cols;
    mgx /= cols;
    for (int j = 0; j < cols; ++j) {
      float xhat = (x[t * cols + j] - mean[t]) * rstd[t];
      dx[t * cols + j] = rstd[t] * (w[j] * dy[t * cols + j] - mg - xhat * mgx);
    }
  }
  if (t < cols) {
    float sw = 0.f, sb = 0.f;
    for (int i = 0; i < rows; ++i) {
      sw += dy[i * cols + t] * (x[i * cols + t] - mean[i]) * rstd[i];
      sb += dy[i * cols + t];
    }
    dw[t] = sw;
    db[t] = sb;
  }
}

// GroupNorm over x[batch][channels][spatial]: one thread per (batch, group); per-channel affine.
extern "C" __global__ void groupnorm_fwd(const float* x, const float* w, const float* b, float* y, float* mean,
                                         float* rstd, int batch, int groups, int channels_per_group, int spatial,
                                         float eps) {
  int t = threadIdx.x;
  if (t >= batch * groups) return;
  int n = channels_per_group * spatial;
  const float* xg = x + t * n;
  float s = 0.f;
  for (int j = 0; j < n; ++j) s += xg[j];
  float m = s / n;
  float v = 0.f;
  for (int j = 0; j < n; ++j) v += (xg[j] - m) * (xg[j] - m);
  float inv = 1.f / sqrtf(v / n + eps);
  mean[t] = m;
  rstd[t] = inv;
  int g = t % groups;
  for (int j = 0; j < n; ++j) {
    int c = g * channels_per_group + j / spatial;
    y[t * n + j] = (xg[j] - m) * inv * w[c] + b[c];
  }
}

// Residual add then RMSNorm: s = x + r; y = s / sqrt(mean(s^2) + eps) * (offset + w).
extern "C" __global__ void add_rmsnorm_fwd(const float* x, const float* res, const float* w, float* y, float* s_out,
                                           float* rstd, int rows, int cols, float eps, float offset) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) {
    float s = x[r * cols + j] + res[r * cols + j];
    ss += s * s;
  }
  float inv = 1.f / sqrtf(ss / cols + eps);
  rstd[r] = inv;
  for (int j = 0; j < cols; ++j) {
    float s = x[r * cols + j] + res[r * cols + j];
    s_out[r * cols + j] = s;
    y[r * cols + j] = s * inv * (offset + w[j]);
  }
}

// flag-gems fused_add_rms_norm, in place: res = x + res; x = res / sqrt(mean(res^2) + eps) * w.
extern "C" __global__ void add_rmsnorm_inplace(float* x, float* res, const float* w, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) {
    res[r * cols + j] += x[r * cols + j];
    ss += res[r * cols + j] * res[r * cols + j];
  }
  float inv = 1.f / sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) x[r * cols + j] = res[r * cols + j] * inv * w[j];
}

// y = layernorm(x + res) * w + b, two-pass variance (flag-gems skip_layernorm).
extern "C" __global__ void skip_layernorm_fwd(const float* x, const float* res, const float* w, const float* b, float* y,
                                              int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float m = 0.f, v = 0.f;
  for (int j = 0; j < cols; ++j) m += x[r * cols + j] + res[r * cols + j];
  m /= cols;
  for (int j = 0; j < cols; ++j) {
    float d = x[r * cols + j] + res[r * cols + j] - m;
    v += d * d;
  }
  float inv = 1.f / sqrtf(v / cols + eps);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = (x[r * cols + j] + res[r * cols + j] - m) * inv * w[j] + b[j];
}
