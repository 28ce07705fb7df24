// Two 4-bit codes packed into a byte, for the t_nibble_* cases: the high code shifted up by 4 and
// or'ed (or xor'ed, or added) with the low one; their set bits never overlap. A code counts the
// thresholds (k - 8) / 8, k = 1..15, below x: 0..15, chosen by comparing floats.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned code(float x) {
  unsigned q = 0;
#pragma unroll
  for (int k = 1; k < 16; ++k) q += x > (k - 8) * 0.125f ? 1u : 0u;
  return q;
}

extern "C" __global__ void nibble_or(const float* x, unsigned char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<unsigned char>((code(x[2 * i]) << 4) | code(x[2 * i + 1]));
}

extern "C" __global__ void nibble_add(const float* x, unsigned char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<unsigned char>(code(x[2 * i]) * 16 + code(x[2 * i + 1]));
}

extern "C" __global__ void nibble_xor(const float* x, unsigned char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<unsigned char>(code(x[2 * i + 1]) ^ (code(x[2 * i]) << 4));
}

// A slip: the codes packed in the other order.
extern "C" __global__ void nibble_swapped(const float* x, unsigned char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<unsigned char>((code(x[2 * i + 1]) << 4) | code(x[2 * i]));
}

// Eight 4-bit codes of a packed word: bfe.u32 (as Triton and nvcc emit for (w >> 4k) & 15)
// against the shift and mask, each code scaling a float. `len` is the field's width.
__device__ __forceinline__ unsigned field_bfe(unsigned w, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(w), "r"(pos), "r"(len));
  return r;
}

extern "C" __global__ void codes_bfe(const int* w, const float* s, float* out, int n, unsigned len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += static_cast<float>(field_bfe(static_cast<unsigned>(w[i]), 4 * k, len)) * s[8 * i + k];
  out[i] = acc;
}

extern "C" __global__ void codes_shift_mask(const int* w, const float* s, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += static_cast<float>((static_cast<unsigned>(w[i]) >> (4 * k)) & 15u) * s[8 * i + k];
  out[i] = acc;
}
