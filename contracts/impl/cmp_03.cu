// C-CMP-03 shape polymorphism: y = 2 x + 1 for every length n, not only the benchmarked ones.
extern "C" __global__ void cmp03_baseline(const float* x, float* y, int n) {}

// bad: assumes n is a multiple of 32 (the benchmarked lengths); the tail is never written.
extern "C" __global__ void cmp03_bad(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int full = n / 32 * 32;
  if (i < full) y[i] = fmaf(2.0f, x[i], 1.0f);
}

extern "C" __global__ void cmp03_good(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(2.0f, x[i], 1.0f);
}

extern "C" __global__ void cmp03_reference(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i] + 1.0f;
}
