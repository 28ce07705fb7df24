// Does the check's access pattern lose bandwidth at n = 32768 (f32 pass 2 read 3136 GB/s in
// run15 against 3470 at 16384)? Read-only probe of A and C (no arithmetic), at n = 8192, 16384,
// 32768, three orders of the same bytes:
//  tiles:  the library's plan: 256-row tiles x column splits (264 CTA slots), each CTA streams
//          its split block by block (128 columns), 4 rows x 128 B an item a lane group, one item
//          ahead; at any moment every row of the matrices is being read (every 2 MB page).
//  bands:  the same CTAs and items, but only T tiles at once: CTA (t, s) reads tiles t, t + T,
//          ... in column split s of S (T x S = 256), so the pages being read are T x 256 rows.
//  linear: each CTA reads one contiguous slice of each matrix (the ceiling).
// Build: nvcc -O3 -gencode=arch=compute_90,code=sm_90 pattern_probe.cu -o pattern_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

// One CTA's reads of rows [row0, row0 + 256) x columns [c0, c1): block by block, item by item.
__device__ inline unsigned read_tile(const float* m, const float* c, int64_t n, int64_t row0, int64_t c0, int64_t c1) {
  const int lane = threadIdx.x & 31, l8 = lane & 7, group = threadIdx.x / 8;
  constexpr int R = 4, kGroups = 256 / R / 32;  // row groups of a lane group in a 256-row tile
  unsigned acc = 0;
  uint4 cur[R][2], nxt[R][2];
  auto load = [&](int64_t col, int gi, uint4 (&d)[R][2]) {
    const int64_t row = row0 + (group + 32 * gi) * R;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int64_t at = (row + r) * n + col + l8 * 4;
      d[r][0] = __ldcs(reinterpret_cast<const uint4*>(m + at));
      d[r][1] = __ldcs(reinterpret_cast<const uint4*>(c + at));
    }
  };
  for (int64_t b = c0; b < c1; b += 128) {
    const int items = kGroups * 4;  // 4 units of 32 columns a 128-column block
    load(b, 0, cur);
    for (int item = 0; item < items; ++item) {
      if (item + 1 < items) load(b + (item + 1) % 4 * 32, (item + 1) / 4, nxt);
#pragma unroll
      for (int r = 0; r < R; ++r) acc ^= cur[r][0].x ^ cur[r][0].w ^ cur[r][1].y ^ cur[r][1].z;
#pragma unroll
      for (int r = 0; r < R; ++r) cur[r][0] = nxt[r][0], cur[r][1] = nxt[r][1];
    }
  }
  return acc;
}

__global__ void __launch_bounds__(256, 2) tiles(const float* m, const float* c, int64_t n, int64_t cps, unsigned* sink) {
  const int64_t c0 = int64_t(blockIdx.y) * cps;
  unsigned acc = read_tile(m, c, n, int64_t(blockIdx.x) * 256, c0, min(n, c0 + cps));
  if (acc == 0x12345678u) sink[0] = acc;
}

// grid (T, S): CTA (t, s) reads tiles t, t + T, ... of split s.
__global__ void __launch_bounds__(256, 2) bands(const float* m, const float* c, int64_t n, int64_t cps, unsigned* sink) {
  const int64_t c0 = int64_t(blockIdx.y) * cps;
  unsigned acc = 0;
  for (int64_t t = blockIdx.x; t * 256 < n; t += gridDim.x) acc ^= read_tile(m, c, n, t * 256, c0, min(n, c0 + cps));
  if (acc == 0x12345678u) sink[0] = acc;
}

__global__ void __launch_bounds__(256, 2) linear(const uint4* m, const uint4* c, int64_t count, unsigned* sink) {
  const int64_t per = (count + gridDim.x - 1) / gridDim.x, b = blockIdx.x * per, e = min(count, b + per);
  unsigned acc = 0;
  for (int64_t i = b + threadIdx.x; i < e; i += 4 * 256) {
    uint4 v[8];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int64_t at = min(i + j * 256, e - 1);
      v[j] = __ldcs(m + at), v[4 + j] = __ldcs(c + at);
    }
#pragma unroll
    for (int j = 0; j < 8; ++j) acc ^= v[j].x ^ v[j].w;
  }
  if (acc == 0x12345678u) sink[0] = acc;
}

template <class F> float time_ms(F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  std::vector<float> t;
  for (int i = 0; i < 13; ++i) {
    cudaEventRecord(a), f(), cudaEventRecord(b), cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    if (i >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int64_t most = 32768;
  float *m, *c;
  unsigned* sink;
  CK(cudaMalloc(&m, most * most * 4));
  CK(cudaMalloc(&c, most * most * 4));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMemset(m, 1, most * most * 4));
  CK(cudaMemset(c, 2, most * most * 4));
  printf("| n | order | grid | ms (median of 10) | GB/s of A and C |\n| --- | --- | --- | --- | --- |\n");
  for (int64_t n : {8192, 16384, 32768}) {
    const double gb = 2.0 * n * n * 4 / 1e9;
    auto row = [&](const char* order, dim3 g, float ms) { printf("| %lld | %s | %ux%u | %.4f | %.0f |\n", (long long)n, order, g.x, g.y, ms, gb / ms * 1e3); };
    const int64_t tiles_n = n / 256, splits = std::max<int64_t>(1, 2 * sms / tiles_n);
    const int64_t cps = (n / splits + 127) / 128 * 128;
    dim3 g(unsigned(tiles_n), unsigned((n + cps - 1) / cps));
    row("tiles", g, time_ms([&] { tiles<<<g, 256>>>(m, c, n, cps, sink); }));
    for (int64_t s : {8, 16, 32, 64}) {
      if (s > n / 128 || 256 % s != 0) continue;
      dim3 gb2(unsigned(256 / s), unsigned(s));
      if (gb2.x > tiles_n) continue;
      row("bands", gb2, time_ms([&] { bands<<<gb2, 256>>>(m, c, n, n / s, sink); }));
    }
    dim3 gl(unsigned(2 * sms));
    row("linear", gl, time_ms([&] { linear<<<gl, 256>>>(reinterpret_cast<const uint4*>(m), reinterpret_cast<const uint4*>(c), n * n / 4, sink); }));
    CK(cudaGetLastError());
  }
}
