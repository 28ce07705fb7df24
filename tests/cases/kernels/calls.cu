// Device functions nvcc does not inline (t_call_*): arguments and results pass through the
// .param space (st.param, call.uni, ld.param), and one callee calls another.

__device__ __noinline__ float scale_add(float a, float b) { return a * 2.0f + b; }
__device__ __noinline__ float scale_add_self(float a) { return scale_add(a, a) - 1.0f; }
__device__ __noinline__ float relu_plus_one(float a) {
  if (a < 0.0f) return 0.0f;
  return a + 1.0f;
}

// out = (2x + y) + (3y - 1) + relu_plus_one(x), through three calls (one nested).
extern "C" __global__ void calls_combine(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale_add(x[i], y[i]) + scale_add_self(y[i]) + relu_plus_one(x[i]);
}

// The same, written out.
extern "C" __global__ void calls_combine_inline(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * x[i] + 4.0f * y[i] - 1.0f + (x[i] < 0.0f ? 0.0f : x[i] + 1.0f);
}

// Written out with relu's +1 forgotten.
extern "C" __global__ void calls_combine_inline_bug(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * x[i] + 4.0f * y[i] - 1.0f + (x[i] < 0.0f ? 0.0f : x[i]);
}

// Pointers and an index as arguments, and a callee with no result that stores through one.
__device__ __noinline__ void store_tripled(float* p, int i, float v) { p[i] = v * 3.0f; }
__device__ __noinline__ float signed_by_parity(const float* p, int i) { return i % 2 ? p[i] : -p[i]; }

extern "C" __global__ void calls_through_pointers(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) store_tripled(out, i, signed_by_parity(x, i) + y[i]);
}

extern "C" __global__ void calls_through_pointers_inline(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3.0f * ((i % 2 ? x[i] : -x[i]) + y[i]);
}
