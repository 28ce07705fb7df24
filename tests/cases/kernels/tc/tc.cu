// Tensor-core and asynchronous-copy kernels of the t_tc_* cases (issue 6): wmma, mma.sync with
// ldmatrix, a cp.async double-buffered pipeline and its broken variants, split-K with
// tensor cores, wgmma over interleaved and 128B-swizzled shared memory, and the references.
// Matrices are row-major; A is M x K, B is K x N (BT: N x K), C is M x N in f32.
// Built by build_tc_ptx.sh for sm_90a (wgmma needs the "a" target).
#include <cuda.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;
#define K extern "C" __global__ void

// ---------------------------------------------------------------- references
K mm_naive(const half* A, const half* B, float* C, int M, int N, int Kd) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float acc = 0.f;
  for (int k = 0; k < Kd; ++k) acc += __half2float(A[i * Kd + k]) * __half2float(B[k * N + j]);
  C[i * N + j] = acc;
}

K mm_naive_bt(const half* A, const half* BT, float* C, int M, int N, int Kd) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float acc = 0.f;
  for (int k = 0; k < Kd; ++k) acc += __half2float(A[i * Kd + k]) * __half2float(BT[j * Kd + k]);
  C[i * N + j] = acc;
}

// ---------------------------------------------------------------- wmma
// One warp per 16x16 tile of C; B given transposed (BT, N x K), read as a column-major B.
template <bool WRONG_LAYOUT>
__device__ void wmma_bt(const half* A, const half* BT, float* C, int N, int Kd) {
  int ti = blockIdx.y * 16, tj = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.f);
  for (int k = 0; k < Kd; k += 16) {
    wmma::load_matrix_sync(fa, A + ti * Kd + k, Kd);
    if (WRONG_LAYOUT) {  // the bug: BT read as if it were B (row-major K x N)
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
      wmma::load_matrix_sync(fb, BT + tj * Kd + k, Kd);
      wmma::mma_sync(fc, fa, fb, fc);
    } else {
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
      wmma::load_matrix_sync(fb, BT + tj * Kd + k, Kd);
      wmma::mma_sync(fc, fa, fb, fc);
    }
  }
  wmma::store_matrix_sync(C + ti * N + tj, fc, N, wmma::mem_row_major);
}
K mm_wmma_bt(const half* A, const half* BT, float* C, int M, int N, int Kd) { wmma_bt<false>(A, BT, C, N, Kd); }
K mm_wmma_bt_wrong_layout(const half* A, const half* BT, float* C, int M, int N, int Kd) { wmma_bt<true>(A, BT, C, N, Kd); }

