// Reduced from soundness-fuzzer pairs (seed 20251204: 24, 161, 180, 210, 217, ...): nvcc's tanhf
// (a polynomial for |x| < 0.6, 1 - 2/(e^2|x| + 1) above) against the same function written with expf.
// Equal over the reals; racer read tanhf's polynomial branch as an exact polynomial (not tanh)
// and reported a witness whose difference is below f32 rounding.
extern "C" __global__ void tanh_direct(const float* __restrict__ x, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tanhf(x[i]);
}
extern "C" __global__ void tanh_via_exp(const float* __restrict__ x, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float e = expf(2.0f * x[i]); out[i] = (e - 1.0f) / (e + 1.0f); }
}
extern "C" __global__ void tanh_via_sigmoid(const float* __restrict__ x, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f / (1.0f + expf(-2.0f * x[i])) - 1.0f;
}
