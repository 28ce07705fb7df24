// Math routines for the t_math_* cases: nvcc inlines expf, logf, sinf, erff, tanhf, ... as
// polynomial / range-reduction sequences; Racer must recognize them and read them as the real
// function. Each kernel: out[i] = f(x[i]) (or f(x[i], y[i])) for i < n.
#define UNARY(name, expr) \
  extern "C" __global__ void name(const float* __restrict__ xs, float* __restrict__ out, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x; \
    if (i < n) { float x = xs[i]; out[i] = (expr); } }
#define BINARY(name, expr) \
  extern "C" __global__ void name(const float* __restrict__ xs, const float* __restrict__ ys, \
                                  float* __restrict__ out, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x; \
    if (i < n) { float x = xs[i]; float y = ys[i]; out[i] = (expr); } }

UNARY(cu_expf, expf(x))
UNARY(cu_exp2f, exp2f(x))
UNARY(cu_expm1f, expm1f(x))
UNARY(cu_logf, logf(x))
UNARY(cu_log2f, log2f(x))
UNARY(cu_log1pf, log1pf(x))
UNARY(cu_sqrtf, sqrtf(x))
UNARY(cu_rsqrtf, rsqrtf(x))
UNARY(cu_recip, 1.0f / x)
BINARY(cu_div, x / y)
UNARY(cu_erff, erff(x))
UNARY(cu_tanhf, tanhf(x))
UNARY(cu_sinf, sinf(x))
UNARY(cu_cosf, cosf(x))
UNARY(cu_pow2, powf(x, 2.0f))
UNARY(cu_pow_half, powf(x, 0.5f))
UNARY(cu_fast_expf, __expf(x))
UNARY(cu_fast_logf, __logf(x))
UNARY(cu_sigmoid, 1.0f / (1.0f + expf(-x)))
UNARY(cu_softplus, log1pf(expf(x)))
UNARY(cu_gelu_erf, 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)))
// near misses (differences below 1e-6 relative)
UNARY(cu_rsqrt_eps_in, 1.0f / sqrtf(x + 1e-7f))
UNARY(cu_rsqrt_eps_out, 1.0f / sqrtf(x) + 1e-7f)
UNARY(cu_exp_scaled, expf(x) * (1.0f + 1e-7f))
UNARY(cu_log_eps, logf(x + 1e-8f))
UNARY(cu_exp_via_exp2, exp2f(x * 1.44269504f))
UNARY(cu_softplus_threshold, x > 20.0f ? x : log1pf(expf(x)))
// boundaries and identities
UNARY(cu_exp_pos_strict, x > 0.0f ? expf(x) : 0.0f)
UNARY(cu_exp_pos_nonstrict, x >= 0.0f ? expf(x) : 0.0f)
UNARY(cu_relu_fmax, fmaxf(x, 0.0f))
UNARY(cu_relu_select, x > 0.0f ? x : 0.0f)
UNARY(cu_elu_strict, x > 0.0f ? x : expm1f(x))
UNARY(cu_elu_nonstrict, x >= 0.0f ? x : expm1f(x))
UNARY(cu_sigmoid_stable, x >= 0.0f ? 1.0f / (1.0f + expf(-x)) : expf(x) / (1.0f + expf(x)))
UNARY(cu_sigmoid_stable_bug, x >= 0.0f ? 1.0f / (1.0f + expf(-x)) : 1.0f / (1.0f + expf(x)))
UNARY(cu_tanh_via_sigmoid, 2.0f / (1.0f + expf(-2.0f * x)) - 1.0f)
UNARY(cu_sin2_cos2, sinf(x) * sinf(x) + cosf(x) * cosf(x))
UNARY(cu_one, 1.0f)
UNARY(cu_sqrt_square, sqrtf(x * x))
UNARY(cu_fabs, fabsf(x))

// softplus of a margin d = log(e^x + e^y) - x - y, either sign, in the form that never overflows,
// max(d, 0) + log1p(e^-|d|), against log(e^(x + y) + e^x + e^y) - x - y (t_math_45/46): where max
// and |d| tie (d = 0) the pieces meet on a set of measure zero, and the conditions on d are
// conditions on a log.
__device__ float margin(float x, float y) { return logf(expf(x) + expf(y)) - x - y; }
BINARY(cu_softplus_margin_stable, fmaxf(margin(x, y), 0.0f) + log1pf(expf(-fabsf(margin(x, y)))))
BINARY(cu_softplus_margin_no_abs, fmaxf(margin(x, y), 0.0f) + log1pf(expf(-margin(x, y))))
BINARY(cu_softplus_margin_plain, logf(expf(x + y) + expf(x) + expf(y)) - x - y)
