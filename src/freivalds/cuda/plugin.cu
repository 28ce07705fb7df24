// libracer_freivalds_cuda.so: the C interface (plugin_abi.h) that `racer freivalds --gpu`
// loads at run time. It generates the product on the device (the same A and B as the CPU's
// synthetic.cpp for the same seed), computes C with cuBLAS, times the matmul and the check,
// and optionally corrupts one element and checks again; likewise the exact check of an
// int8/uint8 product (cuBLAS int8 GEMM, C + 1 at one element as the corruption).
#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/device_data.cuh"
#include "freivalds/cuda/device_int_data.cuh"
#include "freivalds/cuda/modular_check.cuh"
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

void describe_device(char (&device)[256]) {
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  int driver = 0;
  cudaDriverGetVersion(&driver);
  std::snprintf(device, sizeof device, "%s, %d SMs, CUDA driver %d", prop.name, prop.multiProcessorCount, driver);
}

void fill_modular_response(racer_fv_modular_response* r, const ModularVerdict& v, const char* device) {
  r->pass = v.pass;
  r->first_bad_row = v.first_bad_row;
  r->first_bad_vector = v.first_bad_vector;
  r->first_bad_residual = v.first_bad_residual;
  r->failing_rows = v.failing_rows;
  std::snprintf(r->device, sizeof r->device, "%s", device);
}

// A stream and a cuBLAS handle on it, released on every path.
struct CublasStream {
  cudaStream_t stream = nullptr;
  cublasHandle_t handle = nullptr;
  CublasStream() {
    cuda_check(cudaStreamCreate(&stream), "cudaStreamCreate");
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    cublasSetStream(handle, stream);
  }
  ~CublasStream() {
    if (handle) cublasDestroy(handle);
    if (stream) cudaStreamDestroy(stream);
  }
};

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
    char device[256];
    describe_device(device);
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

extern "C" int racer_fv_run_modular(const racer_fv_modular_request* q, racer_fv_modular_response* good,
                                    racer_fv_modular_response* bad) {
  std::memset(good, 0, sizeof *good);
  std::memset(bad, 0, sizeof *bad);
  try {
    const int64_t n = q->n;
    char device[256];
    describe_device(device);
    CublasStream cs;
    DeviceIntProduct product(q->is_signed != 0, n, q->seed, cs.handle, cs.stream);
    product.multiply();
    const double gemm_ms = timed_median(cs.stream, 3, [&] { product.multiply(); });
    ModularDeviceCheck chk(q->is_signed != 0, n, q->k, q->vector_seed, cs.stream);
    chk.capture(product.a(), product.b(), product.c());
    chk.launch();
    const double check_ms = timed_median(cs.stream, 5, [&] { chk.launch(); });
    fill_modular_response(good, chk.verdict(), device);
    good->check_ms = check_ms;
    good->gemm_ms = gemm_ms;
    if (q->corrupt) {
      product.add_to_c(q->corrupt_row * n + q->corrupt_col, 1);
      chk.launch();
      fill_modular_response(bad, chk.verdict(), device);
    }
  } catch (const std::exception& e) {
    std::snprintf(good->error, sizeof good->error, "%s", e.what());
  }
  return good->error[0] ? 1 : 0;
}
