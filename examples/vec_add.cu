// Two ways to add vectors: one thread per element, and a grid-stride loop.
extern "C" __global__ void vec_add(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}

extern "C" __global__ void vec_add_grid_stride(const float* x, const float* y, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = y[i] + x[i];
}
