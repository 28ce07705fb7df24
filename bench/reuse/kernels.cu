// Kernels for the shape-reduction benchmark (bench/reuse/run.sh, issue 20): softmax over
// rows, softmax over the wrong axis, and a row reduction computed two ways. Compiled with
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo kernels.cu -o kernels.sm90.ptx
// One thread per row (or column), so every output cell of a row reads the whole row.

// Softmax over the last axis, no max subtraction.
extern "C" __global__ void softmax_rows(const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(x[r * cols + j]);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = expf(x[r * cols + j]) / s;
}

// Softmax over the last axis with the row maximum subtracted first (the stable form).
extern "C" __global__ void softmax_rows_stable(const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float m = x[r * cols];
  for (int j = 1; j < cols; ++j) m = fmaxf(m, x[r * cols + j]);
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(x[r * cols + j] - m);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = expf(x[r * cols + j] - m) / s;
}

// The wrong-axis bug: normalized over the first axis.
extern "C" __global__ void softmax_cols(const float* x, float* y, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float s = 0.f;
  for (int i = 0; i < rows; ++i) s += expf(x[i * cols + c]);
  for (int i = 0; i < rows; ++i) y[i * cols + c] = expf(x[i * cols + c]) / s;
}

// Sum of squared deviations from the row mean, two passes.
extern "C" __global__ void sumsq_dev_two_pass(const float* x, float* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += x[r * cols + j];
  float mean = s / cols;
  float d = 0.f;
  for (int j = 0; j < cols; ++j) {
    float e = x[r * cols + j] - mean;
    d += e * e;
  }
  out[r] = d;
}

// The same in one pass: sum of squares minus the square of the sum over n.
extern "C" __global__ void sumsq_dev_one_pass(const float* x, float* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, q = 0.f;
  for (int j = 0; j < cols; ++j) {
    float v = x[r * cols + j];
    s += v;
    q += v * v;
  }
  out[r] = q - s * s / cols;
}
