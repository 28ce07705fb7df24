// Naive references for unsloth's kernels (norms, rotary embeddings, gated activations, cross-entropy):
// one thread per row, head or element, textbook formulas, f32. The RMSNorm and LayerNorm rows with an
// affine weight use norms.cu.
#include <math.h>

// RMSNorm in place that keeps its input: res = x; x = x / sqrt(mean(x^2) + eps) * w.
extern "C" __global__ void rmsnorm_inplace_keep(float* x, float* res, const float* w, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) {
    res[r * cols + j] = x[r * cols + j];
    ss += x[r * cols + j] * x[r * cols + j];
  }
  float inv = 1.f / sqrtf(ss / cols + eps);
  for (int j = 0; j < cols; ++j) x[r * cols + j] = res[r * cols + j] * inv * w[j];
}

// Rotary embedding (rotate_half) of x[batch][heads][seq][dim] at any strides, into out of the same layout
// (may be x): out = x cos + rotate_half(x) sin, rotate_half(x) = (-x2, x1); the backward rotates by -sin.
// cos and sin are [positions][dim] tables (stride table_stride) read at the position of each token,
// pos[b * seq + s]. One thread per (batch, head, seq, column of the first half).
extern "C" __global__ void rope(const float* x, float* out, const float* cos_t, const float* sin_t, const int* pos,
                                int batch, int heads, int seq, int dim, int xs_b, int xs_h, int xs_s, int os_b,
                                int os_h, int os_s, int table_stride, float sign) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int half = dim / 2;
  if (t >= batch * heads * seq * half) return;
  int j = t % half, s = (t / half) % seq, h = (t / half / seq) % heads, b = t / half / seq / heads;
  int p = pos[b * seq + s];
  float c = cos_t[p * table_stride + j], sn = sign * sin_t[p * table_stride + j];
  const float* xi = x + b * xs_b + h * xs_h + s * xs_s;
  float* oi = out + b * os_b + h * os_h + s * os_s;
  float x1 = xi[j], x2 = xi[j + half];
  oi[j] = x1 * c - x2 * sn;
  oi[j + half] = x2 * c + x1 * sn;
}

// Per-head RMSNorm then rotary embedding (Qwen3's q_norm / k_norm): x[rows][heads][dim], y the same,
// r[rows][heads] = 1 / sqrt(mean(x^2) + eps); position of row = row % seq. One thread per (row, head).
extern "C" __global__ void head_rmsnorm_rope(const float* x, const float* w, float* y, float* r, const float* cos_t,
                                             const float* sin_t, int rows, int heads, int dim, int seq, float eps) {
  int t = threadIdx.x;
  if (t >= rows * heads) return;
  int row = t / heads, half = dim / 2, p = row % seq;
  const float* xi = x + t * dim;
  float ss = 0.f;
  for (int j = 0; j < dim; ++j) ss += xi[j] * xi[j];
  float inv = 1.f / sqrtf(ss / dim + eps);
  r[t] = inv;
  for (int j = 0; j < half; ++j) {
    float n1 = xi[j] * inv * w[j], n2 = xi[j + half] * inv * w[j + half];
    float c = cos_t[p * dim + j], s = sin_t[p * dim + j];
    y[t * dim + j] = n1 * c - n2 * s;
    y[t * dim + j + half] = n2 * c + n1 * s;
  }
}

// Its backward with the saved r: g = the rotation's transpose applied to dy (rotation by -sin), then
// RMSNorm's backward, dx = r (g w - n <g w, n> / dim), n = x r.
extern "C" __global__ void head_rmsnorm_rope_bwd(const float* dy, const float* x, const float* w, const float* r,
                                                 float* dx, const float* cos_t, const float* sin_t, int rows,
                                                 int heads, int dim, int seq) {
  int t = threadIdx.x;
  if (t >= rows * heads) return;
  int row = t / heads, half = dim / 2, p = row % seq;
  const float* xi = x + t * dim;
  const float* g = dy + t * dim;
  float inv = r[t];
  float dot = 0.f;
  for (int j = 0; j < half; ++j) {
    float c = cos_t[p * dim + j], s = sin_t[p * dim + j];
    float g1 = g[j] * c + g[j + half] * s, g2 = g[j + half] * c - g[j] * s;
    dot += g1 * w[j] * xi[j] * inv + g2 * w[j + half] * xi[j + half] * inv;
  }
  for (int j = 0; j < half; ++j) {
    float c = cos_t[p * dim + j], s = sin_t[p * dim + j];
    float g1 = g[j] * c + g[j + half] * s, g2 = g[j + half] * c - g[j] * s;
    dx[t * dim + j] = inv * (g1 * w[j] - xi[j] * inv * dot / dim);
    dx[t * dim + j + half] = inv * (g2 * w[j + half] - xi[j + half] * inv * dot / dim);
  }
}

