// Naive softmax and loss references: one thread per row, exponentials without max subtraction.
#include <math.h>

extern "C" __global__ void softmax_fwd(const float* x, float* y, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(x[r * cols + j]);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = expf(x[r * cols + j]) / s;
}

extern "C" __global__ void log_softmax_fwd(const float* x, float* y, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(x[r * cols + j]);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = x[r * cols + j] - logf(s);
}

// dx = y * (dy - <dy, y>)
extern "C" __global__ void softmax_bwd(const float* dy, const float* y, float* dx, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float dot = 0.f;
  for (int j = 0; j < cols; ++j) dot += dy[r * cols + j] * y[r * cols + j];
  for (int j = 0; j < cols; ++j) dx[r * cols + j] = y[r * cols + j] * (dy[r * cols + j] - dot);
}

// Cross-entropy with mean reduction over n_valid rows, label smoothing ls, z-loss scale zs and
// softcap sc (0: none). x is overwritten with d(loss)/dx; an ignored row gets a zero gradient
// and leaves loss untouched.
extern "C" __global__ void cross_entropy(float* x, const long long* target, float* loss, float* zloss, int rows,
                                         int cols, int ignore_index, float ls, float zs, float sc, float n_valid) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float* xr = x + r * cols;
  int t = (int)target[r];
  if (t == ignore_index) {
    for (int j = 0; j < cols; ++j) xr[j] = 0.f;
    return;
  }
  float s = 0.f, sum_z = 0.f;
  for (int j = 0; j < cols; ++j) {
    float z = sc > 0.f ? sc * tanhf(xr[j] / sc) : xr[j];
    s += expf(z);
    sum_z += z;
  }
  float lse = logf(s);
  float zt = sc > 0.f ? sc * tanhf(xr[t] / sc) : xr[t];
  float l = (1.f - ls) * (lse - zt) + ls * (lse - sum_z / cols);
  float z2 = zs * lse * lse;
  loss[r] = (l + z2) / n_valid;
  zloss[r] = z2 / n_valid;
  for (int j = 0; j < cols; ++j) {
    float th = sc > 0.f ? tanhf(xr[j] / sc) : 0.f;
    float z = sc > 0.f ? sc * th : xr[j];
    float p = expf(z) / s;
    float g = p * (1.f + 2.f * zs * lse) - ls / cols - (j == t ? 1.f - ls : 0.f);
    xr[j] = g / n_valid * (sc > 0.f ? 1.f - th * th : 1.f);
  }
}

// KL(target || exp(logq)) pointwise, summed per row: sum t * (log(max(t, eps)) - logq).
extern "C" __global__ void kl_div_rows(const float* logq, const float* t, float* loss, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) {
    float tv = t[r * cols + j];
    s += tv * (logf(fmaxf(tv, eps)) - logq[r * cols + j]);
  }
  loss[r] = s;
}

extern "C" __global__ void neg(const float* t, float* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] = -t[i];
}

// Generalized JSD with weight beta between log-probabilities X (student) and Y (teacher), mean over
// n_rows: sum_j beta * P log(P / M) + (1 - beta) * Q log(Q / M), M = beta P + (1 - beta) Q, with
// P = exp(Y), Q = exp(X); dX = (1 - beta) Q (log Q - log M) / n_rows.
extern "C" __global__ void jsd_rows(const float* X, const float* Y, float* loss, float* dX, int rows, int cols,
                                    float beta, float n_rows) {
  int r = threadIdx.x;
  if (r >= rows) return;
  for (int j = 0; j < cols; ++j) {
    float q = expf(X[r * cols + j]), p = expf(Y[r * cols + j]);
    float m = beta * p + (1.f - beta) * q;
    float lm = logf(m);
    loss[r * cols + j] = (beta * p * (Y[r * cols + j] - lm) + (1.f - beta) * q * (X[r * cols + j] - lm)) / n_rows;
    dX[r * cols + j] = (1.f - beta) * q * (X[r * cols + j] - lm) / n_rows;
  }
}

// liger's JSD at beta 0 (forward KL(P || Q)) and beta 1 (reverse KL(Q || P)), pointwise, over n_rows.
extern "C" __global__ void kl_jsd_rows(const float* X, const float* Y, float* loss, float* dX, int rows, int cols,
                                       int reverse, float n_rows) {
  int r = threadIdx.x;
  if (r >= rows) return;
  for (int j = 0; j < cols; ++j) {
    float x = X[r * cols + j], y = Y[r * cols + j], q = expf(x), p = expf(y);
    float l = reverse ? q * (x - y) : p * (y - x);
    loss[r * cols + j] = l / n_rows;
    dX[r * cols + j] = (reverse ? l + q : -p) / n_rows;
  }
}

