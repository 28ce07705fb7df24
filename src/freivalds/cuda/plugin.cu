// libracer_freivalds_cuda.so: the C interface (plugin_abi.h) that `racer freivalds --gpu`
// loads at run time. It generates the product on the device (the same A and B as the CPU's
// synthetic.cpp for the same seed), computes C with cuBLAS, times the matmul and the check,
// and optionally corrupts one element and checks again.
#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/device_data.cuh"
#include "freivalds/cuda/plugin_abi.h"

using namespace racer::freivalds;
using namespace racer::freivalds::cuda;

namespace {

double timed_median(cudaStream_t s, int reps, auto&& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(a, s);
    f();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void fill_response(racer_fv_response* r, const DeviceVerdict& v, const char* device) {
  r->pass = v.pass;
  r->residual = v.residual;
  r->tolerance = v.tolerance;
  r->worst_ratio = v.ratio;
  r->worst_row = v.row;
  r->worst_vector = v.vector;
  r->failing_rows = v.failing_rows;
  std::snprintf(r->device, sizeof r->device, "%s", device);
}

}  // namespace

extern "C" int racer_fv_abi_version(void) { return RACER_FV_ABI_VERSION; }

extern "C" int racer_fv_device_count(char* why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    std::snprintf(why, 256, "%s", cudaGetErrorString(e));
    return 0;
  }
  if (count == 0) std::snprintf(why, 256, "cudaGetDeviceCount found none");
  return count;
}

extern "C" int racer_fv_run(const racer_fv_request* q, racer_fv_response* good, racer_fv_response* bad) {
  std::memset(good, 0, sizeof *good);
  std::memset(bad, 0, sizeof *bad);
  void *a = nullptr, *b = nullptr, *c = nullptr;
  cudaStream_t s = nullptr;
  cublasHandle_t h = nullptr;
  try {
    const Format f = static_cast<Format>(q->format);
    const int64_t n = q->n;
    cudaDeviceProp prop{};
    cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int driver = 0;
    cudaDriverGetVersion(&driver);
    char device[256];
    std::snprintf(device, sizeof device, "%s, %d SMs, CUDA driver %d", prop.name, prop.multiProcessorCount, driver);
    cuda_check(cudaStreamCreate(&s), "cudaStreamCreate");
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    cublasSetStream(h, s);
    const size_t bytes = element_size(f) * static_cast<size_t>(n * n);
    cuda_check(cudaMalloc(&a, bytes), "cudaMalloc(A)");
    cuda_check(cudaMalloc(&b, bytes), "cudaMalloc(B)");
    cuda_check(cudaMalloc(&c, bytes), "cudaMalloc(C)");
    fill_matrix(f, a, n * n, q->seed ^ 0xA, s);
    fill_matrix(f, b, n * n, q->seed ^ 0xB, s);
    matmul(h, f, n, a, b, c);
    double matmul_ms = timed_median(s, 3, [&] { matmul(h, f, n, a, b, c); });
    ToleranceCoefficients coef{q->coef[0], q->coef[1], q->coef[2], q->coef[3], q->coef[4], q->coef[5]};
    DeviceCheck chk(f, n, q->k, q->vector_seed, coef, s);
    chk.capture(a, b, c);
    chk.launch();
    double check_ms = timed_median(s, 5, [&] { chk.launch(); });
    fill_response(good, chk.verdict(), device);
    good->check_ms = check_ms;
    good->matmul_ms = matmul_ms;
    if (q->corrupt_factor > 0) {
      double tol = chk.row_tolerance(q->corrupt_row);
      double applied = corrupt_element(f, c, q->corrupt_row * n + q->corrupt_col, q->corrupt_factor * tol);
      chk.launch();
      fill_response(bad, chk.verdict(), device);
      bad->applied_delta = applied;
      bad->corrupt_row_tolerance = tol;
    }
  } catch (const std::exception& e) {
    std::snprintf(good->error, sizeof good->error, "%s", e.what());
  }
  if (h) cublasDestroy(h);
  for (void* p : {a, b, c}) cudaFree(p);
  if (s) cudaStreamDestroy(s);
  return good->error[0] ? 1 : 0;
}
