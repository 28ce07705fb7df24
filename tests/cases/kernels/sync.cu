// CTA barriers (bar.sync) and shared memory communication between threads, with and
// without the barrier that orders it; a global cell written by two CTAs.

// One thread per row, sequential sum (reference for the reductions).
extern "C" __global__ void row_sum_loop(const float* x, float* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += x[r * cols + j];
  out[r] = s;
}

// One CTA of 64 threads per 64-element row: shared-memory tree with a barrier per level.
extern "C" __global__ void row_sum64_smem_tree(const float* x, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x, r = blockIdx.x;
  s[t] = x[r * 64 + t];
  __syncthreads();
  for (int h = 32; h > 0; h >>= 1) {
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) out[r] = s[0];
}

// Bug: the tree starts at stride 16, so s[32..63] are never added into s[0].
extern "C" __global__ void row_sum64_smem_tree_from16(const float* x, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x, r = blockIdx.x;
  s[t] = x[r * 64 + t];
  __syncthreads();
  for (int h = 16; h > 0; h >>= 1) {
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) out[r] = s[0];
}

// Reverse each 64-element block through shared memory. The tile is zeroed and a barrier
// passed first (so every shared read below reads a written cell), but the barrier between
// the store of x and the reversed read is missing: thread t reads s[63 - t] while thread
// 63 - t may not have stored it yet.
extern "C" __global__ void reverse64_smem_nosync(const float* x, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x, base = blockIdx.x * 64;
  s[t] = 0.f;
  __syncthreads();
  s[t] = x[base + t];
  out[base + t] = s[63 - t];
}

// Second-difference stencil out[i] = x[i-1] - 2 x[i] + x[i+1] (zero outside [0, n)) with a
// shared tile and a halo cell loaded by each end thread. blockDim = 64.
extern "C" __global__ void lap1d_smem(const float* x, float* out, int n) {
  __shared__ float s[66];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  s[t + 1] = i < n ? x[i] : 0.f;
  if (t == 0) s[0] = (i > 0 && i - 1 < n) ? x[i - 1] : 0.f;
  if (t == 63) s[65] = i + 1 < n ? x[i + 1] : 0.f;
  __syncthreads();
  if (i < n) out[i] = s[t] - 2.f * s[t + 1] + s[t + 2];
}

// Bug: the right halo loads x[i] instead of x[i + 1].
extern "C" __global__ void lap1d_smem_badhalo(const float* x, float* out, int n) {
  __shared__ float s[66];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  s[t + 1] = i < n ? x[i] : 0.f;
  if (t == 0) s[0] = (i > 0 && i - 1 < n) ? x[i - 1] : 0.f;
  if (t == 63) s[65] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) out[i] = s[t] - 2.f * s[t + 1] + s[t + 2];
}

// Reference stencil reading global memory directly.
extern "C" __global__ void lap1d_direct(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float l = i > 0 ? x[i - 1] : 0.f, r = i + 1 < n ? x[i + 1] : 0.f;
    out[i] = l - 2.f * x[i] + r;
  }
}

// One CTA of 64 threads walks `chunks` chunks of 64 elements through one shared buffer:
// out[t] = sum_k x[k*64 + (t+1) % 64]. The barrier at the end of each iteration keeps the
// next chunk's stores from overwriting a cell a neighbour has yet to read.
extern "C" __global__ void neighbor_sum_synced(const float* x, float* out, int chunks) {
  __shared__ float s[64];
  int t = threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < chunks; ++k) {
    s[t] = x[k * 64 + t];
    __syncthreads();
    acc += s[(t + 1) & 63];
    __syncthreads();
  }
  out[t] = acc;
}

// Bug: the trailing barrier is missing: thread t's store of chunk k+1 into s[t] races with
// thread t-1's read of s[t] from chunk k (write after read).
extern "C" __global__ void neighbor_sum_nosync(const float* x, float* out, int chunks) {
  __shared__ float s[64];
  int t = threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < chunks; ++k) {
    s[t] = x[k * 64 + t];
    __syncthreads();
    acc += s[(t + 1) & 63];
  }
  out[t] = acc;
}

// Reference: out[t] = sum_k x[k*64 + (t+1) % 64], one thread per output.
extern "C" __global__ void neighbor_sum_direct(const float* x, float* out, int chunks) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 64) return;
  float acc = 0.f;
  for (int k = 0; k < chunks; ++k) acc += x[k * 64 + ((t + 1) & 63)];
  out[t] = acc;
}

// Bug: two single-thread CTAs per row, each sums half of the row and stores its partial
// into out[row] with a plain store (should have been an atomic add): CTAs 2r and 2r+1
// write the same global cell.
extern "C" __global__ void row_sum_halves_store(const float* x, float* out, int cols) {
  int r = blockIdx.x / 2, h = blockIdx.x % 2, half = cols / 2;
  float s = 0.f;
  for (int j = 0; j < half; ++j) s += x[r * cols + h * half + j];
  out[r] = s;
}
