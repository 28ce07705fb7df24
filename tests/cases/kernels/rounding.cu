// Rounding-level differences against real ones (t_round_* cases): a constant folded by the
// compiler in one kernel and computed in the other, one routine with its scale folded in or
// not, and epsilon bugs that hide below the tolerance except at small variances.
#define UNARY(name, expr) \
  extern "C" __global__ void name(const float* __restrict__ xs, float* __restrict__ out, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x; \
    if (i < n) { float x = xs[i]; out[i] = (expr); } }

__device__ float ex2_approx(float a) {
  float r;
  asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}

UNARY(cu_scale_folded, x * (16.0f / 17.0f))
UNARY(cu_scale_divided, x / 17.0f * 16.0f)
UNARY(cu_fast_exp_scaled, __expf(x * 0.3f))
UNARY(cu_ex2_scale_prefolded, ex2_approx(x * (0.3f * 1.44269504f)))
UNARY(cu_rsqrt_eps_inside, rsqrtf(x + 1e-5f))
UNARY(cu_rsqrt_eps_outside, rsqrtf(x) + 1e-5f)
UNARY(cu_rsqrt_eps_minus, rsqrtf(x - 1e-5f))