// jsd_rows where a row whose label is ignore_index gets a zero gradient and no loss.
extern "C" __global__ void jsd_rows_labels(const float* X, const float* Y, const long long* label, float* loss,
                                           float* dX, int rows, int cols, float beta, float n_rows, int ignore_index) {
  int r = threadIdx.x;
  if (r >= rows) return;
  if (label[r] == ignore_index) {
    for (int j = 0; j < cols; ++j) dX[r * cols + j] = 0.f;
    return;
  }
  for (int j = 0; j < cols; ++j) {
    float q = expf(X[r * cols + j]), p = expf(Y[r * cols + j]);
    float lm = logf(beta * p + (1.f - beta) * q);
    loss[r * cols + j] = (beta * p * (Y[r * cols + j] - lm) + (1.f - beta) * q * (X[r * cols + j] - lm)) / n_rows;
    dX[r * cols + j] = (1.f - beta) * q * (X[r * cols + j] - lm) / n_rows;
  }
}

// Rotary embedding (NeoX halves) of q[tokens][heads][hd], in place: cos/sin[tokens][hd], first halves used.
extern "C" __global__ void rope_neox(float* q, const float* cs, const float* sn, int tokens, int heads, int hd) {
  int t = threadIdx.x;
  if (t >= tokens) return;
  int h2 = hd / 2;
  for (int h = 0; h < heads; ++h) {
    float* v = q + (t * heads + h) * hd;
    for (int j = 0; j < h2; ++j) {
      float a = v[j], b = v[j + h2], c = cs[t * hd + j], s = sn[t * hd + j];
      v[j] = a * c - b * s;
      v[j + h2] = b * c + a * s;
    }
  }
}

// KL(target || exp(logq)) with the target in log space, summed per row: sum exp(t) (t - logq).
extern "C" __global__ void kl_div_log_target_rows(const float* logq, const float* t, float* loss, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(t[r * cols + j]) * (t[r * cols + j] - logq[r * cols + j]);
  loss[r] = s;
}

// KL pointwise, no reduction: t * (log(max(t, eps)) - logq) per cell.
extern "C" __global__ void kl_div_pointwise(const float* logq, const float* t, float* loss, int n, float eps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) loss[i] = t[i] * (logf(fmaxf(t[i], eps)) - logq[i]);
}

extern "C" __global__ void neg_exp(const float* t, float* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] = -expf(t[i]);
}

// KL(softmax(t) || softmax(s)) per row over n_rows, and its gradient in place of the student
// logits s: (softmax(s) - softmax(t)) / n_rows (fla's fused linear KL-div, after the matmul).
extern "C" __global__ void kl_div_logits_rows(float* s, const float* t, float* loss, int rows, int cols, float n_rows) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float zs = 0.f, zt = 0.f;
  for (int j = 0; j < cols; ++j) zs += expf(s[r * cols + j]), zt += expf(t[r * cols + j]);
  float ls = logf(zs), lt = logf(zt), kl = 0.f;
  for (int j = 0; j < cols; ++j) {
    float sp = s[r * cols + j] - ls, tp = t[r * cols + j] - lt;
    kl += expf(tp) * (tp - sp);
    s[r * cols + j] = (expf(sp) - expf(tp)) / n_rows;
  }
  loss[r] = kl / n_rows;
}

// fla's fused linear cross-entropy after the matmul, one row per thread: loss = lse - x[t] with
// label smoothing ls (mixing in the mean logit), lse stored, z-loss 0; a row whose target is
// ignore_index gets loss 0.
extern "C" __global__ void ce_rows_fwd(const float* x, const long long* target, float* loss, float* zloss, float* lse,
                                       int rows, int cols, float ls, int ignore_index) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, sum = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(x[r * cols + j]), sum += x[r * cols + j];
  float l = logf(s);
  int t = (int)target[r];
  lse[r] = l;
  zloss[r] = 0.f;
  loss[r] = t == ignore_index ? 0.f : l - (1.f - ls) * x[r * cols + t] - ls * sum / cols;
}

// Its backward: dx = (exp(x - lse) - (1 - ls) [j == t] - ls / cols) * dloss, dloss 0 on ignored rows.
extern "C" __global__ void ce_rows_bwd(const float* x, const long long* target, const float* lse, const float* dloss,
                                       float* dx, int rows, int cols, float ls, int ignore_index) {
  int r = threadIdx.x;
  if (r >= rows) return;
  int t = (int)target[r];
  float d = t == ignore_index ? 0.f : dloss[r];
  for (int j = 0; j < cols; ++j)
    dx[r * cols + j] = (expf(x[r * cols + j] - lse[r]) - (j == t ? 1.f - ls : 0.f) - ls / cols) * d;
}
