// Runs the t_fp8_* pairs on a GPU at random inputs (x in [-8, 8], s in [1, 100], as the cases
// declare) and prints, per case, how many output bytes differ between the two kernels: the
// cases' expected verdicts seen on hardware. emulate.py does not model fp8.
//   nvcc -arch=sm_90 -O3 tests/cases/check/fp8_gpu_check.cu -o fp8_gpu_check && ./fp8_gpu_check
#include <cstdio>
#include <cstring>
#include <random>

#include "../kernels/fp8.cu"

namespace {

constexpr int kN = 64;
constexpr int kTrials = 200;

using QuantKernel = void (*)(const float*, const float*, __nv_fp8_e4m3*, int);
using PairKernel = void (*)(const float*, const float*, __nv_fp8x2_e4m3*, int);
using DequantKernel = void (*)(const __nv_fp8_e4m3*, const float*, float*, int);
using DequantPairKernel = void (*)(const __nv_fp8x2_e4m3*, const float*, float*, int);
using RoundTripKernel = void (*)(const float*, const float*, float*, int);

struct Buffers {
  float *x, *s, *yf;
  unsigned char *xb, *yb;
};

// Launches one side of a case; `kind` says which signature its kernel has.
template <typename Launch>
void side(Launch launch, unsigned char* out, size_t bytes, Buffers& b) {
  cudaMemset(b.yb, 0, kN);
  cudaMemset(b.yf, 0, kN * sizeof(float));
  launch();
  cudaDeviceSynchronize();
  cudaMemcpy(out, bytes == kN ? static_cast<void*>(b.yb) : static_cast<void*>(b.yf), bytes, cudaMemcpyDeviceToHost);
}

}  // namespace

int main() {
  Buffers b;
  cudaMalloc(&b.x, kN * sizeof(float));
  cudaMalloc(&b.s, sizeof(float));
  cudaMalloc(&b.yf, kN * sizeof(float));
  cudaMalloc(&b.xb, kN);
  cudaMalloc(&b.yb, kN);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> ux(-8.0f, 8.0f), us(1.0f, 100.0f);
  std::uniform_int_distribution<int> ubyte(0, 255);
  struct Case {
    const char* name;
    int diffs = 0, trials_differing = 0;
  } cases[8] = {{"t_fp8_01 (equivalent)"}, {"t_fp8_02 (inequivalent)"}, {"t_fp8_03 (equivalent)"}, {"t_fp8_04 (inequivalent)"},
                {"t_fp8_05 (equivalent)"}, {"t_fp8_06 (inequivalent)"}, {"t_fp8_07 (equivalent)"}, {"t_fp8_08 (equivalent)"}};
  for (int trial = 0; trial < kTrials; ++trial) {
    float hx[kN], hs = us(rng);
    unsigned char hxb[kN];
    for (int i = 0; i < kN; ++i) hx[i] = ux(rng);
    for (int i = 0; i < kN; ++i) {
      hxb[i] = static_cast<unsigned char>(ubyte(rng));
      if ((hxb[i] & 0x7F) == 0x7F) hxb[i] ^= 1;  // no NaN inputs (the cases' range is finite)
    }
    cudaMemcpy(b.x, hx, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemcpy(b.s, &hs, sizeof hs, cudaMemcpyHostToDevice);
    cudaMemcpy(b.xb, hxb, sizeof hxb, cudaMemcpyHostToDevice);
    auto q = [&](QuantKernel k, int block) { return [&, k, block] { k<<<1, block>>>(b.x, b.s, reinterpret_cast<__nv_fp8_e4m3*>(b.yb), kN); }; };
    auto qp = [&](PairKernel k) { return [&, k] { k<<<1, 32>>>(b.x, b.s, reinterpret_cast<__nv_fp8x2_e4m3*>(b.yb), kN); }; };
    auto d = [&](DequantKernel k) { return [&, k] { k<<<1, 64>>>(reinterpret_cast<__nv_fp8_e4m3*>(b.xb), b.s, b.yf, kN); }; };
    auto dp = [&](DequantPairKernel k) { return [&, k] { k<<<1, 32>>>(reinterpret_cast<__nv_fp8x2_e4m3*>(b.xb), b.s, b.yf, kN); }; };
    auto rt = [&](RoundTripKernel k) { return [&, k] { k<<<1, 64>>>(b.x, b.s, b.yf, kN); }; };
    auto compare = [&](Case& c, auto la, auto lb, size_t bytes) {
      unsigned char oa[kN * sizeof(float)], ob[kN * sizeof(float)];
      side(la, oa, bytes, b);
      side(lb, ob, bytes, b);
      int n = 0;
      for (size_t i = 0; i < bytes; ++i) n += oa[i] != ob[i];
      c.diffs += n;
      c.trials_differing += n > 0;
    };
    compare(cases[0], q(fp8_quant, 64), q(fp8_quant_clamped, 64), kN);
    compare(cases[1], q(fp8_quant_clamped, 64), q(fp8_quant_clamp240, 64), kN);
    compare(cases[2], qp(fp8_quant_pairs), q(fp8_quant, 64), kN);
    compare(cases[3], qp(fp8_quant_pairs_swapped), q(fp8_quant, 64), kN);
    compare(cases[4], dp(fp8_dequant_pairs), d(fp8_dequant), kN * sizeof(float));
    compare(cases[5], dp(fp8_dequant_pairs_low_twice), d(fp8_dequant), kN * sizeof(float));
    compare(cases[6], rt(fp8_roundtrip_shared), rt(fp8_roundtrip), kN * sizeof(float));
    compare(cases[7], q(fp8_quant_vec4, 16), q(fp8_quant, 64), kN);
  }
  for (const Case& c : cases)
    std::printf("%-26s %3d of %d trials differ, %6d bytes in all\n", c.name, c.trials_differing, kTrials, c.diffs);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
