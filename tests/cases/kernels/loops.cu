// Math routines inside loops (t_loop_* cases). Stepping over a recognized routine must keep the
// loop's own control flow: the accumulation after the routine, the back edge, the exit. nvcc
// rotates these loops and lays a routine's rare-path blocks before or after its body.
// One thread per row of n values; out[row] gets the row's accumulation.
#define ROW_LOOP(name, init, step)                                                            \
  extern "C" __global__ void name(const float* __restrict__ x, const float* __restrict__ y, \
                                  float* __restrict__ out, int n) {                          \
    int row = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    float s = (init);                                                                       \
    for (int j = 0; j < n; ++j) {                                                           \
      float a = x[row * n + j], b = y[row * n + j];                                         \
      (void)a; (void)b;                                                                     \
      step;                                                                                 \
    }                                                                                       \
    out[row] = s;                                                                           \
  }
#define ROW_LOOP_ROLLED(name, init, step)                                                     \
  extern "C" __global__ void name(const float* __restrict__ x, const float* __restrict__ y, \
                                  float* __restrict__ out, int n) {                          \
    int row = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    float s = (init);                                                                       \
    _Pragma("unroll 1") for (int j = 0; j < n; ++j) {                                       \
      float a = x[row * n + j], b = y[row * n + j];                                         \
      (void)a; (void)b;                                                                     \
      step;                                                                                 \
    }                                                                                       \
    out[row] = s;                                                                           \
  }

ROW_LOOP(cu_loop_sum_log, 0.0f, s += logf(a))
ROW_LOOP_ROLLED(cu_loop_sum_log_rolled, 0.0f, s += logf(a))
ROW_LOOP(cu_loop_sum_log_skip_last, 0.0f, if (j + 1 < n) s += logf(a))
ROW_LOOP(cu_loop_kl_div, 0.0f, s += b * (logf(b) - a))
ROW_LOOP_ROLLED(cu_loop_kl_div_rolled, 0.0f, s += b * (logf(b) - a))
ROW_LOOP(cu_loop_kl_div_swapped, 0.0f, s += a * (logf(b) - a))
ROW_LOOP_ROLLED(cu_loop_exp_fma, 0.0f, s = fmaf(expf(a), b, s))
ROW_LOOP(cu_loop_exp_fma_unrolled, 0.0f, s = fmaf(expf(a), b, s))
ROW_LOOP_ROLLED(cu_loop_exp_fma_wrong_weight, 0.0f, s = fmaf(expf(a), a, s))
ROW_LOOP_ROLLED(cu_loop_tanh_sum, 0.0f, s += tanhf(a))
ROW_LOOP_ROLLED(cu_loop_erf_sum, 0.0f, s += erff(a))
ROW_LOOP_ROLLED(cu_loop_tanh_prod, 1.0f, s *= 1.0f + tanhf(a))
ROW_LOOP(cu_loop_log_over_erf, 0.0f, s += tanhf(logf(a) / erff(b)))
ROW_LOOP(cu_loop_log_over_erf_wrong, 0.0f, s += tanhf(logf(b) / erff(b)))
ROW_LOOP(cu_loop_log_plus_erf, 0.0f, s += logf(b) + erff(a / b))
ROW_LOOP(cu_loop_erf_alone, 0.0f, s += erff(a / b))

extern "C" __global__ void cu_store_zero(const float* __restrict__, const float* __restrict__,
                                         float* __restrict__ out, int) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

// One more routine after the loop, on the loop's running value (t_loop_15, 16): its input was
// last written where the loop's own routine was stepped over.
#define ROW_LOOP_THEN(name, first, pragma, step, post)                                      \
  extern "C" __global__ void name(const float* __restrict__ x, const float* __restrict__ y, \
                                  float* __restrict__ out, int n) {                          \
    int row = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    float s = __int_as_float(0x7f800000);                                                   \
    _Pragma(pragma) for (int j = (first); j < n; ++j) {                                     \
      float a = x[row * n + j];                                                             \
      step;                                                                                 \
    }                                                                                       \
    out[row] = (post);                                                                      \
  }

ROW_LOOP_THEN(cu_loop_exp_of_min_erf, 0, "unroll 1", s = fminf(s, erff(a)), expf(s))
ROW_LOOP_THEN(cu_loop_exp_of_min_erf_unrolled, 0, "unroll 4", s = fminf(s, erff(a)), expf(s))
ROW_LOOP_THEN(cu_loop_exp_of_min_erf_skip_first, 1, "unroll 4", s = fminf(s, erff(a)), expf(s))
ROW_LOOP_THEN(cu_loop_erf_of_min_exp, 0, "unroll 1", s = fminf(s, expf(a)), erff(s))
ROW_LOOP_THEN(cu_loop_erf_of_min_exp_skip_first, 1, "unroll 1", s = fminf(s, expf(a)), erff(s))

