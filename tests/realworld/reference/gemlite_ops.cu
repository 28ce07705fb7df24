// Naive references for gemlite's low-bit matmuls: C[M][N] = A[M][K] W[K][N], where W is dequantized from
// low-bit integer codes with per-group scales (and zero points). One thread per output cell, f32 accumulation
// in k order, the output rounded once at the store.
//
// The codes: an nbits-bit code for (k, n) sits in the 32-bit word w[k / e][n] (e = 32 / nbits codes per word,
// row-major [K / e][N]), at bit (k % e) * nbits, read as an unsigned field. Unpacked 8-bit weights are int8 in
// the [N][K] layout of a linear layer's weight.
//
// How a code q of group g = k / group becomes a weight (in the scales' own type, each step rounded to it):
//   MODE_NONE        q
//   MODE_SHIFT       q - z[g][n]
//   MODE_SCALE       q s[g][n]
//   MODE_SUB_SCALE   (q - z[g][n]) s[g][n]            (z the zero point)
//   MODE_FMA         q s[g][n] + z[g][n]   fused       (z the zero point already multiplied by -s)
//   MODE_SUB_INT     (q - zi) s[g][n]                   (zi one integer zero point, subtracted as an integer)
// A per-output-channel scale cs[n] (nullptr: none) multiplies the finished dot product.
#include <cuda_fp16.h>
#include "float_formats.cuh"

enum { MODE_NONE = 0, MODE_SHIFT = 1, MODE_SCALE = 2, MODE_SUB_SCALE = 3, MODE_FMA = 4, MODE_SUB_INT = 5 };

__device__ float from_int(int q, float) { return (float)q; }
__device__ __half from_int(int q, __half) { return __int2half_rn(q); }
__device__ float sub(float x, float y) { return x - y; }
__device__ __half sub(__half x, __half y) { return __hsub(x, y); }
__device__ float mul(float x, float y) { return x * y; }
__device__ __half mul(__half x, __half y) { return __hmul(x, y); }
__device__ float fma_(float x, float y, float z) { return fmaf(x, y, z); }
__device__ __half fma_(__half x, __half y, __half z) { return __hfma(x, y, z); }

__device__ int packed_code(const int* w, int k, int n, int N, int nbits) {
  int e = 32 / nbits;
  unsigned word = (unsigned)w[(k / e) * N + n];
  unsigned field = (word >> ((k % e) * nbits)) & ((1u << nbits) - 1u);
  return (int)field;
}

template <typename S>
__device__ S dequant(int q, const S* s, const S* z, int zi, int gi, int mode) {
  S one = from_int(q, S());
  switch (mode) {
    case MODE_SHIFT: return sub(one, z[gi]);
    case MODE_SCALE: return mul(one, s[gi]);
    case MODE_SUB_SCALE: return mul(sub(one, z[gi]), s[gi]);
    case MODE_FMA: return fma_(one, s[gi], z[gi]);
    case MODE_SUB_INT: return mul(from_int(q - zi, S()), s[gi]);
    default: return one;
  }
}

// Packed codes: w [K / (32 / nbits)][N] int32; s, z [K / group][N]; cs [N] or nullptr.
template <typename T, typename S, typename O>
__device__ void qmatmul_packed(const T* a, const int* w, const S* s, const S* z, int zi, const S* cs, O* c, int M,
                               int N, int K, int nbits, int group, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) {
    S wk = dequant(packed_code(w, k, n, N, nbits), s, z, zi, (k / group) * N + n, mode);
    acc += as_float(a[m * K + k]) * as_float(wk);
  }
  if (cs) acc = as_float(mul(from_float<S>(acc), cs[n]));
  c[i] = from_float<O>(acc);
}

extern "C" __global__ void qmatmul_packed_f16(const __half* a, const int* w, const __half* s, const __half* z, int zi,
                                              const __half* cs, __half* c, int M, int N, int K, int nbits, int group,
                                              int mode) {
  qmatmul_packed<__half, __half, __half>(a, w, s, z, zi, cs, c, M, N, K, nbits, group, mode);
}

// f16 activations and meta data, f32 output (GemLiteLinearTriton's output_dtype FP32)
extern "C" __global__ void qmatmul_packed_f16_f32(const __half* a, const int* w, const __half* s, const __half* z,
                                                  int zi, const __half* cs, float* c, int M, int N, int K, int nbits,
                                                  int group, int mode) {
  qmatmul_packed<__half, __half, float>(a, w, s, z, zi, cs, c, M, N, K, nbits, group, mode);
}

extern "C" __global__ void qmatmul_packed_f32(const float* a, const int* w, const float* s, const float* z, int zi,
                                              const float* cs, float* c, int M, int N, int K, int nbits, int group,
                                              int mode) {
  qmatmul_packed<float, float, float>(a, w, s, z, zi, cs, c, M, N, K, nbits, group, mode);
}

// Unpacked int8 weights w [N][K] (a linear layer's weight), scales per group as above.
template <typename T, typename S, typename O>
__device__ void qmatmul_int8(const T* a, const signed char* w, const S* s, const S* z, const S* cs, O* c, int M, int N,
                             int K, int group, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int m = i / N, n = i % N;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) {
    S wk = dequant((int)w[n * K + k], s, z, 0, (k / group) * N + n, mode);
    acc += as_float(a[m * K + k]) * as_float(wk);
  }
  if (cs) acc = as_float(mul(from_float<S>(acc), cs[n]));
  c[i] = from_float<O>(acc);
}

extern "C" __global__ void qmatmul_int8_f16(const __half* a, const signed char* w, const __half* s, const __half* z,
                                            const __half* cs, __half* c, int M, int N, int K, int group, int mode) {
  qmatmul_int8<__half, __half, __half>(a, w, s, z, cs, c, M, N, K, group, mode);
}

extern "C" __global__ void qmatmul_int8_f16_f32(const __half* a, const signed char* w, const __half* s,
                                                const __half* z, const __half* cs, float* c, int M, int N, int K,
                                                int group, int mode) {
  qmatmul_int8<__half, __half, float>(a, w, s, z, cs, c, M, N, K, group, mode);
}