// ---------------------------------------------------------------- mma.sync + ldmatrix
// One warp per 16x8 tile of C (K <= 64): the A strip and the B strip go to shared memory,
// ldmatrix.x4 gives the A fragment, ldmatrix.x2.trans the B fragment of each k16 step.
// MODE 0: as it should be; 1: B without .trans (the bug); 2: f16 accumulators.
template <int MODE>
__device__ void mma_tile(const half* A, const half* B, float* C, int N, int Kd, int k0, int k1, bool atomic) {
  __shared__ __align__(16) half As[16 * 64];
  __shared__ __align__(16) half Bs[64 * 8];
  int l = threadIdx.x, ti = blockIdx.y * 16, tj = blockIdx.x * 8, kw = k1 - k0;
  for (int e = l; e < 16 * kw; e += 32) As[e] = A[(ti + e / kw) * Kd + k0 + e % kw];
  for (int e = l; e < kw * 8; e += 32) Bs[e] = B[(k0 + e / 8) * N + tj + e % 8];
  __syncthreads();
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  unsigned h[2] = {0u, 0u};
  for (int kk = 0; kk < kw; kk += 16) {
    unsigned a[4], b[2];
    unsigned pa = (unsigned)__cvta_generic_to_shared(&As[((l % 8) + 8 * ((l / 8) % 2)) * kw + kk + 8 * (l / 16)]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
    unsigned pb = (unsigned)__cvta_generic_to_shared(&Bs[(kk + l % 16) * 8]);
    if (MODE == 1)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
    if (MODE == 2)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                   : "+r"(h[0]), "+r"(h[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  if (MODE == 2) {
    unsigned short p[4];
    asm("mov.b32 {%0, %1}, %2;" : "=h"(p[0]), "=h"(p[1]) : "r"(h[0]));
    asm("mov.b32 {%0, %1}, %2;" : "=h"(p[2]), "=h"(p[3]) : "r"(h[1]));
    for (int i = 0; i < 4; ++i) d[i] = __half2float(__ushort_as_half(p[i]));
  }
  int g = l / 4, t = l % 4;
  for (int i = 0; i < 4; ++i) {
    float* dst = &C[(ti + g + 8 * (i >> 1)) * N + tj + t * 2 + (i & 1)];
    if (atomic) atomicAdd(dst, d[i]);
    else *dst = d[i];
  }
}
K mm_mma_ldmatrix(const half* A, const half* B, float* C, int M, int N, int Kd) { mma_tile<0>(A, B, C, N, Kd, 0, Kd, false); }
K mm_mma_ldmatrix_notrans(const half* A, const half* B, float* C, int M, int N, int Kd) { mma_tile<1>(A, B, C, N, Kd, 0, Kd, false); }
K mm_mma_f16acc(const half* A, const half* B, float* C, int M, int N, int Kd) { mma_tile<2>(A, B, C, N, Kd, 0, Kd, false); }
// Split-K: CTA z of gridDim.z handles K range [z*Kd/Z, (z+1)*Kd/Z) and adds its partial
// product into C (zeroed) with atomics.
K mm_mma_splitk(const half* A, const half* B, float* C, int M, int N, int Kd) {
  int part = Kd / gridDim.z;
  mma_tile<0>(A, B, C, N, Kd, blockIdx.z * part, (blockIdx.z + 1) * part, true);
}

// ---------------------------------------------------------------- cp.async pipeline
// A 16x16 tile of C per CTA (256 threads, one output each), K in tiles of 16 through two
// shared-memory stages filled by cp.async (4 bytes per thread per matrix), one commit group
// per tile. MODE 0: correct (wait_group 1 + barrier before use, barrier before refill);
// 1: the wait_group is missing; 2: the barrier that keeps a stage from being refilled while
// other threads still read it is missing.
__device__ void cp4(void* smem, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"((unsigned)__cvta_generic_to_shared(smem)), "l"(g) : "memory");
}
template <int MODE>
__device__ void pipe(const half* A, const half* B, float* C, int N, int Kd) {
  __shared__ __align__(16) half As[2][16 * 16];
  __shared__ __align__(16) half Bs[2][16 * 16];
  int tid = threadIdx.y * 16 + threadIdx.x, ti = blockIdx.y * 16, tj = blockIdx.x * 16, tiles = Kd / 16;
  auto load = [&](int tile, int s) {
    int e = 2 * (tid % 128);  // two halves per thread per matrix
    if (tid < 128) cp4(&As[s][e], &A[(ti + e / 16) * Kd + tile * 16 + e % 16]);
    else cp4(&Bs[s][e], &B[(tile * 16 + e / 16) * N + tj + e % 16]);
  };
  load(0, 0);
  asm volatile("cp.async.commit_group;" ::: "memory");
  float acc = 0.f;
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) load(t + 1, (t + 1) % 2);
    asm volatile("cp.async.commit_group;" ::: "memory");
    if (MODE != 1) asm volatile("cp.async.wait_group 1;" ::: "memory");
    __syncthreads();
    const half* as = As[t % 2];
    const half* bs = Bs[t % 2];
    for (int k = 0; k < 16; ++k) acc += __half2float(as[threadIdx.y * 16 + k]) * __half2float(bs[k * 16 + threadIdx.x]);
    if (MODE != 2) __syncthreads();
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  C[(ti + threadIdx.y) * N + tj + threadIdx.x] = acc;
}
K mm_cp_async_pipe(const half* A, const half* B, float* C, int M, int N, int Kd) { pipe<0>(A, B, C, N, Kd); }
K mm_cp_async_no_wait(const half* A, const half* B, float* C, int M, int N, int Kd) { pipe<1>(A, B, C, N, Kd); }
K mm_cp_async_early_reuse(const half* A, const half* B, float* C, int M, int N, int Kd) { pipe<2>(A, B, C, N, Kd); }

// ---------------------------------------------------------------- wgmma
// One warpgroup computes a 64x16 tile of C with wgmma.mma_async m64n16k16 over K = 64
// (four k-steps). A (64 x 64) and B^T (16 x 64) are staged K-major in shared memory, either
// as interleaved 8x16-byte core matrices (SW = 0: LBO 128, SBO 1024) or in 128-byte rows
// with the 128B swizzle (SW = 1: SBO 1024). MISSING_WAIT: the accumulators are stored
// without wgmma.wait_group (the bug). NO_FENCE: the shared-memory stores are not made visible
// to the async proxy (no fence.proxy.async) before the wgmma reads them (the bug).
__device__ unsigned long long make_desc(unsigned addr, unsigned lbo, unsigned sbo, unsigned sw) {
  return ((unsigned long long)(addr & 0x3FFFF) >> 4) | ((unsigned long long)(lbo >> 4) << 16) |
         ((unsigned long long)(sbo >> 4) << 32) | ((unsigned long long)sw << 62);
}
__device__ unsigned kmajor_offset(int row, int k, int sw) {  // bytes
  if (!sw) return (row % 8) * 16 + (row / 8) * 1024 + (k % 8) * 2 + (k / 8) * 128;
  unsigned a = (row % 8) * 128 + (row / 8) * 1024 + k * 2;
  return a ^ (((a >> 7) & 7) << 4);
}
template <int SW, bool MISSING_WAIT, bool NO_FENCE = false>
__device__ void wgmma_tile(const half* A, const half* B, float* C, int N) {
  __shared__ __align__(1024) unsigned char sm[8192 + 2048];
  int tid = threadIdx.x, tj = blockIdx.x * 16;
  for (int e = tid; e < 64 * 64; e += 128) *(half*)(sm + kmajor_offset(e / 64, e % 64, SW)) = A[e];
  for (int e = tid; e < 16 * 64; e += 128) *(half*)(sm + 8192 + kmajor_offset(e % 16, e / 16, SW)) = B[(e / 16) * N + tj + e % 16];
  __syncthreads();
  if (!NO_FENCE) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  unsigned base = (unsigned)__cvta_generic_to_shared(sm);
  float d[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int ks = 0; ks < 4; ++ks) {
    unsigned step = SW ? 32 * ks : 256 * ks;
    unsigned long long da = make_desc(base + step, SW ? 16 : 128, 1024, SW), db = make_desc(base + 8192 + step, SW ? 16 : 128, 1024, SW);
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1, 0, 0;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "l"(da), "l"(db) : "memory");
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  if (!MISSING_WAIT)
    asm volatile("wgmma.wait_group.sync.aligned 0;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) :: "memory");
  int w = tid / 32, l = tid % 32, g = l / 4, t = l % 4;
  for (int i = 0; i < 8; ++i) C[(16 * w + g + 8 * ((i % 4) >> 1)) * N + tj + 8 * (i / 4) + t * 2 + (i & 1)] = d[i];
}
K mm_wgmma_interleaved(const half* A, const half* B, float* C, int M, int N, int Kd) { wgmma_tile<0, false>(A, B, C, N); }
K mm_wgmma_sw128(const half* A, const half* B, float* C, int M, int N, int Kd) { wgmma_tile<1, false>(A, B, C, N); }
K mm_wgmma_no_wait(const half* A, const half* B, float* C, int M, int N, int Kd) { wgmma_tile<1, true>(A, B, C, N); }
K mm_wgmma_no_proxy_fence(const half* A, const half* B, float* C, int M, int N, int Kd) { wgmma_tile<0, false, true>(A, B, C, N); }

// ---------------------------------------------------------------- attention reference
// out[i][d] = sum_j softmax_j(q_i . k_j / sqrt(D)) v[j][d] for Sq queries over S keys: one
// thread per (i, d), the
// softmax over the whole row at once (max, then sum of exponentials).
K attention_naive(const half* Q, const half* Kp, const half* V, float* O, int Sq, int S, int D) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, d = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= Sq || d >= D) return;
  float scale = rsqrtf((float)D);
  float m = -INFINITY;
  for (int j = 0; j < S; ++j) {
    float s = 0.f;
    for (int k = 0; k < D; ++k) s += __half2float(Q[i * D + k]) * __half2float(Kp[j * D + k]);
    m = fmaxf(m, s * scale);
  }
  float l = 0.f, acc = 0.f;
  for (int j = 0; j < S; ++j) {
    float s = 0.f;
    for (int k = 0; k < D; ++k) s += __half2float(Q[i * D + k]) * __half2float(Kp[j * D + k]);
    float p = expf(s * scale - m);
    l += p;
    acc += p * __half2float(V[j * D + d]);
  }
  O[i * D + d] = acc / l;
}

// The same with one thread per query row: the row's scores computed once (S <= 64), then
// every output column (cheaper to execute than one thread per cell).
K attention_naive_rows(const half* Q, const half* Kp, const half* V, float* O, int Sq, int S, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= Sq || S > 64) return;
  float scale = rsqrtf((float)D), s[64];
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

// ---------------------------------------------------------------- mbarrier + bulk copies
// C (16 rows per CTA, N = 16) = A x B with K = 64 in two halves, each half fetched by thread
// 0 with cp.async.bulk (A: one 64-byte copy per row; B: one 1024-byte copy) completing on
// its own transaction mbarrier; every thread waits for the half's phase, then accumulates.
// WRONG_PARITY: the waits ask for parity 1, which counts as complete before the first phase
// (the consumers read the halves while the copies are in flight).
__device__ bool mbar_try_wait(unsigned bar, unsigned parity) {
  unsigned ok;
  asm volatile("{ .reg .pred %%pw; mbarrier.try_wait.parity.shared::cta.b64 %%pw, [%1], %2; selp.u32 %0, 1, 0, %%pw; }"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok;
}
template <bool WRONG_PARITY>
__device__ void bulk_tile(const half* A, const half* B, float* C, int N, int Kd) {
  __shared__ __align__(128) half As[2][16 * 32];
  __shared__ __align__(128) half Bs[2][32 * 16];
  __shared__ __align__(8) unsigned long long bars[2];
  int tid = threadIdx.y * 16 + threadIdx.x, ti = blockIdx.y * 16;
  if (tid == 0)
    for (int s = 0; s < 2; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&bars[s])) : "memory");
  __syncthreads();
  if (tid == 0)
    for (int s = 0; s < 2; ++s) {
      unsigned bar = (unsigned)__cvta_generic_to_shared(&bars[s]);
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 2048;" :: "r"(bar) : "memory");
      for (int r = 0; r < 16; ++r)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 64, [%2];"
                     :: "r"((unsigned)__cvta_generic_to_shared(&As[s][r * 32])), "l"(A + (ti + r) * Kd + 32 * s), "r"(bar) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                   :: "r"((unsigned)__cvta_generic_to_shared(Bs[s])), "l"(B + 32 * s * N), "r"(bar) : "memory");
    }
  float acc = 0.f;
  for (int s = 0; s < 2; ++s) {
    while (!mbar_try_wait((unsigned)__cvta_generic_to_shared(&bars[s]), WRONG_PARITY ? 1 : 0)) {}
    for (int k = 0; k < 32; ++k) acc += __half2float(As[s][threadIdx.y * 32 + k]) * __half2float(Bs[s][k * 16 + threadIdx.x]);
  }
  C[(ti + threadIdx.y) * N + threadIdx.x] = acc;
}
K mm_bulk_mbarrier(const half* A, const half* B, float* C, int M, int N, int Kd) { bulk_tile<false>(A, B, C, N, Kd); }
K mm_bulk_wrong_parity(const half* A, const half* B, float* C, int M, int N, int Kd) { bulk_tile<true>(A, B, C, N, Kd); }

