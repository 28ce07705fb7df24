// Row-wise int8 quantization (session 32): q = trunc(x / s) with s = max|x| / 127. At the row's
// largest element the quotient is exactly 127 over the reals; in floats it may be 126.99..., so
// the float program lands on 126 or 127 there as s rounds. The self-check must not call that a
// mis-modelled instruction.
#include <cuda_fp16.h>

// One thread per row: the scale kept in half precision (as lightllm stores it), q = x / s.
extern "C" __global__ void quant_half_scale(const float* x, signed char* q, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float m = 0.f;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, fabsf(x[r * cols + c]));
  float s = __half2float(__float2half(m / 127.f));
  for (int c = 0; c < cols; ++c) q[r * cols + c] = (signed char)(int)(x[r * cols + c] / s);
}

// The same codes written as x * 127 / max.
extern "C" __global__ void quant_mul(const float* x, signed char* q, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float m = 0.f;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, fabsf(x[r * cols + c]));
  for (int c = 0; c < cols; ++c) q[r * cols + c] = (signed char)(int)(x[r * cols + c] * 127.f / m);
}
