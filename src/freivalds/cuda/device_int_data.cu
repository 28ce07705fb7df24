#include <stdexcept>
#include <string>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/device_int_data.cuh"
#include "freivalds/random_vectors.hpp"

namespace racer::freivalds::cuda {
namespace {

// out[i] = random_byte(seed, i), and, when out_t is given, its transpose (n x n) xor flip
// (0x80 turns a uint8 u into the int8 u - 128; 0 keeps the bytes).
__global__ void fill_bytes(uint8_t* out, uint8_t* out_t, uint8_t* flipped, int64_t n, uint64_t seed, uint8_t flip) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n * n) return;
  const uint8_t v = random_byte(seed, static_cast<uint64_t>(i));
  out[i] = v;
  if (out_t) out_t[(i % n) * n + i / n] = v ^ flip;
  if (flipped) flipped[i] = v ^ flip;
}

// sums[r] = sum of row r of an n x n int8 matrix: a warp a row.
__global__ void row_sums(const int8_t* m, int64_t n, int32_t* sums) {
  const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x / 32) + threadIdx.x / 32;
  if (row >= n) return;
  int32_t s = 0;
  for (int64_t j = threadIdx.x % 32; j < n; j += 32) s += m[row * n + j];
  for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
  if (threadIdx.x % 32 == 0) sums[row] = s;
}

// The uint8 correction: C += 128 (row sum of A' + column sum of B') + 128^2 n. Every term and
// the result are below 2^31 in magnitude for n <= 32768; wrapping arithmetic would be exact anyway.
__global__ void unsigned_correction(int32_t* c, int64_t n, const int32_t* a_rows, const int32_t* b_cols) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n * n) return;
  const int64_t add = 128 * (static_cast<int64_t>(a_rows[i / n]) + b_cols[i % n]) + 16384 * n;
  c[i] = static_cast<int32_t>(static_cast<uint32_t>(c[i]) + static_cast<uint32_t>(add));
}

unsigned blocks_for(int64_t count, int threads) { return static_cast<unsigned>((count + threads - 1) / threads); }

}  // namespace

DeviceIntProduct::DeviceIntProduct(bool is_signed, int64_t n, uint64_t seed, cublasHandle_t h, cudaStream_t s)
    : signed_(is_signed), n_(n), handle_(h), stream_(s) {
  if (n % 16 != 0) throw std::runtime_error("the int8 GEMM needs n divisible by 16");
  if (n > 32768) throw std::runtime_error("n above 32768: the product's entries could overflow int32");
  const size_t count = static_cast<size_t>(n * n);
  cuda_check(cudaMalloc(&a_, count), "cudaMalloc(A)");
  cuda_check(cudaMalloc(&b_, count), "cudaMalloc(B)");
  cuda_check(cudaMalloc(&gemm_bt_, count), "cudaMalloc(B transposed)");
  cuda_check(cudaMalloc(&c_, sizeof(int32_t) * count), "cudaMalloc(C)");
  const uint8_t flip = is_signed ? 0 : 0x80;
  if (!is_signed) {
    cuda_check(cudaMalloc(&gemm_a_, count), "cudaMalloc(A')");
    cuda_check(cudaMalloc(&sums_, sizeof(int32_t) * 2 * n), "cudaMalloc(sums)");
  }
  fill_bytes<<<blocks_for(n * n, 256), 256, 0, s>>>(a_, nullptr, gemm_a_, n, seed ^ 0xA, flip);
  fill_bytes<<<blocks_for(n * n, 256), 256, 0, s>>>(b_, gemm_bt_, nullptr, n, seed ^ 0xB, flip);
  cuda_check(cudaGetLastError(), "fill_bytes");
  if (is_signed) gemm_a_ = a_;
  cuda_check(cudaStreamSynchronize(s), "generating A and B");
}

DeviceIntProduct::~DeviceIntProduct() {
  if (gemm_a_ != a_) cudaFree(gemm_a_);
  for (void* p : {static_cast<void*>(a_), static_cast<void*>(b_), static_cast<void*>(gemm_bt_), static_cast<void*>(c_),
                  static_cast<void*>(sums_)})
    cudaFree(p);
}

void DeviceIntProduct::multiply() {
  const int32_t one = 1, zero = 0;
  const int ni = static_cast<int>(n_);
  // Column-major C^T = B^T A^T as "TN": the first operand is B^T's transpose, i.e. B stored
  // column-major (gemm_bt_ row-major holds B^T); the second is A^T, i.e. A row-major.
  cublasStatus_t st = cublasGemmEx(handle_, CUBLAS_OP_T, CUBLAS_OP_N, ni, ni, ni, &one, gemm_bt_, CUDA_R_8I, ni, gemm_a_,
                                   CUDA_R_8I, ni, &zero, c_, CUDA_R_32I, ni, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
  if (st != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasGemmEx (int8) failed: status " + std::to_string(static_cast<int>(st)));
  if (signed_) return;
  row_sums<<<blocks_for(n_, 8), 256, 0, stream_>>>(reinterpret_cast<const int8_t*>(gemm_a_), n_, sums_);
  row_sums<<<blocks_for(n_, 8), 256, 0, stream_>>>(reinterpret_cast<const int8_t*>(gemm_bt_), n_, sums_ + n_);
  unsigned_correction<<<blocks_for(n_ * n_, 256), 256, 0, stream_>>>(c_, n_, sums_, sums_ + n_);
  cuda_check(cudaGetLastError(), "the uint8 correction");
}

void DeviceIntProduct::add_to_c(int64_t index, int32_t delta) {
  int32_t v = 0;
  cuda_check(cudaStreamSynchronize(stream_), "the product");
  cuda_check(cudaMemcpy(&v, c_ + index, sizeof v, cudaMemcpyDeviceToHost), "read C");
  v = static_cast<int32_t>(static_cast<uint32_t>(v) + static_cast<uint32_t>(delta));
  cuda_check(cudaMemcpy(c_ + index, &v, sizeof v, cudaMemcpyHostToDevice), "write C");
}

}  // namespace racer::freivalds::cuda
