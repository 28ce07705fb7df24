// Addresses computed from integer index tensors whose contents are symbolic inputs with a
// declared range (t_sidx_*): embedding gathers, a gather of one class per row, scatters and a
// histogram. The index values are enumerated over their range (exec/indexed_address.hpp).

// Embedding lookup, one thread per output element: out[t, d] = W[tok[t], d].
extern "C" __global__ void sidx_embed(const int* tok, const float* W, float* out, int ntok, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ntok * dim) return;
  int t = i / dim, d = i % dim;
  out[i] = W[tok[t] * dim + d];
}

// Bug: reads the next row, W[tok[t] + 1, d].
extern "C" __global__ void sidx_embed_next_row(const int* tok, const float* W, float* out, int ntok, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ntok * dim) return;
  int t = i / dim, d = i % dim;
  out[i] = W[(tok[t] + 1) * dim + d];
}

// Naive reference: one thread per token compares the token with every row of the table
// (no data-dependent address); tokens outside [0, vocab) give a zero row.
extern "C" __global__ void sidx_embed_compare(const int* tok, const float* W, float* out, int ntok, int dim, int vocab) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ntok) return;
  int v = tok[t];
  for (int d = 0; d < dim; ++d) {
    float s = 0.f;
    for (int r = 0; r < vocab; ++r) s = v == r ? W[r * dim + d] : s;
    out[t * dim + d] = s;
  }
}

// The entry of each row's target class: out[r] = X[r, t[r]] (the picked logit of a
// cross-entropy), one thread per row.
extern "C" __global__ void sidx_pick_target(const float* X, const long long* tgt, float* out, int rows, int classes) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) out[r] = X[r * classes + tgt[r]];
}

// Reference: a masked sum over the row, sum_j [j == t[r]] X[r, j].
extern "C" __global__ void sidx_pick_target_sum(const float* X, const long long* tgt, float* out, int rows, int classes) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  long long t = tgt[r];
  float s = 0.f;
  for (int j = 0; j < classes; ++j) s += j == t ? X[r * classes + j] : 0.f;
  out[r] = s;
}

// Scatter: out[p[i]] = x[i]. Two threads whose indices are equal store to one cell.
extern "C" __global__ void sidx_scatter(const float* x, const int* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[p[i]] = x[i];
}

// Scatter within a block of `w` cells per element: out[w i + p[i]] = x[i]. With p in [0, w)
// no two threads can meet; with p up to w a thread reaches its neighbour's block.
extern "C" __global__ void sidx_scatter_block(const float* x, const int* p, float* out, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[w * i + p[i]] = x[i];
}

// Reference: every cell of the block is written, x[i] where p[i] names it, 0 elsewhere.
extern "C" __global__ void sidx_scatter_block_full(const float* x, const int* p, float* out, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = 0; j < w; ++j) out[w * i + j] = p[i] == j ? x[i] : 0.f;
}

// Histogram with atomics: hist[x[i]] += 1 (hist must hold zeros).
extern "C" __global__ void sidx_histogram(const int* x, int* hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[x[i]], 1);
}

// Reference: one thread per bin counts the matching elements.
extern "C" __global__ void sidx_histogram_count(const int* x, int* hist, int n, int bins) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= bins) return;
  int c = 0;
  for (int i = 0; i < n; ++i) c += x[i] == b;
  hist[b] = c;
}

// Bug: a plain read-modify-write instead of an atomic.
extern "C" __global__ void sidx_histogram_plain(const int* x, int* hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) hist[x[i]] += 1;
}

// Histogram in shared memory: zeroed, atomics at the values' bins, then copied out (one CTA,
// at most 8 bins).
extern "C" __global__ void sidx_histogram_shared(const int* x, int* hist, int n, int bins) {
  __shared__ int sh[8];
  int tid = threadIdx.x;
  if (tid < bins) sh[tid] = 0;
  __syncthreads();
  for (int i = tid; i < n; i += blockDim.x) atomicAdd(&sh[x[i]], 1);
  __syncthreads();
  if (tid < bins) hist[tid] = sh[tid];
}
