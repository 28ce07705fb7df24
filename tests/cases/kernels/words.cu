// 64-bit values moved between lanes as two 32-bit words, for the t_word_* cases: CUDA's
// __shfl_xor_sync on a double or a long long splits it into its words (mov.b64 {lo, hi}),
// shuffles each and joins them again; the same by hand through the bits (shift and or).
#include <cuda_runtime.h>

extern "C" __global__ void warp_sum_f64(const double* x, double* out) {
  double v = x[blockIdx.x * 32 + threadIdx.x];
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// The words split and joined by hand: the low word by truncation, the high one by a shift,
// joined by a shift and an or.
extern "C" __global__ void warp_max_f64_bits(const double* x, double* out) {
  double v = x[blockIdx.x * 32 + threadIdx.x];
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    unsigned long long b = static_cast<unsigned long long>(__double_as_longlong(v));
    unsigned lo = __shfl_xor_sync(0xffffffffu, static_cast<unsigned>(b), off);
    unsigned hi = __shfl_xor_sync(0xffffffffu, static_cast<unsigned>(b >> 32), off);
    v = fmax(v, __longlong_as_double(static_cast<long long>((static_cast<unsigned long long>(hi) << 32) | lo)));
  }
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

extern "C" __global__ void serial_sum_f64(const double* x, double* out, int rows) {
  int r = threadIdx.x;
  if (r >= rows) return;
  double s = 0;
  for (int k = 0; k < 32; ++k) s += x[r * 32 + k];
  out[r] = s;
}

extern "C" __global__ void serial_max_f64(const double* x, double* out, int rows) {
  int r = threadIdx.x;
  if (r >= rows) return;
  double m = x[r * 32];
  for (int k = 1; k < 32; ++k) m = fmax(m, x[r * 32 + k]);
  out[r] = m;
}

// A slip: the butterfly stops one step early (lanes 0 and 1 never meet).
extern "C" __global__ void warp_sum_f64_short(const double* x, double* out) {
  double v = x[blockIdx.x * 32 + threadIdx.x];
#pragma unroll
  for (int off = 16; off > 1; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// 64-bit integers shuffled the same way.
extern "C" __global__ void warp_sum_i64(const long long* x, long long* out) {
  long long v = x[blockIdx.x * 32 + threadIdx.x];
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

extern "C" __global__ void serial_sum_i64(const long long* x, long long* out, int rows) {
  int r = threadIdx.x;
  if (r >= rows) return;
  long long s = 0;
  for (int k = 0; k < 32; ++k) s += x[r * 32 + k];
  out[r] = s;
}

// f64 data rounded to f32 for expf: the routine's input is the f64 value (the same number over
// the reals), read through cvt.rn.f32.f64.
extern "C" __global__ void expf_of_f64(const double* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = expf(static_cast<float>(x[i]));
}

extern "C" __global__ void fast_exp_of_f64(const double* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __expf(static_cast<float>(x[i]));
}
