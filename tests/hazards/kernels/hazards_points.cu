// CUDA kernels of the float hazard instances h07 to h09 (tests/hazards): an intermediate that
// overflows and is clamped later, a quotient whose denominator cancels near its pole, and a
// logarithm whose argument cancels near its zero.

// v^3 clamped to 1000 after the cube: v * v * v overflows f32 to +inf from v = 7e12 on, and
// fminf(+inf, 1000) hides it from the output.
extern "C" __global__ void cube_clamped_after(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = fminf(v * v * v, 1000.f);
}

// The same with v clamped to 10 before the cube: no intermediate leaves f32.
extern "C" __global__ void cube_clamped_before(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float w = fminf(x[i], 10.f);
  y[i] = w * w * w;
}

// w / (u^2 - v^2): as a difference of squares the denominator cancels where u is near v (its
// pole), as (u - v)(u + v) it stays accurate up to the pole.
extern "C" __global__ void quotient_difference_of_squares(const float* w, const float* u, const float* v, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = w[i] / (u[i] * u[i] - v[i] * v[i]);
}
extern "C" __global__ void quotient_factored(const float* w, const float* u, const float* v, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = w[i] / ((u[i] - v[i]) * (u[i] + v[i]));
}

// log(u^2 - v^2): as a difference of squares the argument cancels where u is near v (the
// logarithm's zero), and may round to 0 or below (-inf, NaN); as (u - v)(u + v) it stays
// accurate up to it.
extern "C" __global__ void log_difference_of_squares(const float* u, const float* v, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = logf(u[i] * u[i] - v[i] * v[i]);
}
extern "C" __global__ void log_factored(const float* u, const float* v, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = logf((u[i] - v[i]) * (u[i] + v[i]));
}
