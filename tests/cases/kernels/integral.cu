// Float values rounded to integers (t_integral_* cases): rintf against a float-to-int
// conversion, floorf against -ceilf(-x), and the slips between rounding functions (half away
// from zero against half to even, truncation against floor).

// y = rint(x s) in float, against (float)__float2int_rn(x s): the same integer.
extern "C" __global__ void round_rint(const float* x, const float* s, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = rintf(x[i] * s[0]);
}
extern "C" __global__ void round_via_int(const float* x, const float* s, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = static_cast<float>(__float2int_rn(x[i] * s[0]));
}

// floor(x s) against -ceil(-x s).
extern "C" __global__ void round_floor(const float* x, const float* s, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = floorf(x[i] * s[0]);
}
extern "C" __global__ void round_neg_ceil_neg(const float* x, const float* s, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = -ceilf(-(x[i] * s[0]));
}

// roundf (ties away from zero) where the reference rounds ties to even: they differ where x s
// is an odd multiple of 1/2.
extern "C" __global__ void round_half_away(const float* x, const float* s, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = roundf(x[i] * s[0]);
}

// truncf where the reference takes the floor: they differ for every negative non-integer.
extern "C" __global__ void round_trunc(const float* x, const float* s, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = truncf(x[i] * s[0]);
}

// int8 quantization q = clamp(rint(x / s), -128, 127) as a signed char, against the same
// through __float2int_rn and an integer clamp.
extern "C" __global__ void quant_int8_rint(const float* x, const float* s, signed char* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = static_cast<signed char>(fminf(fmaxf(rintf(x[i] / s[0]), -128.f), 127.f));
}
extern "C" __global__ void quant_int8_cvt(const float* x, const float* s, signed char* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = static_cast<signed char>(max(-128, min(127, __float2int_rn(x[i] / s[0]))));
}
