// Runs the t_amax_* pairs on a GPU at random inputs (x in [-8, 8], as the cases declare) and
// prints, per case, in how many trials the two kernels' outputs differ: the cases' expected
// verdicts seen on hardware (emulate.py does not model the float atomics through integer bits).
//   nvcc -arch=sm_90 -O3 tests/cases/check/amax_gpu_check.cu -o amax_gpu_check && ./amax_gpu_check
#include <cstdio>
#include <random>

#include "../kernels/amax.cu"

namespace {

using Kernel = void (*)(const float*, float*, int);

struct Case {
  const char* name;
  Kernel a, b;
  int n;
  float init;
  int differ = 0;
};

float run(Kernel k, int grid, int block, const float* x, float* out, int n, float init) {
  cudaMemcpy(out, &init, sizeof init, cudaMemcpyHostToDevice);
  k<<<grid, block>>>(x, out, n);
  float r;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  return r;
}

}  // namespace

int main() {
  constexpr int kTrials = 500;
  Case cases[] = {{"t_amax_01 (equivalent)", amax_atomic, amax_serial, 256, 0.0f},
                  {"t_amax_02 (inequivalent)", amax_atomic, amax_serial_no_abs, 256, 0.0f},
                  {"t_amax_03 (equivalent)", scale_min_atomic, scale_min_serial, 256, 3.0e38f},
                  {"t_amax_04 (equivalent)", amax_atomic, amax_serial, 160, 0.0f},
                  {"t_amax_05 (equivalent)", amax_atomic_mirrored, amax_serial, 160, 0.0f},
                  {"t_amax_06 (inequivalent)", amax_atomic, amax_serial_skips_last, 256, 0.0f}};
  float *x, *out;
  cudaMalloc(&x, 256 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> ux(-8.0f, 8.0f);
  for (int trial = 0; trial < kTrials; ++trial) {
    float hx[256];
    for (float& v : hx) v = ux(rng);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    for (Case& c : cases) c.differ += run(c.a, 4, 64, x, out, c.n, c.init) != run(c.b, 1, 1, x, out, c.n, c.init);
  }
  for (const Case& c : cases) std::printf("%-26s %3d of %d trials differ\n", c.name, c.differ, kTrials);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
