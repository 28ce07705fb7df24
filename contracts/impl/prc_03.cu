// C-PRC-03 denormal declaration: y = x * s, elementwise, declared IEEE (subnormals kept).
extern "C" __global__ void prc03_baseline(const float* x, float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}

// bad: multiplies with flush-to-zero (what -ftz=true or --use_fast_math compiles to) while
// declaring IEEE. Normal inputs give the same bits; subnormal inputs and results become 0.
__device__ void mul_ftz(const float* x, float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r;
  asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x[i]), "f"(s));
  y[i] = r;
}
extern "C" __global__ void prc03_bad(const float* x, float* y, float s, int n) { mul_ftz(x, y, s, n); }

// good: IEEE multiplication (no ftz): subnormals in and out are kept.
extern "C" __global__ void prc03_good(const float* x, float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __fmul_rn(x[i], s);
}

// good_ftz: the same flush, declared (FTZ): conforming, because the policy is stated.
extern "C" __global__ void prc03_good_ftz(const float* x, float* y, float s, int n) {
  mul_ftz(x, y, s, n);
}

// reference: the operator; the exact oracle rounds x * s once (the IEEE result).
extern "C" __global__ void prc03_reference(const float* x, float* y, float s, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] * s;
}
