#pragma once
// Integer products on the GPU for the exact check: A and B of int8 (is_signed) or uint8 with
// the bytes of the CPU's make_int_product (synthetic.cpp) for the same seed, and C = A B in
// int32 by cuBLAS's int8 tensor-core GEMM (cublasGemmEx, CUDA_R_8I, CUBLAS_COMPUTE_32I).
//
// That GEMM reads its column-major operands as "TN" (the first transposed): for row-major
// C = A B that is A as stored and B transposed, the layout of a weight matrix W in x W^T. So
// the GEMM reads a second copy of B, stored transposed (drawn from the same seed); the check
// reads A, B and C row-major.
// cuBLAS multiplies int8 only: a uint8 product is computed from the int8 values u - 128
// (A', B'): A B = A' B' + 128 (A' 1) 1^T + 128 1 (1^T B') + 128^2 n 1 1^T, the sums and the
// correction being part of the timed GEMM.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace racer::freivalds::cuda {

class DeviceIntProduct {
 public:
  // n % 16 == 0; n <= 32768 (the uint8 product's entries stay below 2^31).
  DeviceIntProduct(bool is_signed, int64_t n, uint64_t seed, cublasHandle_t h, cudaStream_t s);
  ~DeviceIntProduct();
  DeviceIntProduct(const DeviceIntProduct&) = delete;
  DeviceIntProduct& operator=(const DeviceIntProduct&) = delete;

  void multiply();                       // C = A B, enqueued on the stream
  void add_to_c(int64_t index, int32_t delta);  // synchronous
  const uint8_t* a() const { return a_; }
  const uint8_t* b() const { return b_; }
  const int32_t* c() const { return c_; }

 private:
  bool signed_;
  int64_t n_;
  cublasHandle_t handle_;
  cudaStream_t stream_;
  uint8_t *a_ = nullptr, *b_ = nullptr;              // row-major, what the check reads
  uint8_t *gemm_a_ = nullptr, *gemm_bt_ = nullptr;   // the GEMM's int8 operands (B transposed)
  int32_t* c_ = nullptr;
  int32_t* sums_ = nullptr;                          // uint8: row sums of A', then column sums of B'
};

}  // namespace racer::freivalds::cuda
