// A routine whose last step adds another routine's result: nvcc fuses expf(a)'s final scaling
// by 2^n with the sigmoid as the fma's addend, then takes logf of the sum. A later routine's
// probe (logf's) must not run that fma again from the registers expf's plan stepped over.
extern "C" __global__ void log_sig_plus_exp(const float* __restrict__ a, const float* __restrict__ c, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = logf(1.0f / (1.0f + expf(-c[i])) + expf(a[i]));
}

extern "C" __global__ void log_exp_plus_sig(const float* __restrict__ a, const float* __restrict__ c, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float e = expf(a[i]);
    float s = 1.0f / (1.0f + expf(-c[i]));
    out[i] = logf(e + s);
  }
}

// The mutant: the exp term dropped.
extern "C" __global__ void log_sig_only(const float* __restrict__ a, const float* __restrict__ c, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = logf(1.0f / (1.0f + expf(-c[i])) + 0.0f * a[i]);
}
