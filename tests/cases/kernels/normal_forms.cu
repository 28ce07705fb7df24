// Row reductions written two ways that the normal form must meet (t_nf_* cases): one thread per
// row of n values in x, y, z; out[row] gets the row's reduction.
#define ROW_MAX(name, term)                                                                     \
  extern "C" __global__ void name(const float* __restrict__ x, const float* __restrict__ y,   \
                                  const float* __restrict__ z, float* __restrict__ out, int n) { \
    int row = blockIdx.x * blockDim.x + threadIdx.x;                                          \
    float s = -__int_as_float(0x7f800000);                                                    \
    for (int j = 0; j < n; ++j) {                                                             \
      float a = x[row * n + j], b = y[row * n + j], c = z[row * n + j];                       \
      (void)a; (void)b; (void)c;                                                              \
      s = fmaxf(s, (term));                                                                   \
    }                                                                                         \
    out[row] = s;                                                                             \
  }

__device__ __forceinline__ float pick(float a, float b, float c) { return c < 1.125f ? expf(b) : fmaf(a, c, -1.0f); }
__device__ __forceinline__ float pick_neg(float a, float b, float c) { float w = pick(a, b, c); return fmaxf(w, -w); }

// |w| by fabsf against fmaxf(w, -w): a row's max of the latter flattens into one max of w and -w.
ROW_MAX(nf_row_max_fabs, fabsf(pick(a, b, c)))
ROW_MAX(nf_row_max_fmax_neg, pick_neg(a, b, c))
ROW_MAX(nf_row_max_fmax_neg_shifted, fmaxf(pick(a, b, c), 0.125f - pick(a, b, c)))

// tanh of a where (nvcc hoists tanhf out of it) against tanh taken in each branch by hand.
ROW_MAX(nf_row_max_tanh_of_where, tanhf(c > b ? -a : fmaf(b, b, b) - c))
ROW_MAX(nf_row_max_where_of_tanh, c > b ? -((expf(2.0f * a) - 1.0f) / (expf(2.0f * a) + 1.0f))
                                        : (expf(2.0f * (fmaf(b, b, b) - c)) - 1.0f) / (expf(2.0f * (fmaf(b, b, b) - c)) + 1.0f))
ROW_MAX(nf_row_max_where_of_tanh_wrong, c > b ? (expf(2.0f * a) - 1.0f) / (expf(2.0f * a) + 1.0f)
                                              : (expf(2.0f * (fmaf(b, b, b) - c)) - 1.0f) / (expf(2.0f * (fmaf(b, b, b) - c)) + 1.0f))
