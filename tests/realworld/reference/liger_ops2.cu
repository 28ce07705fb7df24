// Naive references for more liger-kernel ops (backward norms, rotary embeddings, masks, sparsemax,
// the fused linear KL-div's loss kernel): one thread per row, column or cell, textbook formulas, f32.
#include <math.h>

// DyT backward: t = tanh(alpha x); dx = alpha (1 - t^2) dy gamma. The library's partial sums are kept
// per slot s (rows r with r % slots == s): dg[s][j] = sum dy t, db[s][j] = sum dy, da[s] = sum x (1 - t^2) dy gamma.
extern "C" __global__ void dyt_bwd(const float* x, const float* dy, const float* alpha, const float* gamma, float* dx,
                                   float* da, float* dg, float* db, int rows, int cols, int slots) {
  int t = threadIdx.x;
  float a = alpha[0];
  if (t < rows * cols) {
    int j = t % cols;
    float th = tanhf(a * x[t]);
    dx[t] = a * (1.f - th * th) * dy[t] * gamma[j];
  }
  if (t < slots * cols) {
    int s = t / cols, j = t % cols;
    float g = 0.f, b = 0.f;
    for (int r = s; r < rows; r += slots) {
      float th = tanhf(a * x[r * cols + j]);
      g += dy[r * cols + j] * th;
      b += dy[r * cols + j];
    }
    dg[t] = g;
    db[t] = b;
  }
  if (t < slots) {
    float s = 0.f;
    for (int r = t; r < rows; r += slots)
      for (int j = 0; j < cols; ++j) {
        float th = tanhf(a * x[r * cols + j]);
        s += x[r * cols + j] * (1.f - th * th) * dy[r * cols + j] * gamma[j];
      }
    da[t] = s;
  }
}

// Backward of s = x + r; y = rmsnorm(s) * (w + offset), with the upstream gradient ds of s added:
// dx = rstd (g - s rstd^2 <g, s> / n) + ds, g = dy (w + offset); dw[j] = sum over rows of dy s rstd.
extern "C" __global__ void add_rmsnorm_bwd(const float* dy, const float* ds, const float* s, const float* w,
                                           const float* rstd, float* dx, float* dw, int rows, int cols, float offset) {
  int t = threadIdx.x;
  if (t < rows) {
    float dot = 0.f;
    for (int j = 0; j < cols; ++j) dot += dy[t * cols + j] * (w[j] + offset) * s[t * cols + j];
    float r = rstd[t];
    for (int j = 0; j < cols; ++j)
      dx[t * cols + j] = r * (dy[t * cols + j] * (w[j] + offset) - s[t * cols + j] * r * r * dot / cols) +
                         ds[t * cols + j];
  }
  if (t < cols) {
    float a = 0.f;
    for (int i = 0; i < rows; ++i) a += dy[i * cols + t] * s[i * cols + t] * rstd[i];
    dw[t] = a;
  }
}

// GroupNorm backward over x[batch][channels][spatial] with the saved mean and rstd of each (batch, group):
// xhat = (x - mean) rstd, g = w[c] dy; dx = rstd (g - mean(g) - xhat mean(g xhat)) over the group;
// dw[c] = sum over batch and spatial of dy xhat, db[c] = sum dy.
extern "C" __global__ void groupnorm_bwd(const float* x, const float* w, const float* mean, const float* rstd,
                                         const float* dy, float* dx, float* dw, float* db, int batch, int groups,
                                         int cpg, int spatial) {
  int t = threadIdx.x;
  int channels = groups * cpg;
  if (t < batch * groups) {
    int b = t / groups, g = t % groups;
    int n = cpg * spatial;
    float m = mean[t], r = rstd[t];
    float sg = 0.f, sgx = 0.f;
    for (int c = g * cpg; c < (g + 1) * cpg; ++c)
      for (int j = 0; j < spatial; ++j) {
        int i = (b * channels + c) * spatial + j;
        float xhat = (x[i] - m) * r;
        sg += w[c] * dy[i];
        sgx += w[c] * dy[i] * xhat;
      }
    sg /= n;
    sgx /= n;
    for (int c = g * cpg; c < (g + 1) * cpg; ++c)
      for (int j = 0; j < spatial; ++j) {
        int i = (b * channels + c) * spatial + j;
        float xhat = (x[i] - m) * r;
        dx[i] = r * (w[c] * dy[i] - sg - xhat * sgx);
      }
  }
  if (t < channels) {
    int g = t / cpg;
    float sw = 0.f, sb = 0.f;
    for (int b = 0; b < batch; ++b)
      for (int j = 0; j < spatial; ++j) {
        int i = (b * channels + t) * spatial + j;
        sw += dy[i] * (x[i] - mean[b * groups + g]) * rstd[b * groups + g];
        sb += dy[i];
      }
    dw[t] = sw;
    db[t] = sb;
  }
}

