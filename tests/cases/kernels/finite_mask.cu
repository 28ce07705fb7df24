// Causal softmax-weighted averages, one thread per query row: out[i] = sum_j p_ij v_j / sum_j p_ij
// over the keys j <= i, p_ij = exp(s_ij - max). The reference skips the masked keys; the others
// run over every key and mask it with a finite value, as many attention kernels do. A mask of -1e6
// leaves terms exp(-1e6 - m) that no float format holds (equal up to rounding); a mask of -2 on
// scores in [-1, 1] is a real difference, and so is a causal mask one key short.
#define N_KEYS 4

extern "C" __global__ void causal_skip(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float m = s[i * N_KEYS];
  for (int j = 1; j <= i; ++j) m = fmaxf(m, s[i * N_KEYS + j]);
  float num = 0.f, den = 0.f;
  for (int j = 0; j <= i; ++j) {
    float p = expf(s[i * N_KEYS + j] - m);
    num += p * v[j];
    den += p;
  }
  out[i] = num / den;
}

// The masked score replaces the score (where(mask, s, fill)), or is added to it (s + bias).
__device__ float masked_average(const float* s, const float* v, int i, int last, float fill, bool additive) {
  float x[N_KEYS];
  for (int j = 0; j < N_KEYS; ++j) {
    float sj = s[i * N_KEYS + j];
    x[j] = j <= last ? sj : additive ? sj + fill : fill;
  }
  float m = x[0];
  for (int j = 1; j < N_KEYS; ++j) m = fmaxf(m, x[j]);
  float num = 0.f, den = 0.f;
  for (int j = 0; j < N_KEYS; ++j) {
    float p = expf(x[j] - m);
    num += p * v[j];
    den += p;
  }
  return num / den;
}

extern "C" __global__ void causal_fill_1e6(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = masked_average(s, v, i, i, -1e6f, false);
}

extern "C" __global__ void causal_bias_1e6(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = masked_average(s, v, i, i, -1e6f, true);
}

extern "C" __global__ void causal_fill_2(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = masked_average(s, v, i, i, -2.f, false);
}

// One key short: the diagonal is masked too (row 0 then averages every value alike).
extern "C" __global__ void causal_fill_1e6_short(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = masked_average(s, v, i, i - 1, -1e6f, false);
}
