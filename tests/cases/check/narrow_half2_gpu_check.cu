// Runs the t_narrow_* and t_half2_* pairs on a GPU at random inputs and prints, per case, at how
// many of the trials the outputs differ (as numbers: -0 and +0 are one real).
//   nvcc -arch=sm_90 -O3 tests/cases/check/narrow_half2_gpu_check.cu -o narrow_half2_gpu_check && ./narrow_half2_gpu_check
#include <cstdio>
#include <random>
#include <vector>

#include "../kernels/half2.cu"
#include "../kernels/narrow.cu"

namespace {

constexpr int kTrials = 200;
std::mt19937 rng(7);

template <class T>
T* device(const std::vector<T>& h) {
  T* d;
  cudaMalloc(&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <class T>
std::vector<T> host(const T* d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

std::vector<float> uniform(size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

template <class T, class F>
bool numbers_differ(const std::vector<T>& a, const std::vector<T>& b, F as_float) {
  for (size_t i = 0; i < a.size(); ++i)
    if (as_float(a[i]) != as_float(b[i])) return true;
  return false;
}

}  // namespace

int main() {
  int counts[9] = {};
  for (int t = 0; t < kTrials; ++t) {
    auto same = [](auto v) { return static_cast<float>(v); };
    {  // t_narrow_01
      float* x = device(uniform(64, -400, 400));
      signed char* q;
      cudaMalloc(&q, 64);
      narrow_cast<<<1, 64>>>(x, q, 64);
      auto a = host(q, 64);
      narrow_clamp<<<1, 64>>>(x, q, 64);
      counts[0] += numbers_differ(a, host(q, 64), same);
      cudaFree(x), cudaFree(q);
    }
    {  // t_narrow_02
      float* x = device(uniform(128, -4, 4));
      signed char* q;
      cudaMalloc(&q, 32);
      argmax_byte_loop<<<1, 32>>>(x, q, 100, 32);
      auto a = host(q, 32);
      argmax_byte_tree<<<1, 32>>>(x, q, 100, 32);
      counts[1] += numbers_differ(a, host(q, 32), same);
      cudaFree(x), cudaFree(q);
    }
    {  // t_narrow_03 and t_narrow_04
      std::uniform_int_distribution<int> tok(0, 1000);
      std::vector<int> ht(128);
      for (int& v : ht) v = tok(rng);
      float* x = device(uniform(32, -1, 1));
      int *tk = device(ht), *out;
      cudaMalloc(&out, 32 * sizeof(int));
      pick_or_none_loop<<<1, 32>>>(x, tk, out, 32);
      auto a = host(out, 32);
      pick_or_none_select<<<1, 32>>>(x, tk, out, 32);
      counts[2] += numbers_differ(a, host(out, 32), same);
      pick_or_zero_select<<<1, 32>>>(x, tk, out, 32);
      counts[3] += numbers_differ(a, host(out, 32), same);
      cudaFree(x), cudaFree(tk), cudaFree(out);
    }
    {  // t_narrow_05
      std::uniform_int_distribution<int> byte(0, 255);
      std::vector<unsigned char> hb(32);
      for (auto& v : hb) v = static_cast<unsigned char>(byte(rng));
      unsigned char* p = device(hb);
      int* out;
      cudaMalloc(&out, 64 * sizeof(int));
      nibbles_by_shift<<<1, 64>>>(p, out, 64);
      auto a = host(out, 64);
      nibbles_by_select<<<1, 64>>>(p, out, 64);
      counts[4] += numbers_differ(a, host(out, 64), same);
      cudaFree(p), cudaFree(out);
    }
    auto f16 = [](__half h) { return __half2float(h); };
    auto bf16 = [](__nv_bfloat16 h) { return __bfloat162float(h); };
    {  // t_half2_01 and t_half2_02: y is read and written, so each run starts from the same y
      std::vector<__half> hx(64), hy(64);
      auto fx = uniform(64, -4, 4), fy = uniform(64, -4, 4);
      for (int i = 0; i < 64; ++i) hx[i] = __float2half_rn(fx[i]), hy[i] = __float2half_rn(fy[i]);
      __half* x = device(hx);
      __half* y = device(hy);
      axpy_half<<<1, 64>>>(x, y, 1.5f, 64);
      auto ref = host(y, 64);
      cudaMemcpy(y, hy.data(), 64 * sizeof(__half), cudaMemcpyHostToDevice);
      axpy_half2<<<1, 32>>>(reinterpret_cast<const __half2*>(x), reinterpret_cast<__half2*>(y), 1.5f, 32);
      counts[5] += numbers_differ(ref, host(y, 64), f16);
      cudaMemcpy(y, hy.data(), 64 * sizeof(__half), cudaMemcpyHostToDevice);
      axpy_half2_swapped<<<1, 32>>>(reinterpret_cast<const __half2*>(x), reinterpret_cast<__half2*>(y), 1.5f, 32);
      counts[6] += numbers_differ(ref, host(y, 64), f16);
      cudaFree(x), cudaFree(y);
    }
    {  // t_half2_03 and t_half2_04
      std::vector<__nv_bfloat16> hx(64), hb(64);
      auto fx = uniform(64, -4, 4), fb = uniform(64, -4, 4);
      for (int i = 0; i < 64; ++i) hx[i] = __float2bfloat16_rn(fx[i]), hb[i] = __float2bfloat16_rn(fb[i]);
      __nv_bfloat16 *x = device(hx), *b = device(hb), *y;
      cudaMalloc(&y, 64 * sizeof(__nv_bfloat16));
      bias_relu_bf16<<<1, 64>>>(x, b, y, 64);
      auto ref = host(y, 64);
      bias_relu_bf162<<<1, 32>>>(reinterpret_cast<const __nv_bfloat162*>(x), reinterpret_cast<const __nv_bfloat162*>(b),
                                 reinterpret_cast<__nv_bfloat162*>(y), 32);
      counts[7] += numbers_differ(ref, host(y, 64), bf16);
      bias_relu_bf162_mul<<<1, 32>>>(reinterpret_cast<const __nv_bfloat162*>(x), reinterpret_cast<const __nv_bfloat162*>(b),
                                     reinterpret_cast<__nv_bfloat162*>(y), 32);
      counts[8] += numbers_differ(ref, host(y, 64), bf16);
      cudaFree(x), cudaFree(b), cudaFree(y);
    }
  }
  const char* names[9] = {"t_narrow_01 (inequivalent)", "t_narrow_02 (equivalent)", "t_narrow_03 (equivalent)",
                          "t_narrow_04 (inequivalent)", "t_narrow_05 (equivalent)", "t_half2_01 (equivalent)",
                          "t_half2_02 (inequivalent)", "t_half2_03 (equivalent)", "t_half2_04 (inequivalent)"};
  for (int k = 0; k < 9; ++k) std::printf("%-28s differs in %3d of %d trials\n", names[k], counts[k], kTrials);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
