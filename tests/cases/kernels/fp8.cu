// fp8 (e4m3) quantization and dequantization for the t_fp8_* cases: cuda_fp8.h converts
// through cvt.rn.satfinite.e4m3x2.f32 (two lanes of one 16-bit register) and back through
// cvt.rn.f16x2.e4m3x2; a byte is stored with st.u8 (the register's low lane), a pair with one
// 16-bit store. Each kernel handles cells i < n (pairs: i < n / 2).
#include <cuda_fp8.h>

#define INDEX int i = blockIdx.x * blockDim.x + threadIdx.x

// y = e4m3(x s): the conversion saturates at 448.
extern "C" __global__ void fp8_quant(const float* x, const float* s, __nv_fp8_e4m3* y, int n) {
  INDEX;
  if (i < n) y[i] = __nv_fp8_e4m3(x[i] * s[0]);
}

// The clamp written out before the conversion.
extern "C" __global__ void fp8_quant_clamped(const float* x, const float* s, __nv_fp8_e4m3* y, int n) {
  INDEX;
  if (i < n) y[i] = __nv_fp8_e4m3(fminf(fmaxf(x[i] * s[0], -448.0f), 448.0f));
}

// Clamped at 240 (the largest e4m3fnuz value): differs from 448's clamp where |x s| > 240.
extern "C" __global__ void fp8_quant_clamp240(const float* x, const float* s, __nv_fp8_e4m3* y, int n) {
  INDEX;
  if (i < n) y[i] = __nv_fp8_e4m3(fminf(fmaxf(x[i] * s[0], -240.0f), 240.0f));
}

// Two cells per thread: one pair conversion, one 16-bit store.
extern "C" __global__ void fp8_quant_pairs(const float* x, const float* s, __nv_fp8x2_e4m3* y, int n) {
  INDEX;
  if (2 * i + 1 < n) y[i] = __nv_fp8x2_e4m3(make_float2(x[2 * i] * s[0], x[2 * i + 1] * s[0]));
}

// The pair's lanes swapped: cell 2i gets x[2i + 1] s.
extern "C" __global__ void fp8_quant_pairs_swapped(const float* x, const float* s, __nv_fp8x2_e4m3* y, int n) {
  INDEX;
  if (2 * i + 1 < n) y[i] = __nv_fp8x2_e4m3(make_float2(x[2 * i + 1] * s[0], x[2 * i] * s[0]));
}

// y = float(x) s.
extern "C" __global__ void fp8_dequant(const __nv_fp8_e4m3* x, const float* s, float* y, int n) {
  INDEX;
  if (i < n) y[i] = float(x[i]) * s[0];
}

// Two cells per thread, read with one 16-bit load and widened as a pair.
extern "C" __global__ void fp8_dequant_pairs(const __nv_fp8x2_e4m3* x, const float* s, float* y, int n) {
  INDEX;
  if (2 * i + 1 < n) {
    float2 v = float2(x[i]);
    y[2 * i] = v.x * s[0];
    y[2 * i + 1] = v.y * s[0];
  }
}

// The pair read from the wrong place: cell 2i + 1 gets x[2i] s too.
extern "C" __global__ void fp8_dequant_pairs_low_twice(const __nv_fp8x2_e4m3* x, const float* s, float* y, int n) {
  INDEX;
  if (2 * i + 1 < n) {
    float2 v = float2(x[i]);
    y[2 * i] = v.x * s[0];
    y[2 * i + 1] = v.x * s[0];
  }
}

// A round trip through fp8 in shared memory: e4m3(x s) stored by one thread, read by its
// neighbour after a barrier, widened and scaled back.
extern "C" __global__ void fp8_roundtrip_shared(const float* x, const float* s, float* y, int n) {
  __shared__ __nv_fp8_e4m3 tile[64];
  INDEX;
  int t = threadIdx.x;
  tile[t] = __nv_fp8_e4m3(i < n ? x[i] * s[0] : 0.0f);
  __syncthreads();
  int j = blockIdx.x * blockDim.x + (t ^ 1);
  if (j < n) y[j] = float(tile[t ^ 1]) / s[0];
}

// The same through registers alone.
extern "C" __global__ void fp8_roundtrip(const float* x, const float* s, float* y, int n) {
  INDEX;
  if (i < n) y[i] = float(__nv_fp8_e4m3(x[i] * s[0])) / s[0];
}

// Four cells per thread as vLLM's scaled_fp8_quant writes them: a vector of four e4m3 stored
// with st.v4.u8 (each element the low lane of its conversion's register).
template <typename T>
struct __align__(4) Vec4 {
  T x, y, z, w;
};
extern "C" __global__ void fp8_quant_vec4(const float* x, const float* s, __nv_fp8_e4m3* y, int n) {
  INDEX;
  if (4 * i + 3 < n) {
    Vec4<float> v = reinterpret_cast<const Vec4<float>*>(x)[i];
    auto q = [&](float a) { return __nv_fp8_e4m3(fminf(fmaxf(a * s[0], -448.0f), 448.0f)); };
    reinterpret_cast<Vec4<__nv_fp8_e4m3>*>(y)[i] = Vec4<__nv_fp8_e4m3>{q(v.x), q(v.y), q(v.z), q(v.w)};
  }
}
