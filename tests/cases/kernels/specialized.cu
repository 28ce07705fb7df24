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

// 2^(x/2) against exp of x times the f32 rounding of ln(2)/2 (t_spec_07): exp2 is exp(t ln 2),
// so the sides differ by that constant's rounding, the same at every x.
extern "C" __global__ void exp2_half(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = exp2f(0.5f * x[i]);
}

extern "C" __global__ void exp_half_ln2(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = expf(x[i] * 0.34657359f);
}

// logf of a prefix sum made of selects on the thread index (t_spec_08/09): in thread 0 the sum is
// x[0] itself, the value of an earlier register, which thread 1's sum is not. A routine plan made
// in thread 0 from that earlier register must not serve thread 1.
extern "C" __global__ void log_masked_prefix(const float* x, float* out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  float z = x[0] + (t >= 1 ? x[1] : 0.f) + (t >= 2 ? x[2] : 0.f) + (t >= 3 ? x[3] : 0.f);
  out[t] = logf(z);
}

extern "C" __global__ void log_prefix_loop(const float* x, float* out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  float s = 0.f;
  for (int j = 0; j <= t; ++j) s += x[j];
  out[t] = logf(s);
}

// Mutation: the first element's log in every thread.
extern "C" __global__ void log_first(const float* x, float* out, int n) {
  int t = threadIdx.x;
  if (t < n) out[t] = logf(x[0]);
}

// expf scaled by a factor chosen by the thread's parity (t_spec_10/11): the compiler selects the
// factor right after expf's last steps, where a plan that reached on would read it; the plan made
// in thread 0 serves every thread only as far as it is the same there.
extern "C" __global__ void exp_parity_scaled(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = expf(x[i]) * ((i & 1) ? 3.0f : 0.5f);
}

extern "C" __global__ void exp_parity_branches(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float e = expf(x[i]);
  out[i] = (i & 1) ? 3.0f * e : 0.5f * e;
}

// Mutation: the factors swapped.
extern "C" __global__ void exp_parity_swapped(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float e = expf(x[i]);
  out[i] = (i & 1) ? 0.5f * e : 3.0f * e;
}
