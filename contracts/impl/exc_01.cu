// C-EXC-01 NaN/Inf propagation: y = relu(x) elementwise, declared IEEE_PROPAGATE.
extern "C" __global__ void exc01_baseline(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}

// bad: fmaxf (max.f32) returns the non-NaN operand: relu(NaN) silently becomes 0.
extern "C" __global__ void exc01_bad(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

// good: max.NaN.f32 propagates a NaN operand.
extern "C" __global__ void exc01_good(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r;
  asm("max.NaN.f32 %0, %1, 0f00000000;" : "=f"(r) : "f"(x[i]));
  y[i] = r;
}

// reference: relu as a comparison (its real function: max(x, 0)).
extern "C" __global__ void exc01_reference(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
