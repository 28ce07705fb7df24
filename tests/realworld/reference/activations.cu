// Naive activation references, one thread per element of a rows x cols array, f32.
#include <math.h>

__device__ float gelu_tanh(float a) {
  const float k = 0.7978845608028654f;  // sqrt(2/pi)
  return 0.5f * a * (1.f + tanhf(k * (a + 0.044715f * a * a * a)));
}
__device__ float sigmoid(float x) { return 1.f / (1.f + expf(-x)); }

extern "C" __global__ void geglu_fwd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = gelu_tanh(a[i]) * b[i];
}

// Backward in place: a <- dc * b * gelu'(a), b <- dc * gelu(a).
extern "C" __global__ void geglu_bwd(const float* dc, float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float k = 0.7978845608028654f;
  float x = a[i], t = tanhf(k * (x + 0.044715f * x * x * x));
  float dgelu = 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * k * (1.f + 3.f * 0.044715f * x * x);
  float bb = b[i];
  b[i] = dc[i] * gelu_tanh(x);
  a[i] = dc[i] * bb * dgelu;
}

extern "C" __global__ void swiglu_fwd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * sigmoid(a[i]) * b[i];
}

// Backward in place: a <- dc * b * d/da(a sigmoid(a)), b <- dc * a sigmoid(a).
extern "C" __global__ void swiglu_bwd(const float* dc, float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], s = sigmoid(x), bb = b[i];
  b[i] = dc[i] * x * s;
  a[i] = dc[i] * bb * (s + x * s * (1.f - s));
}

extern "C" __global__ void relu_sq_fwd(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.f ? x[i] * x[i] : 0.f;
}

extern "C" __global__ void relu_sq_bwd(const float* dy, const float* x, float* dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dx[i] = x[i] > 0.f ? 2.f * x[i] * dy[i] : 0.f;
}

// Dynamic tanh: y = tanh(alpha x) * gamma[col] + beta[col].
extern "C" __global__ void dyt_fwd(const float* x, const float* alpha, const float* gamma, const float* beta, float* y,
                                   int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) y[i] = tanhf(alpha[0] * x[i]) * gamma[i % cols] + beta[i % cols];
}

// Elementwise references for flag-gems' pointwise ops.
extern "C" __global__ void gelu_erf(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.5f * x[i] * (1.f + erff(x[i] / sqrtf(2.f)));
}
extern "C" __global__ void gelu_tanh_fwd(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gelu_tanh(x[i]);
}
// d/dx [x Phi(x)] = Phi(x) + x phi(x)
extern "C" __global__ void gelu_erf_bwd(const float* x, const float* dy, float* dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float cdf = 0.5f * (1.f + erff(v / sqrtf(2.f)));
  float pdf = expf(-0.5f * v * v) / sqrtf(2.f * 3.14159265358979f);
  dx[i] = dy[i] * (cdf + v * pdf);
}
extern "C" __global__ void silu(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] / (1.f + expf(-x[i]));
}
extern "C" __global__ void silu_bwd(const float* x, const float* dy, float* dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = sigmoid(x[i]);
  dx[i] = dy[i] * s * (1.f + x[i] * (1.f - s));
}
extern "C" __global__ void relu(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
extern "C" __global__ void sigmoid_fwd(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sigmoid(x[i]);
}
extern "C" __global__ void tanh_fwd(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = tanhf(x[i]);
}
// ELU with alpha = 1 (flag-gems' default scale and input_scale of 1)
extern "C" __global__ void elu(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.f ? x[i] : expf(x[i]) - 1.f;
}
// softplus with beta = 1 and threshold 20
extern "C" __global__ void softplus(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 20.f ? x[i] : logf(1.f + expf(x[i]));
}
extern "C" __global__ void hardsigmoid(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fminf(fmaxf(x[i] / 6.f + 0.5f, 0.f), 1.f);
}
// Backward of tanh and sigmoid from the forward output y.
extern "C" __global__ void tanh_bwd(const float* y, const float* dy, float* dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dx[i] = dy[i] * (1.f - y[i] * y[i]);
}
extern "C" __global__ void sigmoid_bwd(const float* dy, const float* y, float* dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dx[i] = dy[i] * y[i] * (1.f - y[i]);
}

// Sparsemax backward per row: gi = go - (mean of go over the support) on the support (o > 0), 0 off it.
extern "C" __global__ void sparsemax_bwd(const float* o, const float* go, float* gi, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j)
    if (o[r * cols + j] > 0.f) s += go[r * cols + j], k += 1.f;
  for (int j = 0; j < cols; ++j) gi[r * cols + j] = o[r * cols + j] > 0.f ? go[r * cols + j] - s / fmaxf(k, 1e-6f) : 0.f;
}

// Gated activations of flag-gems' fused ops: c = gelu(a) * b with the exact (erf) gelu.
extern "C" __global__ void gelu_erf_mul(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = 0.5f * a[i] * (1.f + erff(a[i] / sqrtf(2.f))) * b[i];
}
