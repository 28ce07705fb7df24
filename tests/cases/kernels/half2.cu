// Packed half-precision arithmetic (add/mul/fma/max .f16x2 and .bf16x2): each lane is its own
// f16 or bf16 operation (tests/cases/README.md, "Packed half arithmetic").
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// y = a x + y over pairs of halves, one __hfma2 per pair.
extern "C" __global__ void axpy_half2(const __half2* x, __half2* y, float a, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) y[i] = __hfma2(__float2half2_rn(a), x[i], y[i]);
}

// The same, one half at a time.
extern "C" __global__ void axpy_half(const __half* x, __half* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma(__float2half_rn(a), x[i], y[i]);
}

// A slip: the pair's lanes swapped before the fma (y[2i] gets a x[2i+1] + y[2i]).
extern "C" __global__ void axpy_half2_swapped(const __half2* x, __half2* y, float a, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) y[i] = __hfma2(__float2half2_rn(a), __lowhigh2highlow(x[i]), y[i]);
}

// relu(x + b) over bf16 pairs, and one bf16 at a time in f32.
extern "C" __global__ void bias_relu_bf162(const __nv_bfloat162* x, const __nv_bfloat162* b, __nv_bfloat162* y, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) y[i] = __hmax2(__hadd2(x[i], b[i]), __float2bfloat162_rn(0.f));
}

extern "C" __global__ void bias_relu_bf16(const __nv_bfloat16* x, const __nv_bfloat16* b, __nv_bfloat16* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16_rn(fmaxf(__bfloat162float(x[i]) + __bfloat162float(b[i]), 0.f));
}

// A slip: the product x b instead of the sum.
extern "C" __global__ void bias_relu_bf162_mul(const __nv_bfloat162* x, const __nv_bfloat162* b, __nv_bfloat162* y, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) y[i] = __hmax2(__hmul2(x[i], b[i]), __float2bfloat162_rn(0.f));
}

// erff of a pair's sum, the pair read as one 32-bit word (a register of two half lanes beside
// the compiled routine's input), against the halves read one at a time.
extern "C" __global__ void erf_of_half2_sum(const __half2* h, float* out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) out[i] = erff(__low2float(h[i]) + __high2float(h[i]));
}

extern "C" __global__ void erf_of_half_sum(const __half* h, float* out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) out[i] = erff(__half2float(h[2 * i]) + __half2float(h[2 * i + 1]));
}
