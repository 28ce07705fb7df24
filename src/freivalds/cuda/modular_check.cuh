#pragma once
// The exact check of an n x n integer product held on the GPU (row-major A and B of int8 or
// uint8, C of int32) modulo 2^61 - 1: the buffers, the kernel sequence (modular_kernels.cuh)
// as one CUDA graph, and the verdict, which equals the CPU's (modular.cpp) for the same seeds.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace racer::freivalds::cuda {

struct ModularVerdict {
  bool pass;
  int64_t first_bad_row;  // -1 when it passes
  int first_bad_vector;
  uint64_t first_bad_residual;  // (A X - C R) mod p there
  int64_t failing_rows;
};

class ModularDeviceCheck {
 public:
  // n % 32 == 0. The vectors are modular_random_residue(vector_seed, j k + v), as on the CPU.
  ModularDeviceCheck(bool is_signed, int64_t n, int k, uint64_t vector_seed, cudaStream_t stream);
  ~ModularDeviceCheck();
  ModularDeviceCheck(const ModularDeviceCheck&) = delete;
  ModularDeviceCheck& operator=(const ModularDeviceCheck&) = delete;

  void capture(const uint8_t* a, const uint8_t* b, const int32_t* c);  // the kernels, as one CUDA graph
  void launch();                                                       // replays the graph
  ModularVerdict verdict();                                            // waits, then reads the result

 private:
  struct Chunk {
    int v0, kt, valid;
    uint32_t *r_parts, *x_parts;  // n x 3 x kp each
    uint64_t* y;                  // n x kp
  };
  void enqueue(const uint8_t* a, const uint8_t* b, const int32_t* c);
  bool signed_;
  int64_t n_;
  int k_;
  cudaStream_t stream_;
  std::vector<Chunk> chunks_;
  int splits_ = 1;
  int64_t cols_per_split_ = 0;
  uint64_t* partial_ = nullptr;  // splits x n x 16
  void* flags_ = nullptr;        // failing-row count, then a flag per row
  size_t flags_bytes_ = 0;
  unsigned long long* first_bad_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace racer::freivalds::cuda
