// Work partitioning and multi-dimensional launches: 2-D and 3-D grids and blocks against
// flat and grid-stride versions of the same function.

// out[r, c] = x[r, c] * w[c] + b[r], 2-D grid of 2-D blocks, both dimensions guarded.
extern "C" __global__ void affine2d_2d(const float* x, const float* w, const float* b, float* out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = x[r * cols + c] * w[c] + b[r];
}

// Bug: reads x as if it were stored column-major (stride rows instead of cols).
extern "C" __global__ void affine2d_2d_colmajor(const float* x, const float* w, const float* b, float* out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = x[c * rows + r] * w[c] + b[r];
}

// Same function as affine2d_2d, 1-D grid-stride loop over the flat index.
extern "C" __global__ void affine2d_stride(const float* x, const float* w, const float* b, float* out, int rows, int cols) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols; i += blockDim.x * gridDim.x) {
    int r = i / cols, c = i % cols;
    out[i] = x[i] * w[c] + b[r];
  }
}

// 3-D permutation out[k, j, i] = x[i, j, k] for x of shape [d0, d1, d2]; thread
// coordinates (x, y, z) = (k, j, i), all three guarded.
extern "C" __global__ void permute3d_xyz(const float* x, float* out, int d0, int d1, int d2) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < d0 && j < d1 && k < d2) out[(k * d1 + j) * d0 + i] = x[(i * d1 + j) * d2 + k];
}

// Bug: the source offset swaps the roles of d0 and d1 ((j*d0 + i) instead of (i*d1 + j)).
// Still a bijection onto x's cells, so nothing is out of bounds.
extern "C" __global__ void permute3d_xyz_badstride(const float* x, float* out, int d0, int d1, int d2) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < d0 && j < d1 && k < d2) out[(k * d1 + j) * d0 + i] = x[(j * d0 + i) * d2 + k];
}

// Reference: one thread per output cell, coordinates recovered with / and %.
extern "C" __global__ void permute3d_flat(const float* x, float* out, int d0, int d1, int d2) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= d0 * d1 * d2) return;
  int i = o % d0, j = (o / d0) % d1, k = o / (d0 * d1);
  out[o] = x[(i * d1 + j) * d2 + k];
}

// Grid-stride x * y.
extern "C" __global__ void mul_stride(const float* x, const float* y, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = x[i] * y[i];
}
