// Integers narrowed on their way to memory: a 32-bit value stored into a one-byte cell keeps
// its low byte (two's complement wrap-around), and a register that holds a sentinel (-1) on one
// path and data on the other (tests/cases/README.md, "Narrowing stores and sentinels").

// The low byte of trunc(x): what (signed char) of an int stores.
extern "C" __global__ void narrow_cast(const float* x, signed char* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = static_cast<signed char>(__float2int_rz(x[i]));
}

// Saturated instead of wrapped: differs wherever |trunc(x)| > 127.
extern "C" __global__ void narrow_clamp(const float* x, signed char* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = static_cast<signed char>(max(-128, min(127, __float2int_rz(x[i]))));
}

// The index of the largest of four floats, times s (a parameter: 100 makes 200 and 300, which
// wrap), into a byte; the index found by a loop and by a tree of comparisons.
extern "C" __global__ void argmax_byte_loop(const float* x, signed char* q, int s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* r = x + 4 * i;
  int best = 0;
  float m = r[0];
  for (int k = 1; k < 4; ++k)
    if (r[k] > m) m = r[k], best = k;
  q[i] = static_cast<signed char>(best * s);
}

extern "C" __global__ void argmax_byte_tree(const float* x, signed char* q, int s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* r = x + 4 * i;
  const bool hi01 = r[1] > r[0], hi23 = r[3] > r[2];
  const float v01 = fmaxf(r[0], r[1]), v23 = fmaxf(r[2], r[3]);
  int best = v23 > v01 ? (hi23 ? 3 : 2) : (hi01 ? 1 : 0);
  q[i] = static_cast<signed char>(best * s);
}

// The largest of a row's four tokens where x > 0, else -1 ("no token"): the loop keeps the
// branch a branch, so the -1 and the tokens meet in one untyped register.
extern "C" __global__ void pick_or_none_loop(const float* x, const int* tok, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r = -1;
  if (x[i] > 0.f) {
#pragma unroll 1
    for (int k = 0; k < 4; ++k) r = max(r, tok[4 * i + k]);
  }
  out[i] = r;
}

extern "C" __global__ void pick_or_none_select(const float* x, const int* tok, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int* t = tok + 4 * i;
  int m = max(max(t[0], t[1]), max(t[2], t[3]));
  out[i] = x[i] > 0.f ? max(m, -1) : -1;
}

// A slip: 0 for "no token", which a token can also be.
extern "C" __global__ void pick_or_zero_select(const float* x, const int* tok, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int* t = tok + 4 * i;
  int m = max(max(t[0], t[1]), max(t[2], t[3]));
  out[i] = x[i] > 0.f ? max(m, -1) : 0;
}

// Two 4-bit values per byte: element i is byte i/2 shifted by 0 or 4 (a shift by a register
// that holds 0 in half the threads), against a selection of the two nibbles.
extern "C" __global__ void nibbles_by_shift(const unsigned char* packed, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (packed[i / 2] >> ((i & 1) * 4)) & 15;
}

extern "C" __global__ void nibbles_by_select(const unsigned char* packed, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned b = packed[i / 2];
  out[i] = (i & 1) ? b / 16 : b % 16;
}
