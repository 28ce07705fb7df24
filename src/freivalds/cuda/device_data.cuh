#pragma once
// Products on the GPU for measurements and self-tests: random A and B (the same values as
// the CPU's synthetic.cpp draws), C = A B with cuBLAS in the format's usual mode, and
// single-element corruptions of C.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "freivalds/format.hpp"

namespace racer::freivalds::cuda {

size_t element_size(Format f);
// Entries random_entry(seed, i) rounded to the format (A uses seed ^ 0xA, B seed ^ 0xB on the CPU).
void fill_matrix(Format f, void* out, int64_t count, uint64_t seed, cudaStream_t s);
// Row-major C = A B (n x n). f32: CUBLAS_COMPUTE_32F in the default math mode (true FP32, no
// tensor cores); tf32: CUBLAS_COMPUTE_32F_FAST_TF32; f16/bf16: tensor cores, f32 accumulation,
// C in the format.
void matmul(cublasHandle_t h, Format f, int64_t n, const void* a, const void* b, void* c);
// C[index] = round(C[index] + delta); returns the change made. Synchronous.
double corrupt_element(Format f, void* c, int64_t index, double delta);
// Raw bits of one element, to restore it after a corruption.
uint32_t read_bits(Format f, const void* c, int64_t index);
void write_bits(Format f, void* c, int64_t index, uint32_t bits);

}  // namespace racer::freivalds::cuda
