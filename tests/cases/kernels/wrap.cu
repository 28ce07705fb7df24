// Integer data over the full range of its type: sums, hashes and comparisons that overflow and
// wrap around (two's complement), as the hardware computes them. Unsigned arithmetic keeps the
// wrap-around defined in C++ (signed overflow would let the compiler assume it never happens).
#define FULL 0xffffffffu

// One thread per row of 8 int32: the sum from the left, wrapping in 32 bits.
extern "C" __global__ void wrap_sum_left(const int* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  unsigned s = 0;
  for (int c = 0; c < 8; ++c) s += (unsigned)x[r * 8 + c];
  out[r] = (int)s;
}

// The same sum from the right, in pairs: another association order.
extern "C" __global__ void wrap_sum_pairs_right(const int* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const unsigned* v = (const unsigned*)x + r * 8;
  unsigned s = 0;
  for (int c = 6; c >= 0; c -= 2) s = (v[c] + v[c + 1]) + s;
  out[r] = (int)s;
}

// Accumulated in 64 bits (never overflows for 8 terms), truncated to 32 on the store.
extern "C" __global__ void wrap_sum_i64_truncated(const int* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  long long s = 0;
  for (int c = 0; c < 8; ++c) s += x[r * 8 + c];
  out[r] = (int)s;
}

// The 32-bit wrapped sum widened to 64 bits (sign-extended) into an int64 output.
extern "C" __global__ void wrap_sum_left_widened(const int* x, long long* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  unsigned s = 0;
  for (int c = 0; c < 8; ++c) s += (unsigned)x[r * 8 + c];
  out[r] = (long long)(int)s;
}

// Bug (against the one above): the exact 64-bit sum stored, which differs once the 32-bit sum overflows.
extern "C" __global__ void wrap_sum_i64_wide(const int* x, long long* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  long long s = 0;
  for (int c = 0; c < 8; ++c) s += x[r * 8 + c];
  out[r] = s;
}

// One warp per row of 32: a shfl.xor butterfly, wrapping.
extern "C" __global__ void wrap_sum_warp(const int* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  unsigned v = (unsigned)x[r * 32 + lane];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  if (lane == 0) out[r] = (int)v;
}

// The rows of 32 by a loop (the reference of the butterfly).
extern "C" __global__ void wrap_sum_loop32(const int* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  unsigned s = 0;
  for (int c = 0; c < 32; ++c) s += (unsigned)x[r * 32 + c];
  out[r] = (int)s;
}

// A multiplicative hash of two u32 keys, wrapping in 32 bits (Knuth's constant).
extern "C" __global__ void wrap_hash(const unsigned* x, const unsigned* y, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * 2654435761u + y[i];
}

// The same hash computed in 64 bits and truncated.
extern "C" __global__ void wrap_hash_u64(const unsigned* x, const unsigned* y, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (unsigned)((unsigned long long)x[i] * 2654435761ull + y[i]);
}

// Bug: the multiplier mistyped (2654435769).
extern "C" __global__ void wrap_hash_mutated(const unsigned* x, const unsigned* y, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * 2654435769u + y[i];
}

// A polynomial rolling hash of a row of 8 (h = 31 h + x), wrapping in 32 bits.
extern "C" __global__ void wrap_poly_hash(const int* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  unsigned h = 0;
  for (int c = 0; c < 8; ++c) h = h * 31u + (unsigned)x[r * 8 + c];
  out[r] = (int)h;
}

// The same hash in 64 bits (which overflow too), truncated once at the end.
extern "C" __global__ void wrap_poly_hash_u64(const int* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  unsigned long long h = 0;
  for (int c = 0; c < 8; ++c) h = h * 31ull + (unsigned long long)(long long)x[r * 8 + c];
  out[r] = (int)(unsigned)h;
}

// Whether the wrapped 32-bit sum of two int32 is positive.
extern "C" __global__ void wrap_sum_positive(const int* x, const int* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int)((unsigned)x[i] + (unsigned)y[i]) > 0 ? 1 : 0;
}

// The same test on the 64-bit sum truncated to 32 bits.
extern "C" __global__ void wrap_sum_positive_i64_truncated(const int* x, const int* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int)((long long)x[i] + (long long)y[i]) > 0 ? 1 : 0;
}

// Bug: the test on the exact 64-bit sum, which differs exactly where the 32-bit sum overflows.
extern "C" __global__ void wrap_sum_positive_i64(const int* x, const int* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (long long)x[i] + (long long)y[i] > 0 ? 1 : 0;
}

// int8 cells read as unsigned bytes (ld.global.u8): the byte's value, x mod 256.
extern "C" __global__ void wrap_i8_as_u8(const signed char* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ((const unsigned char*)x)[i];
}

// The same by a select: negative codes plus 256.
extern "C" __global__ void wrap_i8_plus_256(const signed char* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] < 0 ? x[i] + 256 : x[i];
}

// Bug (against the byte read unsigned): the code read signed.
extern "C" __global__ void wrap_i8_signed(const signed char* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i];
}

// The sum of two int8 stored as int8: wraps in 8 bits on the store.
extern "C" __global__ void wrap_i8_sum(const signed char* x, const signed char* y, signed char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (signed char)(x[i] + y[i]);
}

// The same residue written out: ((x + y + 128) mod 256) - 128 by a mask.
extern "C" __global__ void wrap_i8_sum_masked(const signed char* x, const signed char* y, signed char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = x[i] + y[i] + 128;
    out[i] = (signed char)((s & 255) - 128);
  }
}

// The same residue by selects: s - 256 above 127, s + 256 below -128.
extern "C" __global__ void wrap_i8_sum_select(const signed char* x, const signed char* y, signed char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = x[i] + y[i];
    int r = s > 127 ? s - 256 : s < -128 ? s + 256 : s;
    out[i] = (signed char)r;
  }
}

// The residue by selects into an int32 output (no store that wraps).
extern "C" __global__ void wrap_i8_sum_select_i32(const signed char* x, const signed char* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = x[i] + y[i];
    out[i] = s > 127 ? s - 256 : s < -128 ? s + 256 : s;
  }
}

// The int8 sum wrapped, widened into an int32 output.
extern "C" __global__ void wrap_i8_sum_i32(const signed char* x, const signed char* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (signed char)(x[i] + y[i]);
}

// Bug (against the above): the threshold off by one (127 itself wrapped).
extern "C" __global__ void wrap_i8_sum_select_off_by_one(const signed char* x, const signed char* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = x[i] + y[i];
    out[i] = s >= 127 ? s - 256 : s < -128 ? s + 256 : s;
  }
}

// floor((x + y) / 2) of two full-range int32 without overflow: halves plus the carry of the low bits.
extern "C" __global__ void wrap_average_halves(const int* x, const int* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (x[i] >> 1) + (y[i] >> 1) + (((x[i] & 1) + (y[i] & 1)) >> 1);
}

// The same from the exact 64-bit sum shifted right.
extern "C" __global__ void wrap_average_i64(const int* x, const int* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int)(((long long)x[i] + (long long)y[i]) >> 1);
}

// Bug: the 32-bit sum shifted, which overflows before the shift.
extern "C" __global__ void wrap_average_i32(const int* x, const int* y, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int)((unsigned)x[i] + (unsigned)y[i]) >> 1;
}
