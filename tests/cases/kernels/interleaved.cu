// Two compiled math routines that nvcc interleaves (t_mix_*): fmaxf(tanhf(x), erff(x)). erff's
// 1 - 2^(...) path is taken only for |x| >= 1.0036, and the max after the paths meet reads what
// it wrote: a routine stepped over must leave that step to the thread (both programs once
// stored an unwritten register here, and were proved equal).

extern "C" __global__ void tanh_erf_max(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(tanhf(x[i]), erff(x[i]));
}

// The operands the other way round: the same function.
extern "C" __global__ void erf_tanh_max(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(erff(x[i]), tanhf(x[i]));
}

// Mutation: the min instead of the max.
extern "C" __global__ void tanh_erf_min(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fminf(tanhf(x[i]), erff(x[i]));
}