// ---------------------------------------------------------------- TMA
// C (16 rows per CTA, N = 16) = A x B with K = 32: thread 0 loads the CTA's 16 x 32 tile of A
// and the whole 32 x 16 B with cp.async.bulk.tensor.2d through tensor maps passed by value,
// completing on one mbarrier; every thread waits for the phase, then accumulates. A's map may
// use the 64-byte swizzle (its rows are 64 bytes): the reads undo it.
__device__ unsigned swz64(unsigned byte) { return byte ^ (((byte >> 7) & 3) << 4); }
template <bool SWIZZLED>
__device__ void tma_tile(const CUtensorMap* tmA, const CUtensorMap* tmB, float* C, int N) {
  __shared__ __align__(1024) half As[16 * 32];
  __shared__ __align__(1024) half Bs[32 * 16];
  __shared__ __align__(8) unsigned long long bar;
  int tid = threadIdx.y * 16 + threadIdx.x, ti = blockIdx.y * 16;
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  if (tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 2048;" :: "r"(b) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"((unsigned)__cvta_generic_to_shared(As)), "l"(tmA), "r"(0), "r"(ti), "r"(b) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"((unsigned)__cvta_generic_to_shared(Bs)), "l"(tmB), "r"(0), "r"(0), "r"(b) : "memory");
  }
  __syncthreads();
  while (!mbar_try_wait(b, 0)) {}
  float acc = 0.f;
  const unsigned char* a8 = (const unsigned char*)As;
  for (int k = 0; k < 32; ++k) {
    unsigned off = (threadIdx.y * 32 + k) * 2;
    half a = *(const half*)(a8 + (SWIZZLED ? swz64(off) : off));
    acc += __half2float(a) * __half2float(Bs[k * 16 + threadIdx.x]);
  }
  C[(ti + threadIdx.y) * N + threadIdx.x] = acc;
}
K mm_tma(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, float* C, int M, int N, int Kd) {
  tma_tile<false>(&tmA, &tmB, C, N);
}
K mm_tma_swizzled(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, float* C, int M, int N, int Kd) {
  tma_tile<true>(&tmA, &tmB, C, N);
}

