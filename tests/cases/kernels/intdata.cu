// Integer data from inputs: sums, dot products and counts over int32 tensors whose cells are
// symbolic. Symbolic integer arithmetic is exact; it agrees with the hardware's two's
// complement only where the instance's declared ranges prove no result leaves the type
// (the t_intd_* cases declare such ranges, and one that does not).
#define FULL 0xffffffffu

// Reference: one thread per row of a [rows, cols] int32 matrix, a plain loop.
extern "C" __global__ void int_row_sum_loop(const int* x, int* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int s = 0;
  for (int c = 0; c < cols; ++c) s += x[r * cols + c];
  out[r] = s;
}

// One warp per row of 32: a butterfly of shfl.xor, lane 0 stores.
extern "C" __global__ void int_row_sum_warp(const int* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  int v = x[r * 32 + lane];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  if (lane == 0) out[r] = v;
}

// Bug: the butterfly stops before distance 1, so lane 0 sums only the even lanes.
extern "C" __global__ void int_row_sum_warp_short(const int* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  int v = x[r * 32 + lane];
  for (int o = 16; o > 1; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  if (lane == 0) out[r] = v;
}

// Reference: integer dot product of each row of x with w (mad.lo.s32 in a loop).
extern "C" __global__ void int_row_dot_loop(const int* x, const int* w, int* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int s = 0;
  for (int c = 0; c < cols; ++c) s += x[r * cols + c] * w[c];
  out[r] = s;
}

// One warp per row of 32: lane products, shfl.down tree.
extern "C" __global__ void int_row_dot_warp(const int* x, const int* w, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  int v = x[r * 32 + lane] * w[lane];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL, v, o);
  if (lane == 0) out[r] = v;
}

// Reference histogram by comparison: counts[b] = number of i with x[i] == b, one thread per bin.
extern "C" __global__ void int_count_eq_loop(const int* x, int* counts, int n, int nbins) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nbins) return;
  int s = 0;
  for (int i = 0; i < n; ++i) s += x[i] == b;
  counts[b] = s;
}

// One warp: each pass of 32 elements counts a bin with ballot and popc.
extern "C" __global__ void int_count_eq_ballot(const int* x, int* counts, int n, int nbins) {
  int lane = threadIdx.x;
  for (int b = 0; b < nbins; ++b) {
    int s = 0;
    for (int i = 0; i < n; i += 32) s += __popc(__ballot_sync(FULL, x[i + lane] == b));
    if (lane == 0) counts[b] = s;
  }
}

// Bug: counts x[i] <= b (a cumulative histogram) instead of x[i] == b.
extern "C" __global__ void int_count_le_ballot(const int* x, int* counts, int n, int nbins) {
  int lane = threadIdx.x;
  for (int b = 0; b < nbins; ++b) {
    int s = 0;
    for (int i = 0; i < n; i += 32) s += __popc(__ballot_sync(FULL, x[i + lane] <= b));
    if (lane == 0) counts[b] = s;
  }
}

// Clamp each element to [lo, hi] with min/max (min.s32, max.s32), one thread per element.
extern "C" __global__ void int_clamp_minmax(const int* x, int* out, int n, int lo, int hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = min(max(x[i], lo), hi);
}

// Reference: the clamp as comparisons and selects.
extern "C" __global__ void int_clamp_select(const int* x, int* out, int n, int lo, int hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  int r = v;
  if (v < lo) r = lo;
  if (v > hi) r = hi;
  out[i] = r;
}

// Row maximum of 32 int32 values with max.s32 in a shfl.xor butterfly, lane 0 stores.
extern "C" __global__ void int_row_max_warp(const int* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  int v = x[r * 32 + lane];
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(FULL, v, o));
  if (lane == 0) out[r] = v;
}

// Reference: one thread per row, comparisons in a loop.
extern "C" __global__ void int_row_max_loop(const int* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int m = x[r * 32];
  for (int c = 1; c < 32; ++c) {
    int v = x[r * 32 + c];
    if (v > m) m = v;
  }
  out[r] = m;
}
