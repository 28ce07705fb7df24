// Naive references for more liger-kernel ops: one thread per row, textbook formulas, f32.
#include <math.h>

// PolyNorm: y = w0 norm(x^3) + w1 norm(x^2) + w2 norm(x) + b, norm(u) = u / sqrt(mean(u^2) + eps);
// rstd[row] = the three 1 / sqrt(mean(u^2) + eps), for x^3, x^2, x.
extern "C" __global__ void poly_norm_fwd(const float* x, const float* w, const float* b, float* y, float* rstd,
                                         int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float s1 = 0.f, s2 = 0.f, s3 = 0.f;
  for (int j = 0; j < cols; ++j) {
    float v = xr[j];
    s1 += v * v;
    s2 += (v * v) * (v * v);
    s3 += (v * v * v) * (v * v * v);
  }
  float r3 = 1.f / sqrtf(s3 / cols + eps), r2 = 1.f / sqrtf(s2 / cols + eps), r1 = 1.f / sqrtf(s1 / cols + eps);
  rstd[r * 3 + 0] = r3;
  rstd[r * 3 + 1] = r2;
  rstd[r * 3 + 2] = r1;
  for (int j = 0; j < cols; ++j) {
    float v = xr[j];
    y[r * cols + j] = w[0] * (v * v * v) * r3 + w[1] * (v * v) * r2 + w[2] * v * r1 + b[0];
  }
}

// Total variation distance per row, scaled: loss[row] = scale * sum 0.5 |p - q|; grad = scale * 0.5 sign(p - q).
// A row whose label is ignore_index gets zero gradients and keeps its loss (zero-initialized by the caller).
extern "C" __global__ void tvd_fwd(const float* p, const float* q, const long long* label, float* loss, float* grads,
                                   int rows, int cols, float scale, int ignore_index) {
  int r = threadIdx.x;
  if (r >= rows) return;
  if (label[r] == ignore_index) {
    for (int j = 0; j < cols; ++j) grads[r * cols + j] = 0.f;
    return;
  }
  float s = 0.f;
  for (int j = 0; j < cols; ++j) {
    float a = p[r * cols + j], c = q[r * cols + j];
    s += 0.5f * fabsf(a - c);
    grads[r * cols + j] = a == c ? 0.f : (a > c ? 0.5f * scale : -0.5f * scale);
  }
  loss[r] = s * scale;
}
