// Running sums held in registers across many steps (exec/deferred_sums.hpp): each case reads
// the sum in one way the engine must settle it for (a store, a branch on another sum, a warp
// shuffle, a saturating fma, a math routine beside it), against the same function built
// another way.
#include <math.h>

// out[r] = sum_j x[r, j] w[j], one fma per step.
extern "C" __global__ void dot_rows(const float* x, const float* w, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc = fmaf(x[r * k + j], w[j], acc);
  out[r] = acc;
}

// The same sums taken backwards over j, in two interleaved halves.
extern "C" __global__ void dot_rows_two_halves(const float* x, const float* w, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float even = 0.0f, odd = 0.0f;
  for (int j = k - 1; j >= 0; --j) {
    if (j % 2 == 0) even = fmaf(w[j], x[r * k + j], even);
    else odd = fmaf(w[j], x[r * k + j], odd);
  }
  out[r] = even + odd;
}

// A step left out: the last term is never added.
extern "C" __global__ void dot_rows_short(const float* x, const float* w, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int j = 0; j < k - 1; ++j) acc = fmaf(x[r * k + j], w[j], acc);
  out[r] = acc;
}

// Two sums at once; then a branch on the first while the second is held, with more steps of
// the second on one path only, and more steps after the paths meet.
extern "C" __global__ void two_sums_branch(const float* x, const float* w, const float* v, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f, t = 0.0f;
  for (int j = 0; j < k; ++j) {
    s = fmaf(x[r * k + j], w[j], s);
    t = fmaf(x[r * k + j], v[j], t);
  }
  if (s > 0.0f) {
    for (int j = 0; j < k; ++j) t = fmaf(x[r * k + j], w[j], t);
    out[r] = s;
  } else {
    out[r] = -s;
  }
  for (int j = 0; j < k; ++j) t = fmaf(v[j], w[j], t);
  out[rows + r] = t;
}

extern "C" __global__ void two_sums_branch_ref(const float* x, const float* w, const float* v, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int j = 0; j < k; ++j) s += x[r * k + j] * w[j];
  float t = 0.0f;
  for (int j = 0; j < k; ++j) t += x[r * k + j] * v[j];
  float vw = 0.0f;
  for (int j = 0; j < k; ++j) vw += v[j] * w[j];
  out[r] = fabsf(s);
  out[rows + r] = (s > 0.0f ? t + s : t) + vw;
}

// A row's dot product split over the 32 lanes of a warp, the partial sums met by shuffles.
extern "C" __global__ void dot_rows_warp(const float* x, const float* w, float* out, int rows, int k) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float acc = 0.0f;
  for (int j = lane; j < k; j += 32) acc = fmaf(x[r * k + j], w[j], acc);
  for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) out[r] = acc;
}

// The dot product clamped to [0, 1] by a saturating last step.
extern "C" __global__ void dot_rows_sat(const float* x, const float* w, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int j = 0; j < k - 1; ++j) acc = fmaf(x[r * k + j], w[j], acc);
  out[r] = __saturatef(fmaf(x[r * k + k - 1], w[k - 1], acc));
}

extern "C" __global__ void dot_rows_sat_ref(const float* x, const float* w, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc += x[r * k + j] * w[j];
  out[r] = fminf(fmaxf(acc, 0.0f), 1.0f);
}

// A math routine (expf) computed while a sum is held, then the two multiplied.
extern "C" __global__ void dot_rows_scaled_exp(const float* x, const float* w, const float* g, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc = fmaf(x[r * k + j], w[j], acc);
  out[r] = acc * expf(g[r]);
}

extern "C" __global__ void dot_rows_scaled_exp_ref(const float* x, const float* w, const float* g, float* out, int rows, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float e = expf(g[r]);
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc = fmaf(e * x[r * k + j], w[j], acc);
  out[r] = acc;
}
