// A compiled expf whose last multiply is fused into an addition with other data (t_fuse_*):
// expf(c) + a with a's load scheduled among expf's steps, and sum += expf(x) in an unrolled
// loop (fma(2^k, 2^f, sum): the running sum is the fma's addend and its destination).

extern "C" __global__ void exp_plus_grid_stride(const float* a, const float* c, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = expf(c[i]) + a[i];
}

extern "C" __global__ void exp_plus_elementwise(const float* a, const float* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float e = expf(c[i]);
    out[i] = a[i] + e;
  }
}

// Mutation: a subtracted instead of added.
extern "C" __global__ void exp_minus_grid_stride(const float* a, const float* c, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = expf(c[i]) - a[i];
}

// One row per thread: the sum of exp over the row, in a loop the compiler unrolls.
extern "C" __global__ void row_sum_exp(const float* x, float* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
#pragma unroll 2
  for (int j = 0; j < cols; ++j) acc += expf(x[r * cols + j]);
  out[r] = acc;
}

// The same sum from the row's end, the exp kept apart from the addition.
extern "C" __global__ void row_sum_exp_backwards(const float* x, float* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
#pragma unroll 1
  for (int j = cols - 1; j >= 0; --j) {
    volatile float e = expf(x[r * cols + j]);
    acc = acc + e;
  }
  out[r] = acc;
}

// Mutation: the last element of the row left out.
extern "C" __global__ void row_sum_exp_short(const float* x, float* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
#pragma unroll 2
  for (int j = 0; j < cols - 1; ++j) acc += expf(x[r * cols + j]);
  out[r] = acc;
}
