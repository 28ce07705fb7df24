// Races that reach some cells and not others (session 32): a refuted cell no race reaches settles
// the verdict; one a race writes does not.
#include <cuda_runtime.h>

// y[i] = k * x[i]; thread `stray` also stores x[stray] into y[cell], racing with its owner.
extern "C" __global__ void scale_with_stray_store(const float* x, float* y, int n, float k, int stray, int cell) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = k * x[i];
  if (i == stray) y[cell] = x[i];
}

// y[i] = k * x[i], no stray store.
extern "C" __global__ void scale(const float* x, float* y, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = k * x[i];
}