// Multimodal rotary embedding (Qwen2-VL), NeoX halves, in place over q[tokens][heads][hd]:
// cos and sin are [3][tokens][hd]; dimension j < hd/2 takes section 0 (temporal) for j < st,
// 1 (height) for j < st + sh, 2 (width) otherwise. inverse = 1 rotates by -theta (the backward pass).
extern "C" __global__ void mrope_neox(float* q, const float* cs, const float* sn, int tokens, int heads, int hd,
                                      int st, int sh, int inverse) {
  int t = threadIdx.x;
  if (t >= tokens * heads) return;
  int tok = t / heads;
  int half = hd / 2;
  float* v = q + t * hd;
  for (int j = 0; j < half; ++j) {
    int sec = j < st ? 0 : (j < st + sh ? 1 : 2);
    float c = cs[(sec * tokens + tok) * hd + j], s = sn[(sec * tokens + tok) * hd + j];
    if (inverse) s = -s;
    float a = v[j], b = v[j + half];
    v[j] = a * c - b * s;
    v[j + half] = b * c + a * s;
  }
}

// Llama-4 rotary embedding: pairs (v[2j], v[2j+1]) are complex numbers multiplied by
// freqs[tok][j] = (re, sign * im), in place over q[tokens][heads][hd].
extern "C" __global__ void rope_complex(float* q, const float* freqs, int tokens, int heads, int hd, float sign) {
  int t = threadIdx.x;
  if (t >= tokens * heads) return;
  int tok = t / heads;
  float* v = q + t * hd;
  for (int j = 0; j < hd / 2; ++j) {
    float c = freqs[(tok * (hd / 2) + j) * 2], s = sign * freqs[(tok * (hd / 2) + j) * 2 + 1];
    float a = v[2 * j], b = v[2 * j + 1];
    v[2 * j] = a * c - b * s;
    v[2 * j + 1] = a * s + b * c;
  }
}

// Causal mask of a batch of L x L score matrices: out = x where col <= row, fill elsewhere.
extern "C" __global__ void causal_mask(const float* x, float* out, int batch, int L, float fill) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch * L * L) return;
  int r = (i / L) % L, c = i % L;
  out[i] = c > r ? fill : x[i];
}

// Sparsemax from a row z and its given descending order zs: the support is {j : zs[j] > (sum_{i<=j} zs[i] - 1) / (j+1)},
// k its size (at least 1), tau = (sum of zs over the support - 1) / k, y = max(z - tau, 0).
extern "C" __global__ void sparsemax_fwd(const float* z, const float* zs, float* y, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float cs = 0.f, ssum = 0.f;
  int k = 0;
  for (int j = 0; j < cols; ++j) {
    cs += zs[r * cols + j];
    if (zs[r * cols + j] > (cs - 1.f) / (j + 1)) {
      ++k;
      ssum += zs[r * cols + j];
    }
  }
  float tau = (ssum - 1.f) / (k < 1 ? 1 : k);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = fmaxf(z[r * cols + j] - tau, 0.f);
}

// KL(Q || softmax(x / T)) per row, scaled: loss = scale * sum q (log max(q, eps) - log p), p = softmax(x / T);
// x is overwritten with d loss / dx = -scale (q - p sum q) / T; an ignored row's x is zeroed, its loss untouched.
extern "C" __global__ void fused_kl_rows(float* x, const float* q, const long long* label, float* loss, int rows,
                                         int cols, float temp, float eps, float scale, int ignore_index) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float* xr = x + r * cols;
  const float* qr = q + r * cols;
  if (label[r] == ignore_index) {
    for (int j = 0; j < cols; ++j) xr[j] = 0.f;
    return;
  }
  float s = 0.f, sq = 0.f;
  for (int j = 0; j < cols; ++j) {
    s += expf(xr[j] / temp);
    sq += qr[j];
  }
  float lse = logf(s);
  float l = 0.f;
  for (int j = 0; j < cols; ++j) l += qr[j] * (logf(fmaxf(qr[j], eps)) - (xr[j] / temp - lse));
  loss[r] = l * scale;
  for (int j = 0; j < cols; ++j) {
    float p = expf(xr[j] / temp) / s;
    xr[j] = -scale * (qr[j] - p * sq) / temp;
  }
}

// Modulated RMSNorm: y = x rstd (offset + w) (1 + scale[m]) + shift[m], m = row / rows_per_mod;
// rstd = 1 / sqrt(mean(x^2) + eps).
extern "C" __global__ void modulated_rmsnorm_fwd(const float* x, const float* w, const float* scale, const float* shift,
                                                 float* y, float* rstd, int rows, int cols, int rows_per_mod,
                                                 float eps, float offset) {
  int r = threadIdx.x;
  if (r >= rows) return;
  int m = r / rows_per_mod;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += x[r * cols + j] * x[r * cols + j];
  float inv = 1.f / sqrtf(ss / cols + eps);
  rstd[r] = inv;
  for (int j = 0; j < cols; ++j)
    y[r * cols + j] = x[r * cols + j] * inv * (offset + w[j]) * (1.f + scale[m * cols + j]) + shift[m * cols + j];
}

// x *= g[0], in place.
extern "C" __global__ void scale_inplace(float* x, const float* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * g[0];
}
