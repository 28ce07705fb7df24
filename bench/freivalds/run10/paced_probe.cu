// Does the length of a row's contiguous burst matter once items are spaced out by compute?
// Read-only probe (no arithmetic): 256-thread CTAs, 2 a multiprocessor, lane groups of 8 lanes x
// 16 B, tiles of 256 rows, one item's loads ahead; an item is R rows x U units of 128 B (the
// same 4 KB a warp for R x U = 4), followed by a spin of U x delay cycles standing in for compute.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

template <int R, int U>
__global__ void __launch_bounds__(256, 2) paced_read(const float* m, const float* c, int64_t n, int64_t cps, int bc, long long delay, unsigned* sink) {
  const int lane = threadIdx.x & 31, l8 = lane & 7, group = threadIdx.x / 8;
  const int64_t row0 = int64_t(blockIdx.x) * 256;
  const int64_t c0 = int64_t(blockIdx.y) * cps, c1 = min(n, c0 + cps);
  const int my_groups = 256 / R / 32, units = bc / 32, items_per_block = my_groups * (units / U);
  unsigned acc = 0;
  uint4 cur[R][U][2], nxt[R][U][2];
  auto load = [&](int64_t b, int item, uint4 (&d)[R][U][2]) {
    const int gi = item / (units / U), u0 = item % (units / U) * U;
    const int64_t row = row0 + (group + 32 * gi) * R;
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t at = (row + r) * n + b + (u0 + u) * 32 + l8 * 4;
        d[r][u][0] = __ldcs(reinterpret_cast<const uint4*>(m + at));
        d[r][u][1] = __ldcs(reinterpret_cast<const uint4*>(c + at));
      }
  };
  for (int64_t b = c0; b < c1; b += bc) {
    load(b, 0, cur);
    for (int item = 0; item < items_per_block; ++item) {
      if (item + 1 < items_per_block) load(b, item + 1, nxt);
      const long long t0 = clock64();
      while (clock64() - t0 < U * delay) {}
#pragma unroll
      for (int r = 0; r < R; ++r)
#pragma unroll
        for (int u = 0; u < U; ++u) acc ^= cur[r][u][0].x ^ cur[r][u][0].w ^ cur[r][u][1].y ^ cur[r][u][1].z;
#pragma unroll
      for (int r = 0; r < R; ++r)
#pragma unroll
        for (int u = 0; u < U; ++u) cur[r][u][0] = nxt[r][u][0], cur[r][u][1] = nxt[r][u][1];
    }
  }
  if (acc == 0x12345678u) sink[0] = acc;
}

template <class F> float time_ms(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int i = 0; i < 15; ++i) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); if (i >= 3) t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

int main() {
  const int64_t n = 8192;
  float *m, *c; unsigned* sink;
  CK(cudaMalloc(&m, n * n * 4)); CK(cudaMalloc(&c, n * n * 4)); CK(cudaMalloc(&sink, 4));
  cudaMemset(m, 1, n * n * 4); cudaMemset(c, 2, n * n * 4);
  const double gb = 2.0 * n * n * 4 / 1e9;
  const int64_t cps = 1024; dim3 grid(unsigned(n / 256), unsigned(n / cps));
  printf("n=%lld, A and C (%.3f GB), grid %ux%u of 256 threads, 128-column blocks\n", (long long)n, gb, grid.x, grid.y);
  printf("| delay cycles per 128-byte unit | 4 rows x 128 B an item: ms (GB/s) | 2 rows x 256 B: ms (GB/s) | 1 row x 512 B: ms (GB/s) |\n| --- | --- | --- | --- |\n");
  for (long long d : {0, 250, 500, 750, 1000, 1500, 2000}) {
    float t1 = time_ms([&] { paced_read<4, 1><<<grid, 256>>>(m, c, n, cps, 128, d, sink); });
    float t2 = time_ms([&] { paced_read<2, 2><<<grid, 256>>>(m, c, n, cps, 128, d, sink); });
    float t3 = time_ms([&] { paced_read<1, 4><<<grid, 256>>>(m, c, n, cps, 128, d, sink); });
    CK(cudaGetLastError());
    printf("| %lld | %.4f (%.0f) | %.4f (%.0f) | %.4f (%.0f) |\n", d, t1, gb / t1 * 1e3, t2, gb / t2 * 1e3, t3, gb / t3 * 1e3);
  }
}
