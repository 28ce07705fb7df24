// Softmax-weighted averages over 14 keys, one thread per row: the reference sums exp(s) v and exp(s)
// over all keys; the split kernels take keys 0..11 and 12..13 apart (each split's max, sum and
// average, and its log-sum-exp m + log(l)) and merge the two as split-K decoding does, raising the
// running max split by split. The second split's log-sum-exp is the larger only where its two scores
// are near 1 and the first split's twelve near -1: a merge that forgets to rescale its accumulator
// there differs only on that piece.
#define N_KEYS 14
#define SPLIT 12

extern "C" __global__ void softmax_average(const float* s, const float* v, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float num = 0.f, den = 0.f;
  for (int j = 0; j < N_KEYS; ++j) {
    float p = expf(s[r * N_KEYS + j]);
    num += p * v[j];
    den += p;
  }
  out[r] = num / den;
}

// One split's average of v over keys [lo, hi) and its log-sum-exp.
__device__ void split_state(const float* s, const float* v, int r, int lo, int hi, float* average, float* lse) {
  float m = s[r * N_KEYS + lo];
  for (int j = lo + 1; j < hi; ++j) m = fmaxf(m, s[r * N_KEYS + j]);
  float acc = 0.f, l = 0.f;
  for (int j = lo; j < hi; ++j) {
    float p = expf(s[r * N_KEYS + j] - m);
    acc += p * v[j];
    l += p;
  }
  *average = acc / l;
  *lse = m + logf(l);
}

__device__ float merged(const float* s, const float* v, int r, bool rescale) {
  float o[2], lse[2];
  split_state(s, v, r, 0, SPLIT, &o[0], &lse[0]);
  split_state(s, v, r, SPLIT, N_KEYS, &o[1], &lse[1]);
  float e_max = lse[0], acc = o[0], e_sum = 1.f;
  float n = fmaxf(lse[1], e_max);
  float old_scale = expf(e_max - n);
  if (rescale) acc *= old_scale;
  float p = expf(lse[1] - n);
  acc += p * o[1];
  e_sum = e_sum * old_scale + p;
  return acc / e_sum;
}

extern "C" __global__ void split_merge(const float* s, const float* v, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) out[r] = merged(s, v, r, true);
}

extern "C" __global__ void split_merge_no_rescale(const float* s, const float* v, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) out[r] = merged(s, v, r, false);
}
