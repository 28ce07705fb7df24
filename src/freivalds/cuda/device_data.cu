#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stdexcept>
#include <string>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/device_data.cuh"
#include "freivalds/random_vectors.hpp"

namespace racer::freivalds::cuda {
namespace {

__device__ inline void store(float* p, float v) { *p = v; }
__device__ inline void store(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }
__device__ inline void store(__half* p, float v) { *p = __float2half_rn(v); }

template <class T>
__global__ void fill(T* out, int64_t count, uint64_t seed) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < count) store(out + i, random_entry(seed, static_cast<uint64_t>(i)));
}

template <class T>
void fill_typed(void* out, int64_t count, uint64_t seed, cudaStream_t s) {
  fill<T><<<static_cast<unsigned>((count + 255) / 256), 256, 0, s>>>(static_cast<T*>(out), count, seed);
  cuda_check(cudaGetLastError(), "fill");
}

cudaDataType data_type(Format f) {
  switch (f) {
    case Format::BF16: return CUDA_R_16BF;
    case Format::F16: return CUDA_R_16F;
    default: return CUDA_R_32F;
  }
}

float to_float(Format f, uint32_t bits) {
  if (f == Format::BF16) return __builtin_bit_cast(float, bits << 16);
  if (f == Format::F16) return __half2float(__builtin_bit_cast(__half, static_cast<uint16_t>(bits)));
  return __builtin_bit_cast(float, bits);
}

uint32_t from_float(Format f, float v) {
  if (f == Format::BF16) return __builtin_bit_cast(uint16_t, __float2bfloat16_rn(v));
  if (f == Format::F16) return __builtin_bit_cast(uint16_t, __float2half_rn(v));
  return __builtin_bit_cast(uint32_t, v);
}

}  // namespace

size_t element_size(Format f) { return f == Format::BF16 || f == Format::F16 ? 2 : 4; }

void fill_matrix(Format f, void* out, int64_t count, uint64_t seed, cudaStream_t s) {
  switch (f) {
    case Format::BF16: return fill_typed<__nv_bfloat16>(out, count, seed, s);
    case Format::F16: return fill_typed<__half>(out, count, seed, s);
    default: return fill_typed<float>(out, count, seed, s);
  }
}

void matmul(cublasHandle_t h, Format f, int64_t n, const void* a, const void* b, void* c) {
  const float one = 1, zero = 0;
  cublasComputeType_t compute = f == Format::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  const int ni = static_cast<int>(n);
  // Row-major C = A B is column-major C^T = B^T A^T.
  cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, b, data_type(f), ni, a, data_type(f), ni,
                                   &zero, c, data_type(f), ni, compute, CUBLAS_GEMM_DEFAULT);
  if (st != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasGemmEx failed: status " + std::to_string(static_cast<int>(st)));
}

uint32_t read_bits(Format f, const void* c, int64_t index) {
  uint32_t bits = 0;
  cuda_check(cudaMemcpy(&bits, static_cast<const char*>(c) + index * element_size(f), element_size(f), cudaMemcpyDeviceToHost), "read C");
  return bits;
}

void write_bits(Format f, void* c, int64_t index, uint32_t bits) {
  cuda_check(cudaMemcpy(static_cast<char*>(c) + index * element_size(f), &bits, element_size(f), cudaMemcpyHostToDevice), "write C");
}

double corrupt_element(Format f, void* c, int64_t index, double delta) {
  float before = to_float(f, read_bits(f, c, index));
  uint32_t after = from_float(f, static_cast<float>(static_cast<double>(before) + delta));
  write_bits(f, c, index, after);
  return static_cast<double>(to_float(f, after)) - before;
}

}  // namespace racer::freivalds::cuda
