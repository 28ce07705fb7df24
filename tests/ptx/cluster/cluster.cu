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

// The .shared::cluster address of `p` (this CTA's shared memory) in the CTA of rank `rank`.
__device__ unsigned remote_address(const void* p, unsigned rank) {
  unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(p)), remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  return remote;
}

// Waits (without bound) for phase 0 of the mbarrier at shared address `bar`.
__device__ void wait_phase0(unsigned bar) {
  unsigned done = 0;
  while (!done) {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar) : "memory");
  }
}

// st.async: every thread of rank r sends in[gid] to buf[tid] of rank (r + 1) % n, completing
// on that CTA's mbarrier (128 bytes expected); each CTA waits and writes its buffer out.
extern "C" __global__ void st_async_u32(const unsigned* in, unsigned* out) {
  __shared__ __align__(16) unsigned buf[32];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank(), n = cl.num_blocks(), tid = threadIdx.x, gid = blockIdx.x * 32 + tid;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  cl.sync();
  if (tid == 0) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 128;" ::"r"(b) : "memory");
  unsigned next = (rank + 1) % n;
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
               ::"r"(remote_address(&buf[tid], next)), "r"(in[gid]), "r"(remote_address(&bar, next)) : "memory");
  wait_phase0(b);
  out[gid] = buf[tid];
  cl.sync();
}

// Vector st.async: threads 0..7 of rank r send in[gid * 4 ..] as one .v4.b32 into buf[4 tid ..],
// threads 8..15 send two 64-bit words (.v2.b64) into buf2 of rank (r + 1) % n; 256 bytes.
extern "C" __global__ void st_async_vec(const unsigned* in, unsigned* out) {
  __shared__ __align__(16) unsigned buf[32];
  __shared__ __align__(16) unsigned long long buf2[16];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank(), n = cl.num_blocks(), tid = threadIdx.x, cta = blockIdx.x;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  cl.sync();
  if (tid == 0) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(b) : "memory");
  unsigned next = (rank + 1) % n, rbar = remote_address(&bar, next);
  if (tid < 8) {
    const unsigned* w = in + cta * 64 + tid * 4;
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];"
                 ::"r"(remote_address(&buf[tid * 4], next)), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(rbar) : "memory");
  } else if (tid < 16) {
    const unsigned* w = in + cta * 64 + 32 + (tid - 8) * 4;
    unsigned long long lo = w[0] | static_cast<unsigned long long>(w[1]) << 32, hi = w[2] | static_cast<unsigned long long>(w[3]) << 32;
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b64 [%0], {%1, %2}, [%3];"
                 ::"r"(remote_address(&buf2[(tid - 8) * 2], next)), "l"(lo), "l"(hi), "r"(rbar) : "memory");
  }
  wait_phase0(b);
  out[cta * 64 + tid] = buf[tid];
  out[cta * 64 + 32 + tid] = reinterpret_cast<const unsigned*>(buf2)[tid];
  cl.sync();
}

// red.async.add.u32: every thread of every CTA adds in[1 + tid] * (rank + 1) to rank 0's
// counter (initialized to in[0]), completing on rank 0's mbarrier (4 bytes each).
extern "C" __global__ void red_async_add(const unsigned* in, unsigned* out) {
  __shared__ unsigned cnt;
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank(), n = cl.num_blocks(), tid = threadIdx.x;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (tid == 0) {
    cnt = in[0];
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  }
  cl.sync();
  if (rank == 0 && tid == 0) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(n * 32 * 4) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
               ::"r"(remote_address(&cnt, 0)), "r"(in[1 + tid] * (rank + 1)), "r"(remote_address(&bar, 0)) : "memory");
  if (rank == 0) {
    wait_phase0(b);
    if (tid == 0) out[blockIdx.x / n] = cnt;
  }
  cl.sync();
}

// The other red.async operations, each on its own word of rank 0's shared memory (initialized
// from in[0..8]): add.u64, min.s32, max.u32, inc.u32, dec.u32, and/or/xor.b32; operands from
// in[8 + tid] and the rank; 36 bytes per thread complete on rank 0's mbarrier.
extern "C" __global__ void red_async_ops(const unsigned* in, unsigned* out) {
  __shared__ __align__(8) unsigned long long wide;
  __shared__ unsigned w[7];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank(), n = cl.num_blocks(), tid = threadIdx.x;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (tid == 0) {
    wide = in[0] | static_cast<unsigned long long>(in[1]) << 32;
    for (int i = 0; i < 7; ++i) w[i] = in[2 + i];
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  }
  cl.sync();
  if (rank == 0 && tid == 0) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(n * 32 * 36) : "memory");
  unsigned x = in[8 + tid] + rank * 0x01000193u, rb = remote_address(&bar, 0);
  unsigned long long xw = static_cast<unsigned long long>(x) * 0x9E3779B1u;
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%0], %1, [%2];"
               ::"r"(remote_address(&wide, 0)), "l"(xw), "r"(rb) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%0], %1, [%2];"
               ::"r"(remote_address(&w[0], 0)), "r"(x), "r"(rb) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.u32 [%0], %1, [%2];"
               ::"r"(remote_address(&w[1], 0)), "r"(x), "r"(rb) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%0], %1, [%2];"
               ::"r"(remote_address(&w[2], 0)), "r"(in[40]), "r"(rb) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.dec.u32 [%0], %1, [%2];"
               ::"r"(remote_address(&w[3], 0)), "r"(in[41]), "r"(rb) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.and.b32 [%0], %1, [%2];"
               ::"r"(remote_address(&w[4], 0)), "r"(x | 0x10101010u), "r"(rb) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.or.b32 [%0], %1, [%2];"
               ::"r"(remote_address(&w[5], 0)), "r"(x & 0x0F0F0F0Fu), "r"(rb) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.xor.b32 [%0], %1, [%2];"
               ::"r"(remote_address(&w[6], 0)), "r"(x), "r"(rb) : "memory");
  if (rank == 0) {
    wait_phase0(b);
    if (tid == 0) {
      unsigned* o = out + (blockIdx.x / n) * 9;
      o[0] = static_cast<unsigned>(wide);
      o[1] = static_cast<unsigned>(wide >> 32);
      for (int i = 0; i < 7; ++i) o[2 + i] = w[i];
    }
  }
  cl.sync();
}
