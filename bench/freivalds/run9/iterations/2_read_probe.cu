// Read-only bandwidth of access patterns (no arithmetic): is the check's pattern the limit?
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

// The tiled pass pattern: 128 threads, lane groups of 8 lanes x 16 B of R rows, items over
// column units of 32 f32 columns, block of BC columns, tile of 128 rows, DEPTH items ahead.
template <int R, int DEPTH>
__global__ void __launch_bounds__(128, 4) tiled_read(const float* m, const float* c, int64_t n, int64_t cols_per_split, int bc, unsigned* sink) {
  const int lane = threadIdx.x & 31, l8 = lane & 7, group = threadIdx.x / 8;
  const int64_t row0 = int64_t(blockIdx.x) * 128;
  const int64_t c0 = int64_t(blockIdx.y) * cols_per_split, c1 = min(n, c0 + cols_per_split);
  unsigned acc = 0;
  const int my_groups = 128 / R / 16;
  for (int64_t b = c0; b < c1; b += bc) {
    const int units = bc / 32;
    for (int gi = 0; gi < my_groups; ++gi)
      for (int u = 0; u < units; ++u) {
        const int64_t row = row0 + (group + 16 * gi) * R, col = b + u * 32 + l8 * 4;
#pragma unroll
        for (int r = 0; r < R; ++r) {
          uint4 x = __ldcs(reinterpret_cast<const uint4*>(m + (row + r) * n + col));
          uint4 y = __ldcs(reinterpret_cast<const uint4*>(c + (row + r) * n + col));
          acc ^= x.x ^ x.y ^ x.z ^ x.w ^ y.x ^ y.y ^ y.z ^ y.w;
        }
      }
  }
  if (acc == 0x12345678u) sink[0] = acc;
}

// Whole rows: a warp reads 512 contiguous bytes of one row per step (R rows a warp in turn).
__global__ void __launch_bounds__(128, 4) row_read(const float* m, const float* c, int64_t n, int64_t cols_per_split, unsigned* sink) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const int64_t row0 = int64_t(blockIdx.x) * 128;
  const int64_t c0 = int64_t(blockIdx.y) * cols_per_split, c1 = min(n, c0 + cols_per_split);
  unsigned acc = 0;
  for (int rr = warp; rr < 128; rr += 4) {
    const int64_t row = row0 + rr;
#pragma unroll 4
    for (int64_t col = c0 + lane * 4; col < c1; col += 128) {
      uint4 x = __ldcs(reinterpret_cast<const uint4*>(m + row * n + col));
      uint4 y = __ldcs(reinterpret_cast<const uint4*>(c + row * n + col));
      acc ^= x.x ^ x.y ^ x.z ^ x.w ^ y.x ^ y.y ^ y.z ^ y.w;
    }
  }
  if (acc == 0x12345678u) sink[0] = acc;
}

__global__ void flat_read(const uint4* m, const uint4* c, int64_t count, unsigned* sink) {
  unsigned acc = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    uint4 x = __ldcs(m + i), y = __ldcs(c + i);
    acc ^= x.x ^ x.y ^ x.z ^ x.w ^ y.x ^ y.y ^ y.z ^ y.w;
  }
  if (acc == 0x12345678u) sink[0] = acc;
}

template <class F> float time_ms(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int i = 0; i < 25; ++i) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); if (i >= 5) t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  for (int64_t n : {4096, 8192, 16384}) {
    float *m, *c; unsigned* sink;
    CK(cudaMalloc(&m, n * n * 4)); CK(cudaMalloc(&c, n * n * 4)); CK(cudaMalloc(&sink, 4));
    cudaMemset(m, 1, n * n * 4); cudaMemset(c, 2, n * n * 4);
    const double gb = 2.0 * n * n * 4 / 1e9;
    const int64_t tiles = n / 128; int64_t splits = std::max<int64_t>(1, 4 * sms / tiles);
    const int64_t cps = (n / splits + 255) / 256 * 256; const unsigned sp = unsigned((n + cps - 1) / cps);
    dim3 grid(unsigned(tiles), sp);
    float t1 = time_ms([&] { tiled_read<4, 1><<<grid, 128>>>(m, c, n, cps, 256, sink); });
    float t2 = time_ms([&] { row_read<<<grid, 128>>>(m, c, n, cps, sink); });
    float t3 = time_ms([&] { flat_read<<<sms * 8, 256>>>((const uint4*)m, (const uint4*)c, n * n / 4, sink); });
    float t4 = time_ms([&] { cudaMemcpyAsync(m, c, n * n * 4, cudaMemcpyDeviceToDevice); });
    CK(cudaGetLastError());
    printf("n=%lld A+C %.3f GB: tiled pattern %.4f ms (%.0f GB/s) | whole-row warps %.4f ms (%.0f) | flat grid-stride %.4f ms (%.0f) | memcpy of A %.4f ms (%.0f GB/s r+w)\n",
           (long long)n, gb, t1, gb / t1 * 1e3, t2, gb / t2 * 1e3, t3, gb / t3 * 1e3, t4, gb / t4 * 1e3);
    cudaFree(m); cudaFree(c); cudaFree(sink);
  }
}
