// Compiled routines the compiler fitted to what it knows of their input (t_spec_*): an addition
// of the input's own values fused into expf's last multiply, logf whose select of -inf at 0
// comes after the division that follows it, and erff of an absolute value.

extern "C" __global__ void exp_plus_twice_grid_stride(const float* x, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = expf(x[i]) + (x[i] + x[i]);
}

extern "C" __global__ void exp_plus_twice_elementwise(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float e = expf(v);
    out[i] = 2.f * v + e;
  }
}

// Mutation: the input's part subtracted.
extern "C" __global__ void exp_minus_twice_elementwise(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = expf(x[i]) - 2.f * x[i];
}

extern "C" __global__ void log_scaled(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = logf(fabsf(x[i]) + 1.5f) / 1.25f;
}

extern "C" __global__ void log_scaled_grid_stride(const float* x, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float l = logf(fabsf(x[i]) + 1.5f);
    out[i] = l / 1.25f;
  }
}

// Mutation: divided by 1.5.
extern "C" __global__ void log_scaled_wrong(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = logf(fabsf(x[i]) + 1.5f) / 1.5f;
}

extern "C" __global__ void erf_of_abs(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = erff(fabsf(x[i]));
}

extern "C" __global__ void abs_of_erf(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fabsf(erff(x[i]));
}

// Mutation: shifted by a quarter.
extern "C" __global__ void erf_of_abs_shifted(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = erff(fabsf(x[i]) + 0.25f);
}
