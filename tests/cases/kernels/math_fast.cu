// Fast intrinsics and approximate instructions for the t_math_40..43 cases: __fdividef
// (div.approx), __sinf/__cosf (sin.approx/cos.approx) and tanh.approx, each against Triton's
// full-precision routine. Racer reads an .approx instruction as the function it approximates.
#define UNARY(name, expr) \
  extern "C" __global__ void name(const float* __restrict__ xs, float* __restrict__ out, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x; \
    if (i < n) { float x = xs[i]; out[i] = (expr); } }

__device__ float tanh_approx(float x) {
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

extern "C" __global__ void cu_fast_div(const float* __restrict__ xs, const float* __restrict__ ys,
                                       float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fdividef(xs[i], ys[i]);
}
UNARY(cu_fast_sin, __sinf(x))
UNARY(cu_fast_cos, __cosf(x))
UNARY(cu_tanh_approx, tanh_approx(x))
