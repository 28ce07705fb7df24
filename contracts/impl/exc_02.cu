// C-EXC-02 out-of-bounds access: y[i] = table[idx[i]], declared CLAMP.
extern "C" __global__ void exc02_baseline(const float* table, const int* idx, float* y, int m, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) y[i] = 0.0f;
}

// bad: declares CLAMP but reads table[idx] unchecked: an out-of-range index reads whatever
// lies there, without an error.
extern "C" __global__ void exc02_bad(const float* table, const int* idx, float* y, int m, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) y[i] = table[idx[i]];
}

extern "C" __global__ void exc02_good(const float* table, const int* idx, float* y, int m, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  int j = min(max(idx[i], 0), t - 1);
  y[i] = table[j];
}

// reference: the declared CLAMP semantics, one thread.
extern "C" __global__ void exc02_reference(const float* table, const int* idx, float* y, int m, int t) {
  for (int i = 0; i < m; ++i) {
    int j = idx[i] < 0 ? 0 : idx[i] >= t ? t - 1 : idx[i];
    y[i] = table[j];
  }
}