// logf of a loop-invariant value inside a loop (t_loop_17, 18): nvcc hoists the routine's
// polynomial out of the loop and repeats its special cases in each unrolled iteration.
// out[row, j] = x[row, j] - log(sum of the row), with the logarithm in or before the loop.
#define ROW_MINUS_LOG(name, in_loop, arg)                                                   \
  extern "C" __global__ void name(const float* __restrict__ x, const float* __restrict__ y, \
                                  float* __restrict__ out, int n) {                          \
    int row = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    float s = 0.0f;                                                                         \
    for (int j = 0; j < n; ++j) s += x[row * n + j];                                        \
    float l = in_loop ? 0.0f : logf(arg);                                                   \
    for (int j = 0; j < n; ++j) out[row * n + j] = x[row * n + j] - (in_loop ? logf(arg) : l); \
  }

ROW_MINUS_LOG(cu_minus_log_in_loop, true, s)
ROW_MINUS_LOG(cu_minus_log_before_loop, false, s)
ROW_MINUS_LOG(cu_minus_log_in_loop_shifted, true, s + 1.0f)

// Two loop-invariant logfs in one loop (t_loop_19, 20): each routine's tail is interleaved with
// the other's, whose branches depend on other data.
#define ROW_MINUS_TWO_LOGS(name, in_loop, u)                                                 \
  extern "C" __global__ void name(const float* __restrict__ x, const float* __restrict__ y, \
                                  float* __restrict__ out, int n) {                          \
    int row = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    float s = 0.0f, t = 0.0f;                                                               \
    for (int j = 0; j < n; ++j) s += x[row * n + j], t += y[row * n + j];                   \
    float ls = in_loop ? 0.0f : logf(s), lt = in_loop ? 0.0f : logf(u);                     \
    for (int j = 0; j < n; ++j)                                                             \
      out[row * n + j] = x[row * n + j] - (in_loop ? logf(s) : ls) - (in_loop ? logf(u) : lt); \
  }

ROW_MINUS_TWO_LOGS(cu_minus_two_logs_in_loop, true, t)
ROW_MINUS_TWO_LOGS(cu_minus_two_logs_before_loop, false, t)
ROW_MINUS_TWO_LOGS(cu_minus_two_logs_in_loop_shifted, true, t + 1.0f)

// log of a row's maximum after the loop (t_loop_21, 22), against Triton's.
extern "C" __global__ void cu_log_of_max_exp(const float* __restrict__ x, const float* __restrict__ y,
                                             float* __restrict__ out, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = -__int_as_float(0x7f800000);
  for (int j = 0; j < n; ++j) s = fmaxf(s, expf(tanhf(erff(x[row * n + j]) - y[row * n + j])));
  out[row] = logf(s);
}

// A routine on one side of a data-dependent branch whose own rare path ends where the branch's
// paths meet (t_loop_23, 24): erff's merge point is the ternary's.
#define ROW_MAX_WHERE_ERF(name, arg)                                                         \
  extern "C" __global__ void name(const float* __restrict__ x, const float* __restrict__ y, \
                                  float* __restrict__ out, int n) {                          \
    int row = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    float s = __int_as_float(0x7f800000);                                                   \
    for (int j = 0; j < n; ++j) {                                                           \
      float a = x[row * n + j], b = y[row * n + j];                                         \
      s = fminf(s, -(a < b ? erff(arg) : (b * a) * (b + a)));                               \
    }                                                                                       \
    out[row] = -s;                                                                          \
  }

ROW_MAX_WHERE_ERF(cu_max_where_erf, a - b)
ROW_MAX_WHERE_ERF(cu_max_where_erf_wrong, b - a)

extern "C" __global__ void cu_max_where_erf_select(const float* __restrict__ x, const float* __restrict__ y,
                                                   float* __restrict__ out, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = -__int_as_float(0x7f800000);
  for (int j = 0; j < n; ++j) {
    float a = x[row * n + j], b = y[row * n + j];
    float e = erff(a - b), p = (b * a) * (b + a);
    s = fmaxf(s, a < b ? e : p);
  }
  out[row] = s;
}