// ---------------------------------------------------------------- wgmma with f16 accumulators
// The 64x16 tile of wgmma_tile (128B swizzle) accumulated in f16 (m64n16k16.f16.f16.f16: four
// 32-bit registers, two f16 each), unpacked into 16-bit halves right after the commit and
// before wgmma.wait_group, the wait naming the halves, as Triton emits an f16 dot on sm_90
// (ptxas keeps the halves in place until they are used). MODE 1: one half is stored before the
// wait (the bug: read while the wgmma is in flight). MODE 2: a second wgmma accumulates into
// the unpacked registers before the wait.
template <int MODE>
__device__ void wgmma_tile_f16acc(const half* A, const half* B, float* C, int N) {
  __shared__ __align__(1024) unsigned char sm[8192 + 2048];
  int tid = threadIdx.x, tj = blockIdx.x * 16;
  for (int e = tid; e < 64 * 64; e += 128) *(half*)(sm + kmajor_offset(e / 64, e % 64, 1)) = A[e];
  for (int e = tid; e < 16 * 64; e += 128) *(half*)(sm + 8192 + kmajor_offset(e % 16, e / 16, 1)) = B[(e / 16) * N + tj + e % 16];
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  unsigned base = (unsigned)__cvta_generic_to_shared(sm);
  unsigned d[4] = {0u, 0u, 0u, 0u};
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int ks = 0; ks < 4; ++ks) {
    unsigned long long da = make_desc(base + 32 * ks, 16, 1024, 1), db = make_desc(base + 8192 + 32 * ks, 16, 1024, 1);
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 {%0,%1,%2,%3}, %4, %5, 1, 1, 1, 0, 0;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "l"(da), "l"(db) : "memory");
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  unsigned short h[8];
  for (int k = 0; k < 4; ++k) asm volatile("mov.b32 {%0, %1}, %2;" : "=h"(h[2 * k]), "=h"(h[2 * k + 1]) : "r"(d[k]));
  int w = tid / 32, l = tid % 32, g = l / 4, t = l % 4;
  auto cell = [&](int i) { return (16 * w + g + 8 * ((i % 4) >> 1)) * N + tj + 8 * (i / 4) + t * 2 + (i & 1); };
  if (MODE == 1) C[cell(0)] = __half2float(__ushort_as_half(h[0]));
  if (MODE == 2) {
    unsigned long long da = make_desc(base, 16, 1024, 1), db = make_desc(base + 8192, 16, 1024, 1);
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 {%0,%1,%2,%3}, %4, %5, 1, 1, 1, 0, 0;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "l"(da), "l"(db) : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;"
               : "+h"(h[0]), "+h"(h[1]), "+h"(h[2]), "+h"(h[3]), "+h"(h[4]), "+h"(h[5]), "+h"(h[6]), "+h"(h[7]) :: "memory");
  for (int i = MODE == 1 ? 1 : 0; i < 8; ++i) C[cell(i)] = __half2float(__ushort_as_half(h[i]));
}
K mm_wgmma_f16acc(const half* A, const half* B, float* C, int M, int N, int Kd) { wgmma_tile_f16acc<0>(A, B, C, N); }
K mm_wgmma_f16acc_early_use(const half* A, const half* B, float* C, int M, int N, int Kd) { wgmma_tile_f16acc<1>(A, B, C, N); }
K mm_wgmma_f16acc_rewritten(const half* A, const half* B, float* C, int M, int N, int Kd) { wgmma_tile_f16acc<2>(A, B, C, N); }
