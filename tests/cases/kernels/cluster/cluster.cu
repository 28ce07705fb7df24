// Thread-block cluster kernels of the t_cl_* cases: sums across the CTAs of a cluster through
// distributed shared memory, and their broken forms. Built by build_cluster_ptx.sh.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define K extern "C" __global__ void

// out[row][t] = sum over the 4 CTAs r of a cluster of x[row][32 r + t]: CTA (r, row) stages
// its 32 values in shared memory; rank 0 adds the four buffers (one its own) after a cluster
// barrier, and a second one keeps the others alive until it has read them.
template <bool kBarrier, bool kLastBarrier, bool kWrapRank>
__device__ void cluster_row_sum(const float* x, float* out, int cols) {
  __shared__ float part[32];
  cg::cluster_group cl = cg::this_cluster();
  unsigned t = threadIdx.x, rank = cl.block_rank(), n = cl.num_blocks();
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");  // all CTAs started
  part[t] = x[blockIdx.y * cols + rank * 32 + t];
  if (kBarrier) cl.sync();
  if (rank == 0) {
    float s = 0.f;
    for (unsigned r = 0; r < n; ++r) s += cl.map_shared_rank(part, kWrapRank ? r : r + 1)[t];
    out[blockIdx.y * 32 + t] = s;
  }
  if (kLastBarrier) cl.sync();
}

K cluster_row_sum_ok(const float* x, float* out, int cols) { cluster_row_sum<true, true, true>(x, out, cols); }
K cluster_row_sum_no_barrier(const float* x, float* out, int cols) { cluster_row_sum<false, true, true>(x, out, cols); }
K cluster_row_sum_no_exit_barrier(const float* x, float* out, int cols) { cluster_row_sum<true, false, true>(x, out, cols); }
K cluster_row_sum_rank_past_end(const float* x, float* out, int cols) { cluster_row_sum<true, true, false>(x, out, cols); }

// The plain form: one CTA per row, each thread summing its column of four.
K row_sum_plain(const float* x, float* out, int cols) {
  unsigned t = threadIdx.x;
  float s = 0.f;
  for (int r = 0; r < cols / 32; ++r) s += x[blockIdx.x * cols + r * 32 + t];
  out[blockIdx.x * 32 + t] = s;
}

// The same sum with atomics into rank 0's shared accumulator (red on another CTA's shared
// memory), released by the cluster barrier.
K cluster_row_sum_atomic(const float* x, float* out, int cols) {
  __shared__ float acc[32];
  cg::cluster_group cl = cg::this_cluster();
  unsigned t = threadIdx.x, rank = cl.block_rank();
  if (rank == 0) acc[t] = 0.f;
  cl.sync();
  atomicAdd(cl.map_shared_rank(acc, 0) + t, x[blockIdx.y * cols + rank * 32 + t]);
  cl.sync();
  if (rank == 0) out[blockIdx.y * 32 + t] = acc[t];
}

// A copy indexed by the cluster registers: CTA (clusterid * nctaid + cluster_ctaid) is ctaid,
// so this copies like a plain grid; the broken form forgets the cluster's offset.
template <bool kRight>
__device__ void cluster_index_copy(const float* x, float* out) {
  unsigned cid, cn, ccta;
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(cn));
  asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ccta));
  unsigned block = kRight ? cid * cn + ccta : ccta;
  unsigned i = block * blockDim.x + threadIdx.x;
  out[i] = x[i] * 2.f;
}
K cluster_index_copy_ok(const float* x, float* out) { cluster_index_copy<true>(x, out); }
K cluster_index_copy_wrong(const float* x, float* out) { cluster_index_copy<false>(x, out); }
K plain_copy_twice(const float* x, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[i] * 2.f;
}

// A 16 x 32 f16 tile loaded once by TMA and multicast to both CTAs of a cluster of 2 (rank 0
// issues it; each CTA's own mbarrier completes); CTA r writes rows 8r..8r+7 as f32. The broken
// form reads its shared copy without waiting for its barrier.
template <bool kWait>
__device__ void multicast_tile(const CUtensorMap* tm, float* out) {
  __shared__ __align__(128) __half tile[16 * 32];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank(), l = threadIdx.x;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar)), s = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (l == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  cl.sync();
  if (l == 0) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(b) : "memory");
  if (l == 0 && rank == 0)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(s), "l"(tm), "r"(0), "r"(0), "r"(b), "h"(static_cast<unsigned short>(3))
        : "memory");
  if (kWait) {
    unsigned done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(b) : "memory");
  }
  for (unsigned i = l; i < 8 * 32; i += 32) {
    unsigned at = rank * 8 * 32 + i;
    out[at] = __half2float(tile[at]);
  }
  cl.sync();
}
K multicast_tile_ok(const __grid_constant__ CUtensorMap tm, float* out) { multicast_tile<true>(&tm, out); }
K multicast_tile_no_wait(const __grid_constant__ CUtensorMap tm, float* out) { multicast_tile<false>(&tm, out); }

// out[i] = float(a[i]) for n cells.
K half_to_float_copy(const __half* a, float* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = __half2float(a[i]);
}
