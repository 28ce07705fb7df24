// Naive references for torchao's Triton quantization kernels (fp8 blockwise, row- and column-wise,
// tensorwise scaling and casting, MX block scaling, int8 matmul): one thread per scaling group, row or
// cell, textbook formulas, the absolute maximum as a plain loop, fp8 through cuda_fp8.h's conversions.
#include <cuda_fp8.h>
#include <math.h>

template <typename T> __device__ T to_fp8(float v);
template <> __device__ __nv_fp8_e4m3 to_fp8<__nv_fp8_e4m3>(float v) { return __nv_fp8_e4m3(v); }
template <> __device__ __nv_fp8_e5m2 to_fp8<__nv_fp8_e5m2>(float v) { return __nv_fp8_e5m2(v); }

// The largest |x| of the gm x gk group of x[.][K] whose first element is x[i0][j0].
__device__ float group_amax(const float* x, int K, int i0, int j0, int gm, int gk) {
  float amax = 0.f;
  for (int i = i0; i < i0 + gm; ++i)
    for (int j = j0; j < j0 + gk; ++j) amax = fmaxf(amax, fabsf(x[i * K + j]));
  return amax;
}

// DeepSeek-style blockwise quantization of x[M][K] in groups of gm x gk elements (1 x B for activations,
// B x B for weights): s = amax / 448 of the group, y = x / s in e4m3, s stored at s[gi][gj] row-major.
extern "C" __global__ void quant_amax_over_448(const float* x, __nv_fp8_e4m3* y, float* s, int M, int K, int gm,
                                                int gk) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int gcols = K / gk;
  if (g >= (M / gm) * gcols) return;
  int gi = g / gcols, gj = g % gcols;
  float amax = group_amax(x, K, gi * gm, gj * gk, gm, gk);
  float sc = amax / 448.f;
  for (int i = gi * gm; i < (gi + 1) * gm; ++i)
    for (int j = gj * gk; j < (gj + 1) * gk; ++j) y[i * K + j] = __nv_fp8_e4m3(x[i * K + j] / sc);
  s[g] = sc;
}

// Dequantization of e4m3 weights x[M][N] by one scale per B x B block, s[M/B][N/B]: y = x * s.
extern "C" __global__ void dequant_blocks(const __nv_fp8_e4m3* x, const float* s, float* y, int M, int N, int B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int r = i / N, c = i % N;
  y[i] = float(x[i]) * s[(r / B) * (N / B) + c / B];
}

// fp8 training quantization of x[M][K] in groups of gm x gk (1 x B: activations for the left operand, B x 1:
// for the right one, B x B: weights): scale = fp8_max / max(amax, eps) of the group,
// y = e4m3(clamp(x * scale, -fp8_max, fp8_max)) at y[i ys0 + j ys1], the reciprocal 1 / scale at
// s[gi ss0 + gj ss1] (the strides give the row- or column-major, transposed or not, layouts).
extern "C" __global__ void quant_groups_reciprocal(const float* x, __nv_fp8_e4m3* y, float* s, int M, int K, int gm,
                                                   int gk, int ys0, int ys1, int ss0, int ss1, float fp8_max,
                                                   float eps) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int gcols = K / gk;
  if (g >= (M / gm) * gcols) return;
  int gi = g / gcols, gj = g % gcols;
  float amax = group_amax(x, K, gi * gm, gj * gk, gm, gk);
  float scale = fp8_max / fmaxf(amax, eps);
  for (int i = gi * gm; i < (gi + 1) * gm; ++i)
    for (int j = gj * gk; j < (gj + 1) * gk; ++j)
      y[i * ys0 + j * ys1] = __nv_fp8_e4m3(fminf(fmaxf(x[i * K + j] * scale, -fp8_max), fp8_max));
  s[gi * ss0 + gj * ss1] = 1.f / scale;
}

