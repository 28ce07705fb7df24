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

// Two 4-bit fields of each code in [0, 255]: hi = code >> 4 (shr.u32), lo = code & 15.
extern "C" __global__ void int_nibbles_shift_mask(const int* code, int* hi, int* lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned c = (unsigned)code[i];
  hi[i] = (int)(c >> 4);
  lo[i] = (int)(c & 15u);
}

// Bug: the low field masked with 7 (three bits).
extern "C" __global__ void int_nibbles_low3(const int* code, int* hi, int* lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned c = (unsigned)code[i];
  hi[i] = (int)(c >> 4);
  lo[i] = (int)(c & 7u);
}

// Reference: hi counts the multiples of 16 in (0, code]; lo is what remains.
extern "C" __global__ void int_nibbles_compare(const int* code, int* hi, int* lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int c = code[i], h = 0;
#pragma unroll
  for (int k = 1; k < 16; ++k) h += c >= 16 * k;
  hi[i] = h;
  lo[i] = c - 16 * h;
}

// floor(x / 4) of x in [-100, 100] by an arithmetic shift (shr.s32).
extern "C" __global__ void int_floor_quarter_shift(const int* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] >> 2;
}

// Reference: -25 plus the number of multiples of 4 in (-100, x].
extern "C" __global__ void int_floor_quarter_compare(const int* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i], q = -25;
#pragma unroll
  for (int k = -24; k <= 25; ++k) q += v >= 4 * k;
  out[i] = q;
}

// y * 2^k with k = (code >> 4) - 8 from a code in [0, 255], 2^k built as the float whose
// exponent field is k + 127 (shl.b32 by 23), as a hand-written exp2 does.
extern "C" __global__ void int_pow2_from_code_bits(const int* code, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = (int)((unsigned)code[i] >> 4) - 8;
  out[i] = y[i] * __int_as_float((k + 127) << 23);
}

// Reference: exp2f of the same k.
extern "C" __global__ void int_pow2_from_code_exp2f(const int* code, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = (int)((unsigned)code[i] >> 4) - 8;
  out[i] = y[i] * exp2f((float)k);
}

// Bug: the code's low field taken for k (code & 15 instead of code >> 4).
extern "C" __global__ void int_pow2_from_code_low_field(const int* code, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = (int)((unsigned)code[i] & 15u) - 8;
  out[i] = y[i] * __int_as_float((k + 127) << 23);
}

// x / 4 rounds toward zero (nvcc: the sign shifted down logically as a bias, then shr.s32):
// not floor(x / 4) for negative x that is not a multiple of 4.
extern "C" __global__ void int_trunc_quarter_div(const int* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] / 4;
}
