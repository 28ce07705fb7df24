// C-PRC-02 cancellation avoidance: row softmax. One thread per row.
extern "C" __global__ void prc02_baseline(const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  for (int j = 0; j < cols; ++j) y[r * cols + j] = 1.0f / cols;
}

// bad: exponentiates the raw inputs. Fine for |x| below ~88; past it exp overflows to inf and
// inf / inf gives NaN.
extern "C" __global__ void prc02_bad(const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float s = 0.0f;
  for (int j = 0; j < cols; ++j) s += __expf(xr[j]);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = __expf(xr[j]) / s;
}

// good: subtracts the row maximum first, so every exponent is <= 0.
extern "C" __global__ void prc02_good(const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float m = xr[0];
  for (int j = 1; j < cols; ++j) m = fmaxf(m, xr[j]);
  float s = 0.0f;
  for (int j = 0; j < cols; ++j) s += __expf(xr[j] - m);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = __expf(xr[j] - m) / s;
}

// reference: the stable algorithm in f64 (exp of the f64 library), written to y_ref.
extern "C" __global__ void prc02_reference(const float* x, double* y_ref, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  double m = xr[0];
  for (int j = 1; j < cols; ++j) m = fmax(m, (double)xr[j]);
  double s = 0.0;
  for (int j = 0; j < cols; ++j) s += exp((double)xr[j] - m);
  for (int j = 0; j < cols; ++j) y_ref[r * cols + j] = exp((double)xr[j] - m) / s;
}
