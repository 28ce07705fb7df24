// Data-dependent addressing through integer index tensors with concrete contents:
// embedding lookup and its backward pass, gather and scatter by a permutation,
// torch.gather along a dimension, bucketize against concrete boundaries.

// Embedding lookup, one thread per output element: out[t, d] = W[tok[t], d].
extern "C" __global__ void embed_elem(const int* tok, const float* W, float* out, int ntok, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ntok * dim) return;
  int t = i / dim, d = i % dim;
  out[i] = W[tok[t] * dim + d];
}

// Bug: the table is indexed as if it were stored transposed, W[d, tok] with a vocabulary
// of `vocab` columns (in bounds, wrong cells).
extern "C" __global__ void embed_elem_transposed(const int* tok, const float* W, float* out, int ntok, int dim, int vocab) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ntok * dim) return;
  int t = i / dim, d = i % dim;
  out[i] = W[d * vocab + tok[t]];
}

// One thread per token, a loop over the row; tokens outside [0, vocab) give a zero row.
extern "C" __global__ void embed_row_guarded(const int* tok, const float* W, float* out, int ntok, int dim, int vocab) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ntok) return;
  int v = tok[t];
  bool ok = v >= 0 && v < vocab;
  for (int d = 0; d < dim; ++d) out[t * dim + d] = ok ? W[v * dim + d] : 0.f;
}

// Embedding backward: dW[tok[t], d] += dy[t, d] with float atomics. dW must hold zeros.
extern "C" __global__ void embed_bwd_atomic(const int* tok, const float* dy, float* dW, int ntok, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ntok * dim) return;
  int t = i / dim, d = i % dim;
  atomicAdd(&dW[tok[t] * dim + d], dy[i]);
}

// Bug: a plain read-modify-write instead of an atomic: repeated tokens make several
// threads (in one CTA or in different CTAs) update the same cell of dW.
extern "C" __global__ void embed_bwd_plain(const int* tok, const float* dy, float* dW, int ntok, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ntok * dim) return;
  int t = i / dim, d = i % dim;
  dW[tok[t] * dim + d] += dy[i];
}

// Reference: one thread per table cell sums the rows of dy whose token matches.
extern "C" __global__ void embed_bwd_seq(const int* tok, const float* dy, float* dW, int ntok, int dim, int vocab) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= vocab * dim) return;
  int v = i / dim, d = i % dim;
  float s = 0.f;
  for (int t = 0; t < ntok; ++t) s += tok[t] == v ? dy[t * dim + d] : 0.f;
  dW[i] = s;
}

// Scatter: out[p[i]] = x[i].
extern "C" __global__ void scatter_idx(const float* x, const int* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[p[i]] = x[i];
}

// Gather: out[i] = x[q[i]].
extern "C" __global__ void gather_idx(const float* x, const int* q, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[q[i]];
}

// torch.gather(x, 1, idx): out[r, j] = x[r, idx[r, j]], 2-D launch (x = j, y = r).
extern "C" __global__ void gather_dim1_2d(const float* x, const int* idx, float* out, int rows, int cols, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && j < k) out[r * k + j] = x[r * cols + idx[r * k + j]];
}

// Same, 1-D over the flat output index.
extern "C" __global__ void gather_dim1_flat(const float* x, const int* idx, float* out, int rows, int cols, int k) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= rows * k) return;
  int r = o / k;
  out[o] = x[r * cols + idx[o]];
}

// Bug: row offset taken from the index tensor's row length k instead of x's cols.
extern "C" __global__ void gather_dim1_flat_badrow(const float* x, const int* idx, float* out, int rows, int cols, int k) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= rows * k) return;
  int r = o / k;
  out[o] = x[r * k + idx[o]];
}

// bucketize(v, bnd, right=True): number of boundaries <= v.
extern "C" __global__ void bucketize_le(const float* v, const float* bnd, int* out, int n, int nb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = v[i];
  int c = 0;
  for (int k = 0; k < nb; ++k) c += bnd[k] <= a ? 1 : 0;
  out[i] = c;
}

// Same count as nb minus the number of boundaries > v.
extern "C" __global__ void bucketize_le_complement(const float* v, const float* bnd, int* out, int n, int nb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = v[i];
  int c = nb;
  for (int k = 0; k < nb; ++k) c -= a < bnd[k] ? 1 : 0;
  out[i] = c;
}

// bucketize(v, bnd, right=False): number of boundaries < v. Differs from the above only
// when v equals a boundary.
extern "C" __global__ void bucketize_lt(const float* v, const float* bnd, int* out, int n, int nb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = v[i];
  int c = 0;
  for (int k = 0; k < nb; ++k) c += bnd[k] < a ? 1 : 0;
  out[i] = c;
}