// Row-wise fp8 scaling of x[R][C] (R = experts x rows): scale[r] = fp8_max / max(amax of row r, eps);
// y = e4m3(clamp(x * scale, -fp8_max, fp8_max)) in x's layout.
extern "C" __global__ void rowwise_scale_cast(const float* x, __nv_fp8_e4m3* y, float* scale, int R, int C,
                                              float fp8_max, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  float amax = 0.f;
  for (int j = 0; j < C; ++j) amax = fmaxf(amax, fabsf(x[r * C + j]));
  float sc = fp8_max / fmaxf(amax, eps);
  scale[r] = sc;
  for (int j = 0; j < C; ++j) y[r * C + j] = __nv_fp8_e4m3(fminf(fmaxf(x[r * C + j] * sc, -fp8_max), fp8_max));
}

// Row-wise fp8 scales only: scale[r] = fp8_max / max(amax of row r, eps).
extern "C" __global__ void rowwise_scales(const float* x, float* scale, int R, int C, float fp8_max, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  float amax = 0.f;
  for (int j = 0; j < C; ++j) amax = fmaxf(amax, fabsf(x[r * C + j]));
  scale[r] = fp8_max / fmaxf(amax, eps);
}

// Tensorwise fp8 cast with a given scale: y = e4m3(clamp(x * scale, lo, hi)), y[i ys0 + j ys1] for x[M][N].
extern "C" __global__ void tensorwise_cast(const float* x, const float* scale, __nv_fp8_e4m3* y, int M, int N,
                                           int ys0, int ys1, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int r = i / N, c = i % N;
  y[r * ys0 + c * ys1] = __nv_fp8_e4m3(fminf(fmaxf(x[i] * scale[0], lo), hi));
}

// The same cast written twice, row-major y[M][N] and column-major yt (yt[c M + r]).
extern "C" __global__ void tensorwise_cast_both(const float* x, const float* scale, __nv_fp8_e4m3* y,
                                                __nv_fp8_e4m3* yt, int M, int N, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int r = i / N, c = i % N;
  __nv_fp8_e4m3 v = __nv_fp8_e4m3(fminf(fmaxf(x[i] * scale[0], lo), hi));
  y[i] = v;
  yt[c * M + r] = v;
}

// Tensorwise fp8 scale: scale = fp8_max / max(amax of x[n], eps).
extern "C" __global__ void tensorwise_scale(const float* x, float* scale, int n, float fp8_max, float eps) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float amax = 0.f;
  for (int i = 0; i < n; ++i) amax = fmaxf(amax, fabsf(x[i]));
  scale[0] = fp8_max / fmaxf(amax, eps);
}

// Integer matmul: c[M][N] = a[M][K] b[K][N] with int8 operands, int32 accumulation.
extern "C" __global__ void int8_matmul(const signed char* a, const signed char* b, int* c, int M, int N, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int r = i / N, col = i % N;
  int acc = 0;
  for (int k = 0; k < K; ++k) acc += int(a[r * K + k]) * int(b[k * N + col]);
  c[i] = acc;
}

// The same with the int32 product scaled per row: c = float(a b) * s[r].
extern "C" __global__ void int8_matmul_row_scaled(const signed char* a, const signed char* b, const float* s,
                                                  float* c, int M, int N, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int r = i / N, col = i % N;
  int acc = 0;
  for (int k = 0; k < K; ++k) acc += int(a[r * K + k]) * int(b[k * N + col]);
  c[i] = float(acc) * s[r];
}

// Rearrangement of a rows x cols tensor of 8-bit block scales into cuBLAS's block-scaled layout: the tensor
// padded (with 0) to 128-row x 4-column tiles; tile (tr, tc) occupies 512 bytes at tr (512 tiles_per_row) +
// tc 512, and its element (r, c) goes to (r mod 32) 16 + (r / 32) 4 + c there. One thread per padded cell.
extern "C" __global__ void mx_scale_swizzle(const unsigned char* in, unsigned char* out, int rows, int cols,
                                            int padded_rows, int padded_cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= padded_rows * padded_cols) return;
  int R = i / padded_cols, C = i % padded_cols;
  int tr = R / 128, tc = C / 4, r = R % 128, c = C % 4;
  int tiles_per_row = padded_cols / 4;
  out[tr * 512 * tiles_per_row + tc * 512 + (r % 32) * 16 + (r / 32) * 4 + c] =
      (R < rows && C < cols) ? in[R * cols + C] : 0;
}
