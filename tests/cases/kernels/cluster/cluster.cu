// Thread-block cluster kernels of the t_cl_* cases: sums across the CTAs of a cluster through
// distributed shared memory, and their broken forms. Built by build_cluster_ptx.sh.
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
