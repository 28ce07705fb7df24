"""Small kernels the API tests launch."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
VEC_ADD_PTX = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "vec_add.ptx"))

AXPY = r"""
extern "C" __global__ void axpy(float a, const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void axpy_swapped(float a, const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * y[i] + x[i];
}
__global__ void scale_mangled(float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = 2.f * out[i];
}
"""

UNGUARDED = r"""
extern "C" __global__ void copy_guarded(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i];
}
extern "C" __global__ void copy_unguarded(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[i];  // UNGUARDED STORE
}
"""
