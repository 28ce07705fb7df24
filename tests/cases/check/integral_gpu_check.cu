// Runs the t_integral_* pairs on a GPU at random inputs (x in [-8, 8]; s in [0.5, 4], for
// t_integral_05 in [0.03, 1]; half of the trials with x s a multiple of 1/2, where rounding
// functions part) and prints, per case, at how many trials the outputs differ.
//   nvcc -arch=sm_90 -O3 tests/cases/check/integral_gpu_check.cu -o integral_gpu_check && ./integral_gpu_check
#include <cstdio>
#include <cstring>
#include <random>

#include "../kernels/integral.cu"

namespace {

constexpr int kN = 64;
constexpr int kTrials = 400;

using FloatKernel = void (*)(const float*, const float*, float*, int);
using QuantKernel = void (*)(const float*, const float*, signed char*, int);

int differs(FloatKernel a, FloatKernel b, const float* x, const float* s, float* y) {
  float ha[kN], hb[kN];
  a<<<1, kN>>>(x, s, y, kN);
  cudaMemcpy(ha, y, sizeof ha, cudaMemcpyDeviceToHost);
  b<<<1, kN>>>(x, s, y, kN);
  cudaMemcpy(hb, y, sizeof hb, cudaMemcpyDeviceToHost);
  for (int i = 0; i < kN; ++i)
    if (ha[i] != hb[i]) return 1;  // as numbers: -0 and +0 are one real (the cases' semantics)
  return 0;
}

int differs(QuantKernel a, QuantKernel b, const float* x, const float* s, signed char* q) {
  signed char ha[kN], hb[kN];
  a<<<1, kN>>>(x, s, q, kN);
  cudaMemcpy(ha, q, sizeof ha, cudaMemcpyDeviceToHost);
  b<<<1, kN>>>(x, s, q, kN);
  cudaMemcpy(hb, q, sizeof hb, cudaMemcpyDeviceToHost);
  return std::memcmp(ha, hb, sizeof ha) != 0;
}

}  // namespace

int main() {
  float *x, *s, *y;
  signed char* q;
  cudaMalloc(&x, kN * sizeof(float));
  cudaMalloc(&s, sizeof(float));
  cudaMalloc(&y, kN * sizeof(float));
  cudaMalloc(&q, kN);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> ux(-8.0f, 8.0f), us(0.5f, 4.0f), uq(0.03f, 1.0f);
  std::uniform_int_distribution<int> half(-16, 16);
  const char* names[5] = {"t_integral_01 (equivalent)", "t_integral_02 (equivalent)", "t_integral_03 (inequivalent)",
                          "t_integral_04 (inequivalent)", "t_integral_05 (equivalent)"};
  int counts[5] = {};
  for (int trial = 0; trial < kTrials; ++trial) {
    float hx[kN], hs = us(rng), hq = uq(rng);
    const bool ties = trial % 2 == 1;  // x s = k / 2 exactly: x = k / (2 s) with s = 1/2 or 2
    if (ties) hs = trial % 4 == 1 ? 0.5f : 2.0f;
    for (int i = 0; i < kN; ++i) hx[i] = ties ? static_cast<float>(half(rng)) / (2 * hs) : ux(rng);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemcpy(s, &hs, sizeof hs, cudaMemcpyHostToDevice);
    counts[0] += differs(round_rint, round_via_int, x, s, y);
    counts[1] += differs(round_floor, round_neg_ceil_neg, x, s, y);
    counts[2] += differs(round_half_away, round_rint, x, s, y);
    counts[3] += differs(round_trunc, round_floor, x, s, y);
    cudaMemcpy(s, &hq, sizeof hq, cudaMemcpyHostToDevice);
    counts[4] += differs(quant_int8_rint, quant_int8_cvt, x, s, q);
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  for (int k = 0; k < 5; ++k) std::printf("%-26s outputs differ in %3d of %d trials\n", names[k], counts[k], kTrials);
  return 0;
}