__device__ float sigmoid_f(float x) { return 1.f / (1.f + expf(-x)); }
__device__ float gelu_erf_f(float x) { return 0.5f * x * (1.f + erff(x / sqrtf(2.f))); }
__device__ float gelu_tanh_f(float x) {
  const float k = 0.7978845608028654f;  // sqrt(2/pi)
  return 0.5f * x * (1.f + tanhf(k * (x + 0.044715f * x * x * x)));
}

// Gated MLP forward: h = act(e) g, act one of silu (0), gelu with erf (1), gelu with tanh (2).
extern "C" __global__ void gated_fwd(const float* e, const float* g, float* h, int n, int act) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = e[i];
  float f = act == 0 ? x * sigmoid_f(x) : act == 1 ? gelu_erf_f(x) : gelu_tanh_f(x);
  h[i] = f * g[i];
}

// Its backward in place, given dh (in dw): dw <- h = act(e) g, e <- dh act(e), g <- dh g act'(e).
extern "C" __global__ void gated_bwd(float* dw, float* e, float* g, int n, int act) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = e[i], up = g[i], dh = dw[i];
  float f, df;
  if (act == 0) {
    float s = sigmoid_f(x);
    f = x * s;
    df = s + x * s * (1.f - s);
  } else if (act == 1) {
    f = gelu_erf_f(x);
    df = 0.5f * (1.f + erff(x / sqrtf(2.f))) + x * expf(-0.5f * x * x) / sqrtf(2.f * 3.14159265358979f);
  } else {
    const float k = 0.7978845608028654f;
    float t = tanhf(k * (x + 0.044715f * x * x * x));
    f = 0.5f * x * (1.f + t);
    df = 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * k * (1.f + 3.f * (0.044715f * x * x));
  }
  dw[i] = f * up;
  e[i] = dh * f;
  g[i] = dh * up * df;
}

// Cross-entropy of each row against its label (ignore_index -100), the logits first transformed by
// z = scale x (scale != 0), then z = cap tanh(z / cap) (cap != 0): lse = log(sum exp z),
// loss = lse - z[label] (0 when ignored). With dx given (the _bwd entry), also the gradient
// dx = dloss (softmax(z) - onehot(label)) dz/dx (0 on an ignored row).
__device__ float ce_logit(float x, float scale, float cap) {
  float z = scale != 0.f ? scale * x : x;
  return cap != 0.f ? cap * tanhf(z / cap) : z;
}

__device__ void ce_row(const float* x, const long long* label, float* loss, float* lse, const float* dloss, float* dx,
                       int r, int cols, float scale, float cap) {
  const float* xr = x + r * cols;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(ce_logit(xr[j], scale, cap));
  int t = (int)label[r];
  lse[r] = logf(s);
  loss[r] = t != -100 ? logf(s) - ce_logit(xr[t], scale, cap) : 0.f;
  if (!dx) return;
  for (int j = 0; j < cols; ++j) {
    float dz = scale != 0.f ? scale : 1.f;
    if (cap != 0.f) {
      float th = tanhf((scale != 0.f ? scale * xr[j] : xr[j]) / cap);
      dz = dz * (1.f - th * th);
    }
    float p = expf(ce_logit(xr[j], scale, cap)) / s;
    dx[r * cols + j] = t != -100 ? dloss[r] * (p - (j == t ? 1.f : 0.f)) * dz : 0.f;
  }
}

extern "C" __global__ void cross_entropy_fwd(const float* x, const long long* label, float* loss, float* lse, int rows,
                                             int cols, float scale, float cap) {
  if (threadIdx.x < rows) ce_row(x, label, loss, lse, nullptr, nullptr, threadIdx.x, cols, scale, cap);
}

extern "C" __global__ void cross_entropy_bwd(const float* x, const long long* label, float* loss, float* lse,
                                             const float* dloss, float* dx, int rows, int cols, float scale,
                                             float cap) {
  if (threadIdx.x < rows) ce_row(x, label, loss, lse, dloss, dx, threadIdx.x, cols, scale, cap);
}
