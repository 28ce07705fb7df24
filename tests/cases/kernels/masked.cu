// Sums taken over a data-dependent support (t_mask_*): a reference that accumulates under a
// branch (if (x > 0) s += y) against a kernel that adds a select (s += x > 0 ? y : 0), and
// mutations of the branch. One thread per row; rows x cols inputs, row-major.

// Per row: the sum of y where x > 0, and how many such cells (the count as a float).
extern "C" __global__ void support_sum_branch(const float* x, const float* y, float* sum, float* count, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j) {
    if (x[r * cols + j] > 0.f) {
      s += y[r * cols + j];
      k += 1.f;
    }
  }
  sum[r] = s;
  count[r] = k;
}

extern "C" __global__ void support_sum_select(const float* x, const float* y, float* sum, float* count, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j) {
    bool in = x[r * cols + j] > 0.f;
    s += in ? y[r * cols + j] : 0.f;
    k += in ? 1.f : 0.f;
  }
  sum[r] = s;
  count[r] = k;
}

// Mutation: the support taken with x >= 0 (a cell at exactly 0 counts).
extern "C" __global__ void support_sum_branch_ge(const float* x, const float* y, float* sum, float* count, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j) {
    if (x[r * cols + j] >= 0.f) {
      s += y[r * cols + j];
      k += 1.f;
    }
  }
  sum[r] = s;
  count[r] = k;
}

// Mutation: cells outside the support add half their y.
extern "C" __global__ void support_sum_branch_else_half(const float* x, const float* y, float* sum, float* count, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j) {
    if (x[r * cols + j] > 0.f) {
      s += y[r * cols + j];
      k += 1.f;
    } else {
      s += 0.5f * y[r * cols + j];
    }
  }
  sum[r] = s;
  count[r] = k;
}

// The support is where x != 0, taken by a branch; the other side adds a select on x == 0.
extern "C" __global__ void nonzero_sum_branch(const float* x, const float* y, float* sum, float* count, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j) {
    if (x[r * cols + j] != 0.f) {
      s += y[r * cols + j];
      k += 1.f;
    }
  }
  sum[r] = s;
  count[r] = k;
}

extern "C" __global__ void nonzero_sum_select(const float* x, const float* y, float* sum, float* count, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j) {
    bool out = x[r * cols + j] == 0.f;
    s += out ? 0.f : y[r * cols + j];
    k += out ? 0.f : 1.f;
  }
  sum[r] = s;
  count[r] = k;
}

// A sparsemax-style gradient: g = y - mean of y over the support, on the support; 0 off it.
extern "C" __global__ void support_grad_branch(const float* x, const float* y, float* g, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s = 0.f, k = 0.f;
  for (int j = 0; j < cols; ++j)
    if (x[r * cols + j] > 0.f) s += y[r * cols + j], k += 1.f;
  for (int j = 0; j < cols; ++j) g[r * cols + j] = x[r * cols + j] > 0.f ? y[r * cols + j] - s / fmaxf(k, 1e-6f) : 0.f;
}

// The same in two halves of the row, each summed through selects, then added.
extern "C" __global__ void support_grad_halves(const float* x, const float* y, float* g, int rows, int cols) {
  int r = threadIdx.x;
  if (r >= rows) return;
  float s0 = 0.f, s1 = 0.f, k0 = 0.f, k1 = 0.f;
  int h = cols / 2;
  for (int j = 0; j < h; ++j) {
    bool in = x[r * cols + j] > 0.f;
    s0 += in ? y[r * cols + j] : 0.f;
    k0 += in ? 1.f : 0.f;
  }
  for (int j = h; j < cols; ++j) {
    bool in = x[r * cols + j] > 0.f;
    s1 += in ? y[r * cols + j] : 0.f;
    k1 += in ? 1.f : 0.f;
  }
  float s = s0 + s1, k = k0 + k1;
  for (int j = 0; j < cols; ++j) {
    float v = y[r * cols + j] - s / fmaxf(k, 1e-6f);
    g[r * cols + j] = x[r * cols + j] > 0.f ? v : 0.f;
  }
}
