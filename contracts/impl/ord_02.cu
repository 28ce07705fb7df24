// C-ORD-02 atomic determinism class: a sum declared BITWISE deterministic.
extern "C" __global__ void ord02_baseline(const float* x, float* y, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) y[0] = 0.0f;
}

// bad: each CTA's partial is added to y with atomicAdd: the order of the additions (and so
// the rounding) is whatever order the CTAs finish in.
extern "C" __global__ void ord02_bad(const float* x, float* y, int n) {
  __shared__ float part[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(y, part[0]);
}

// good: each CTA writes its partial; the last step adds the partials in a fixed order.
extern "C" __global__ void ord02_partials(const float* x, float* partials, int n) {
  __shared__ float part[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = part[0];
}
extern "C" __global__ void ord02_combine(const float* partials, float* y, int ctas) {
  float acc = 0.0f;
  for (int c = 0; c < ctas; ++c) acc += partials[c];
  y[0] = acc;
}

extern "C" __global__ void ord02_reference(const float* x, float* y, int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) acc += x[i];
  y[0] = acc;
}
