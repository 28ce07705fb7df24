#pragma once
// Marks the few inline functions shared by the CPU backend and the CUDA kernels.
#if defined(__CUDACC__)
#define RACER_HD __host__ __device__ inline
#else
#define RACER_HD inline
#endif
