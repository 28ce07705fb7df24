// Bit-level views of floats (t_bits_*): the sign bit through integer and/or/xor, as hand-written
// code and libraries do it (copysign, abs, a sign flip), against plain float references.
#include <cstdint>

// copysign(|y|, x) built from bits: x's sign bit or'ed into y's magnitude.
extern "C" __global__ void copysign_bits(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t s = __float_as_uint(x[i]) & 0x80000000u;
  uint32_t m = __float_as_uint(y[i]) & 0x7fffffffu;
  out[i] = __uint_as_float(s | m);
}

// The same as a select on x's sign: the reference.
extern "C" __global__ void copysign_select(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float m = fabsf(y[i]);
  out[i] = x[i] < 0.0f ? -m : m;
}

// The wrong trick: x's sign bit xor'ed into y without clearing y's own sign first (y's sign
// flips where x < 0, so a negative y with a positive x stays negative).
extern "C" __global__ void copysign_xor_bug(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t s = __float_as_uint(x[i]) & 0x80000000u;
  out[i] = __uint_as_float(s ^ __float_as_uint(y[i]));
}

// y * sign(x) (x != 0) as a sign flip in the bits: y with x's sign bit xor'ed in.
extern "C" __global__ void sign_flip_bits(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t s = __float_as_uint(x[i]) & 0x80000000u;
  out[i] = __uint_as_float(s ^ __float_as_uint(y[i]));
}

extern "C" __global__ void sign_flip_select(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] < 0.0f ? -y[i] : y[i];
}

// x * 2^k with 2^k built as a float's exponent field from an integer k (t_bits_04, 05).
extern "C" __global__ void pow2_from_exponent_field(const float* x, const int* k, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * __uint_as_float(static_cast<uint32_t>(k[i] + 127) << 23);
}

// The field one too small: 2^(k - 1).
extern "C" __global__ void pow2_from_exponent_field_off_by_one(const float* x, const int* k, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * __uint_as_float(static_cast<uint32_t>(k[i] + 126) << 23);
}

extern "C" __global__ void pow2_from_exp2f(const float* x, const int* k, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * exp2f(static_cast<float>(k[i]));
}
