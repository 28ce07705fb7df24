// C-CMP-02 autotuning schedule invariance: y = W x with a tunable split of each row's dot
// product across TILE threads (a CTA per row), combined by a shared-memory tree.
extern "C" __global__ void cmp02_baseline(const float* w, const float* x, float* y, int k) {
  if (threadIdx.x == 0) y[blockIdx.x] = w[blockIdx.x * k] * x[0];
}

__device__ float tree(float v) {
  __shared__ float part[1024];
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  return part[0];
}

// bad: wide tiles take a "tensor-core" path that rounds the operands to tf32 (10-bit fraction).
extern "C" __global__ void cmp02_bad(const float* w, const float* x, float* y, int k) {
  float acc = 0.0f;
  for (int j = threadIdx.x; j < k; j += blockDim.x) {
    float a = w[blockIdx.x * k + j], b = x[j];
    if (blockDim.x >= 128) {
      unsigned ta, tb;
      asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(ta) : "f"(a));
      asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(tb) : "f"(b));
      a = __uint_as_float(ta);
      b = __uint_as_float(tb);
    }
    acc = fmaf(a, b, acc);
  }
  float s = tree(acc);
  if (threadIdx.x == 0) y[blockIdx.x] = s;
}

extern "C" __global__ void cmp02_good(const float* w, const float* x, float* y, int k) {
  float acc = 0.0f;
  for (int j = threadIdx.x; j < k; j += blockDim.x) acc = fmaf(w[blockIdx.x * k + j], x[j], acc);
  float s = tree(acc);
  if (threadIdx.x == 0) y[blockIdx.x] = s;
}

extern "C" __global__ void cmp02_reference(const float* w, const float* x, float* y, int m, int k) {
  for (int r = 0; r < m; ++r) {
    float acc = 0.0f;
    for (int j = 0; j < k; ++j) acc += w[r * k + j] * x[j];
    y[r] = acc;
  }
}
