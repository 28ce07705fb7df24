// The absolute maximum of x over a grid for the t_amax_* cases: per block in shared memory,
// then one float atomic maximum per block written as vLLM and Triton do it, through integer
// atomics on the float's bits (atom.max.s32 where the sign is clear, atom.min.u32 where it is
// set), against one thread's loop. amax starts at 0.

// The bits of a float >= 0 order as an int's; those of a float < 0 reversed, as an unsigned's.
__device__ void atomic_max_float(float* addr, float value) {
  if (value >= 0) atomicMax(reinterpret_cast<int*>(addr), __float_as_int(value));
  else atomicMin(reinterpret_cast<unsigned*>(addr), __float_as_uint(value));
}

// Block b reduces the cells of block `tile` (b, or the grid's mirror image of b).
__device__ void amax_tile(const float* x, float* amax, int n, int tile) {
  __shared__ float part[64];
  int t = threadIdx.x, i = tile * 64 + t;
  part[t] = i < n ? fabsf(x[i]) : 0.0f;
  __syncthreads();
  for (int s = 32; s > 0; s >>= 1) {
    if (t < s) part[t] = fmaxf(part[t], part[t + s]);
    __syncthreads();
  }
  if (t == 0) atomic_max_float(amax, part[0]);
}

extern "C" __global__ void amax_atomic(const float* x, float* amax, int n) { amax_tile(x, amax, n, blockIdx.x); }

// The blocks in mirror order: with n short of the grid, the first block to update has no cells
// and updates with 0, a concrete value, before the others' symbolic ones.
extern "C" __global__ void amax_atomic_mirrored(const float* x, float* amax, int n) {
  amax_tile(x, amax, n, gridDim.x - 1 - blockIdx.x);
}

extern "C" __global__ void amax_serial(const float* x, float* amax, int n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float m = 0.0f;
  for (int i = 0; i < n; ++i) m = fmaxf(m, fabsf(x[i]));
  *amax = m;
}

// fabsf forgotten: the largest value, not the largest magnitude (differs where that is negative).
extern "C" __global__ void amax_serial_no_abs(const float* x, float* amax, int n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float m = 0.0f;
  for (int i = 0; i < n; ++i) m = fmaxf(m, x[i]);
  *amax = m;
}

// The bits of a float > 0 order as an int's (atomicMin); those of a float < 0 reversed.
__device__ void atomic_min_float(float* addr, float value) {
  if (value >= 0) atomicMin(reinterpret_cast<int*>(addr), __float_as_int(value));
  else atomicMax(reinterpret_cast<unsigned*>(addr), __float_as_uint(value));
}

// The smallest per-block fp8 scale 448 / max(amax of the block, 1e-12): one atomic minimum of
// a float per block (torchao's row-wise scales take it with tl.atomic_min).
extern "C" __global__ void scale_min_atomic(const float* x, float* scale, int n) {
  __shared__ float part[64];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  part[t] = i < n ? fabsf(x[i]) : 0.0f;
  __syncthreads();
  for (int s = 32; s > 0; s >>= 1) {
    if (t < s) part[t] = fmaxf(part[t], part[t + s]);
    __syncthreads();
  }
  if (t == 0) atomic_min_float(scale, 448.0f / fmaxf(part[0], 1e-12f));
}

extern "C" __global__ void scale_min_serial(const float* x, float* scale, int n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float m = 3.0e38f;
  for (int b = 0; b * 64 < n; ++b) {
    float amax = 0.0f;
    for (int i = b * 64; i < b * 64 + 64 && i < n; ++i) amax = fmaxf(amax, fabsf(x[i]));
    m = fminf(m, 448.0f / fmaxf(amax, 1e-12f));
  }
  *scale = m;
}

// The loop stops one cell short: differs only where the last cell holds the largest magnitude.
extern "C" __global__ void amax_serial_skips_last(const float* x, float* amax, int n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float m = 0.0f;
  for (int i = 0; i < n - 1; ++i) m = fmaxf(m, fabsf(x[i]));
  *amax = m;
}
