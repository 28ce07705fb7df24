// A pointer chosen by a comparison on input data (nvcc: selp.b64 of two tensors' addresses,
// cvta.to.global, one load), against the two values blended by a 0/1 weight.

__device__ __forceinline__ float sigmoid(float v) { return 1.f / (1.f + __expf(-v)); }

extern "C" __global__ void where_sigmoid_pointer(const float* x, const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* src = x[i] >= 0.5f ? a : b;
  out[i] = sigmoid(src[i]);
}

// Bug: the comparison is strict; differs where x equals the threshold.
extern "C" __global__ void where_sigmoid_pointer_strict(const float* x, const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* src = x[i] > 0.5f ? a : b;
  out[i] = sigmoid(src[i]);
}

extern "C" __global__ void where_sigmoid_blend(const float* x, const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float m = x[i] >= 0.5f ? 1.f : 0.f;
  out[i] = sigmoid(m * a[i] + (1.f - m) * b[i]);
}
