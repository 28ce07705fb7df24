// Naive references for more fla-core kernels (utilities, L2 norm, token shift, mean pooling): one
// thread per row, column or cell, textbook formulas, f32.
#include <math.h>

// log-cumsum-exp along time of s[T][S], per column: z[t][c] = log(sum_{i <= t} exp(s[i][c])).
extern "C" __global__ void logcumsumexp_cols(const float* s, float* z, int T, int S) {
  int c = threadIdx.x;
  if (c >= S) return;
  float acc = 0.f;
  for (int t = 0; t < T; ++t) {
    acc += expf(s[t * S + c]);
    z[t * S + c] = logf(acc);
  }
}

// Mean over chunks of BT time steps of x[T][H][D] (a short last chunk divides by its length): o[NT][H][D].
extern "C" __global__ void chunk_mean(const float* x, float* o, int T, int H, int D, int BT) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int NT = (T + BT - 1) / BT;
  if (i >= NT * H * D) return;
  int c = i / (H * D), hd = i % (H * D);
  int end = (c + 1) * BT < T ? (c + 1) * BT : T;
  float s = 0.f;
  for (int t = c * BT; t < end; ++t) s += x[t * H * D + hd];
  o[i] = s / (end - c * BT);
}

// Its gradient: dx[t][h][d] = do[chunk of t][h][d] / length of that chunk.
extern "C" __global__ void chunk_mean_bwd(const float* dout, float* dx, int T, int H, int D, int BT) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= T * H * D) return;
  int t = i / (H * D), hd = i % (H * D);
  int c = t / BT;
  int end = (c + 1) * BT < T ? (c + 1) * BT : T;
  dx[i] = dout[c * H * D + hd] / (end - c * BT);
}

// L2 normalization of rows: rstd = 1 / sqrt(sum x^2 + eps), y = x rstd.
extern "C" __global__ void l2norm_rows(const float* x, float* y, float* rstd, int rows, int cols, float eps) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float ss = 0.f;
  for (int j = 0; j < cols; ++j) ss += x[r * cols + j] * x[r * cols + j];
  float inv = 1.f / sqrtf(ss + eps);
  rstd[r] = inv;
  for (int j = 0; j < cols; ++j) y[r * cols + j] = x[r * cols + j] * inv;
}

// Its backward from y and rstd: dx = rstd (dy - y <dy, y>).
extern "C" __global__ void l2norm_rows_bwd(const float* y, const float* rstd, const float* dy, float* dx, int rows,
                                           int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float dot = 0.f;
  for (int j = 0; j < cols; ++j) dot += dy[r * cols + j] * y[r * cols + j];
  for (int j = 0; j < cols; ++j) dx[r * cols + j] = rstd[r] * (dy[r * cols + j] - dot * y[r * cols + j]);
}

// Token shift of x[B][T][D] with a cache of the previous token per sequence: y[b][t] = x[b][t-1] - x[b][t],
// x[b][-1] = cache[b]; cache_out[b] = x[b][T-1].
extern "C" __global__ void token_shift(const float* x, const float* cache, float* y, float* cache_out, int B, int T,
                                       int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * T * D) return;
  int b = i / (T * D), t = (i / D) % T, d = i % D;
  float prev = t == 0 ? cache[b * D + d] : x[i - D];
  y[i] = prev - x[i];
  if (t == T - 1) cache_out[b * D + d] = x[i];
}
