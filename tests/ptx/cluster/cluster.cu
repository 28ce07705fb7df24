// One-feature kernels for thread-block clusters (issue 6), run on an H200 by run_on_gpu.py
// and in Racer's concrete domain by tests/unit/check/cluster_gpu_vectors_test.cpp.
// Every kernel takes (const unsigned* in, unsigned* out).
#include <cuda.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define SREG(name, slot) \
  asm volatile("mov.u32 %0, %%" name ";" : "=r"(v)); \
  o[slot] = v;

// Thread 0 of every CTA writes 16 words: the cluster special registers and its ctaid.
__device__ void write_sregs(unsigned* out) {
  if (threadIdx.x) return;
  unsigned linear = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned* o = out + linear * 16;
  unsigned v;
  SREG("cluster_ctaid.x", 0) SREG("cluster_ctaid.y", 1) SREG("cluster_ctaid.z", 2)
  SREG("cluster_nctaid.x", 3) SREG("cluster_nctaid.y", 4) SREG("cluster_nctaid.z", 5)
  SREG("cluster_ctarank", 6) SREG("cluster_nctarank", 7)
  SREG("clusterid.x", 8) SREG("clusterid.y", 9) SREG("clusterid.z", 10)
  SREG("nclusterid.x", 11) SREG("nclusterid.y", 12) SREG("nclusterid.z", 13)
  asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v));
  o[14] = v;
  o[15] = linear;
}

extern "C" __global__ void cluster_sregs(const unsigned*, unsigned* out) { write_sregs(out); }

// The same with a compile-time cluster shape (.reqnctapercluster), launched without one.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_sregs_req(const unsigned*, unsigned* out) { write_sregs(out); }

// Distributed shared memory: each CTA reads the next rank's buffer (generic mapa and
// ld.shared::cluster), writes into the previous rank's second buffer (st through a generic
// mapa'd pointer), and getctarank names the rank of a mapa'd address.
extern "C" __global__ void dsmem_exchange(const unsigned* in, unsigned* out) {
  __shared__ unsigned buf[32], buf2[32];
  cg::cluster_group cl = cg::this_cluster();
  unsigned tid = threadIdx.x, gid = blockIdx.x * 32 + tid;
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  buf[tid] = in[gid];
  cl.sync();
  unsigned rank = cl.block_rank(), n = cl.num_blocks(), next = (rank + 1) % n, prev = (rank + n - 1) % n;
  unsigned w = cl.map_shared_rank(buf, next)[tid];
  cl.map_shared_rank(buf2, prev)[tid] = w + 1000 * rank;
  unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(&buf[tid])), remote, g, y;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(prev));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(g) : "r"(remote));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(y) : "r"(remote) : "memory");
  cl.sync();
  out[gid * 4 + 0] = w;
  out[gid * 4 + 1] = buf2[tid];
  out[gid * 4 + 2] = g;
  out[gid * 4 + 3] = y;
  cl.sync();
}

// Atomics on rank 0's shared memory from every CTA of the cluster.
extern "C" __global__ void dsmem_atomic(const unsigned* in, unsigned* out) {
  __shared__ unsigned cnt;
  cg::cluster_group cl = cg::this_cluster();
  if (threadIdx.x == 0) cnt = in[0];
  cl.sync();
  atomicAdd(cl.map_shared_rank(&cnt, 0), (threadIdx.x + 1) * (cl.block_rank() + 1));
  cl.sync();
  if (cl.block_rank() == 0 && threadIdx.x == 0) out[blockIdx.x / cl.num_blocks()] = cnt;
}

// mbarrier arrivals from other CTAs: rank r > 0 arrives r times on rank 0's barrier (count
// 1 + 2 + 3 = 6 for a cluster of 4), whose threads wait for the phase.
extern "C" __global__ void remote_mbarrier(const unsigned*, unsigned* out) {
  __shared__ alignas(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank();
  unsigned bar_addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (rank == 0 && threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar_addr), "r"(6));
  cl.sync();
  if (rank != 0 && threadIdx.x == 0) {
    unsigned remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"(bar_addr));
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;" ::"r"(remote), "r"(rank) : "memory");
  }
  if (rank == 0) {
    unsigned done = 0;
    while (!done) {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(bar_addr) : "memory");
    }
    out[(blockIdx.x / cl.num_blocks()) * 32 + threadIdx.x] = done;
  }
  cl.sync();
}

// TMA multicast: rank 0 copies a 16 x 32 box of a 40 x 72 f16 tensor (a tensor map passed by
// value) into the shared memory of every CTA in the mask (all ranks, or ranks 0, 1 and 3),
// each completing on its own mbarrier at the same offset; every receiving CTA writes its
// shared image (257 words per rank: 256 of box, 1 timeout flag). The edge case's box is
// partly outside the tensor (zero fill).
template <bool kAll>
__device__ void tma_multicast(const CUtensorMap* tm, unsigned* out, int row, int col) {
  __shared__ __align__(128) unsigned sm[256];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank(), n = cl.num_blocks(), l = threadIdx.x;
  unsigned mask = (kAll ? 0xFFFFu : 0xBu) & ((1u << n) - 1);
  bool mine = mask >> rank & 1;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar)), s = static_cast<unsigned>(__cvta_generic_to_shared(sm));
  if (l == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  cl.sync();
  if (l == 0 && mine) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(b) : "memory");
  if (l == 0 && rank == 0)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(s), "l"(tm), "r"(col), "r"(row), "r"(b), "h"(static_cast<unsigned short>(mask))
        : "memory");
  if (mine) {
    unsigned done = 0;
    while (!done) {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(b) : "memory");
    }
    for (unsigned i = l; i < 256; i += 32) out[rank * 257 + i] = sm[i];
    if (l == 0) out[rank * 257 + 256] = !done;
  }
  cl.sync();
}

extern "C" __global__ void tma_multicast_all(const __grid_constant__ CUtensorMap tm, unsigned* out) { tma_multicast<true>(&tm, out, 8, 16); }
extern "C" __global__ void tma_multicast_some_edge(const __grid_constant__ CUtensorMap tm, unsigned* out) {
  tma_multicast<false>(&tm, out, 32, 48);
}
