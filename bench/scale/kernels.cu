// Kernels for the scale benchmark (bench/scale/bench.py, issue 20): an elementwise add, a
// naive matmul, three tiled matmuls (shared-memory tiles; a 64 x 64 CTA tile with a 4 x 4
// register tile per thread; a TileLang-style 32 x 32 x 32 block with a 2 x 2 register tile),
// naive attention and naive cross-entropy. Compiled with
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo kernels.cu -o kernels.sm90.ptx

#include <cuda_fp16.h>

// One element per thread.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// A grid-stride loop, the operands in the other order.
extern "C" __global__ void vector_add_strided(const float* a, const float* b, float* c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    c[i] = b[i] + a[i];
}

// C[M,N] = A[M,K] B[K,N], one thread per output cell, row-major.
extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// 16 x 16 shared-memory tiles; M, N, K multiples of 16; block (16, 16).
extern "C" __global__ void matmul_tiled16(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// A 64 x 64 tile per CTA of 256 threads, each thread a 4 x 4 register tile; K steps of 16.
// M, N multiples of 64, K a multiple of 16; block (16, 16).
extern "C" __global__ void matmul_tiled64(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[16][64];  // As[k][m]
  __shared__ float Bs[16][64];  // Bs[k][n]
  int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
  int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = t; i < 16 * 64; i += 256) {
      int k = i / 64, m = i % 64;
      As[k][m] = A[(m0 + m) * K + k0 + k];
      Bs[k][m] = B[(k0 + k) * N + n0 + m];
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i];
      for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx * 4 + j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) C[(m0 + ty * 4 + i) * N + n0 + tx * 4 + j] = acc[i][j];
}

// TileLang-style GEMM blocking: a 32 x 32 output tile per CTA, K in blocks of 32 staged through
// shared memory, 16 x 16 threads with a 2 x 2 register tile each (M, N multiples of 32).
extern "C" __global__ void matmul_tiled32(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[32][32];  // As[m][k]
  __shared__ float Bs[32][32];  // Bs[k][n]
  int tx = threadIdx.x, ty = threadIdx.y;
  int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
  float acc[2][2] = {};
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int i = ty; i < 32; i += 16)
      for (int j = tx; j < 32; j += 16) {
        As[i][j] = A[(m0 + i) * K + k0 + j];
        Bs[i][j] = B[(k0 + i) * N + n0 + j];
      }
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) acc[i][j] += As[ty * 2 + i][k] * Bs[k][tx * 2 + j];
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) C[(m0 + ty * 2 + i) * N + n0 + tx * 2 + j] = acc[i][j];
}

// Naive attention, one thread per query row, up to 512 keys: O = softmax(Q K^T / sqrt(D)) V
// with the row's scores kept whole (the flash-attention benchmark's reference).
extern "C" __global__ void attention_naive(const __half* Q, const __half* Kp, const __half* V, float* O, int Sq, int S, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= Sq || S > 512) return;
  float scale = rsqrtf((float)D), s[512];
  float m = -INFINITY;
  for (int j = 0; j < S; ++j) {
    float acc = 0.f;
    for (int k = 0; k < D; ++k) acc += __half2float(Q[i * D + k]) * __half2float(Kp[j * D + k]);
    s[j] = acc * scale;
    m = fmaxf(m, s[j]);
  }
  float l = 0.f;
  for (int j = 0; j < S; ++j) {
    s[j] = expf(s[j] - m);
    l += s[j];
  }
  for (int d = 0; d < D; ++d) {
    float acc = 0.f;
    for (int j = 0; j < S; ++j) acc += s[j] * __half2float(V[j * D + d]);
    O[i * D + d] = acc / l;
  }
}

// Naive cross-entropy, one thread per row: loss = logsumexp(row) - row[label], 0 where the
// label is ignore_index (the cross-entropy benchmark's reference).
extern "C" __global__ void cross_entropy_naive(const float* logits, const int* labels, float* loss, int rows, int ncols,
                                               int ignore_index) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* x = logits + (long)r * ncols;
  float m = -INFINITY;
  for (int j = 0; j < ncols; ++j) m = fmaxf(m, x[j]);
  float s = 0.f;
  for (int j = 0; j < ncols; ++j) s += expf(x[j] - m);
  int y = labels[r];
  loss[r] = y == ignore_index ? 0.f : m + logf(s) - x[y];
}
