// A difference far above rounding on a narrow band of the input, beside a rounding-level one
// everywhere (a constant one ulp off): the refutation must come from the band, not stop at the
// first rounding-level witness, or the pair reads as equal up to rounding.
extern "C" __global__ void scaled_with_band(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float r = v * 1.00000012f;
  out[i] = v < 0.499f || v > 0.501f ? r : r + 0.5f;
}

extern "C" __global__ void scaled_only(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * 1.00000012f;
}

extern "C" __global__ void copied(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i];
}

extern "C" __global__ void band_only(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  out[i] = v < 0.499f || v > 0.501f ? v : v + 0.5f;
}
