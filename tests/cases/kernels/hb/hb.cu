// Happens-before chains of the t_hb_* cases: stores ordered before another thread's reads only
// through a chain of synchronizations (mbarrier -> mbarrier, CTA barrier -> mbarrier,
// barrier.cluster -> mbarrier, mbarrier -> barrier.cluster), and named barriers over part of a
// CTA (bar.arrive / bar.sync with a thread count) in a producer/consumer pipeline. Each copies
// x into out; the broken forms cut the chain. Built by build_hb_ptx.sh.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define K extern "C" __global__ void

namespace {

__device__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ void mbar_init(unsigned long long* b, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(count) : "memory");
}
__device__ void mbar_arrive(unsigned long long* b) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem(b)) : "memory");
}
// An arrive on the barrier at the same place in the shared memory of cluster rank `rank`.
__device__ void mbar_arrive_rank(unsigned long long* b, unsigned rank) {
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem(b)), "r"(rank));
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}
__device__ void mbar_wait(unsigned long long* b, unsigned parity) {
  asm volatile(
      "{\n"
      "  .reg .pred done;\n"
      "WAIT:\n"
      "  mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "  @!done bra WAIT;\n"
      "}\n" ::"r"(smem(b)),
      "r"(parity)
      : "memory");
}
__device__ void cluster_arrive() { asm volatile("barrier.cluster.arrive;" ::: "memory"); }
__device__ void cluster_wait() { asm volatile("barrier.cluster.wait;" ::: "memory"); }

// The cluster kernels' start: a buffer and an mbarrier (32 arrivals) in every CTA, the
// barrier's init published to the cluster by a cluster barrier.
struct ClusterStart {
  float* buf;
  unsigned long long* bar;
  unsigned warp, lane, rank;
  __device__ float read_rank0() const { return cg::this_cluster().map_shared_rank(buf, 0)[lane]; }
};
__device__ ClusterStart cluster_start() {
  __shared__ float buf[32];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cl = cg::this_cluster();
  unsigned t = threadIdx.x;
  if (t == 0) mbar_init(&bar, 32);
  cl.sync();
  return {buf, &bar, t / 32, t % 32, cl.block_rank()};
}

}  // namespace

// out[i] = x[i].
K copy(const float* x, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[i];
}

// mbarrier -> mbarrier in one CTA of 3 warps: warp 1 stages x and arrives on `full`; warp 0
// waits for `full` and arrives on `relayed`; warp 2 waits for `relayed` and copies the buffer
// out. The broken form's relay arrives without waiting.
template <bool kRelayWaits>
__device__ void relay(const float* x, float* out) {
  __shared__ float buf[32];
  __shared__ __align__(8) unsigned long long full, relayed;
  unsigned t = threadIdx.x, warp = t / 32, lane = t % 32;
  if (t == 0) {
    mbar_init(&full, 32);
    mbar_init(&relayed, 32);
  }
  __syncthreads();
  if (warp == 1) {
    buf[lane] = x[lane];
    mbar_arrive(&full);
  } else if (warp == 0) {
    if (kRelayWaits) mbar_wait(&full, 0);
    mbar_arrive(&relayed);
  } else {
    mbar_wait(&relayed, 0);
    out[lane] = buf[lane];
  }
}
K mbarrier_relay(const float* x, float* out) { relay<true>(x, out); }
K mbarrier_relay_no_wait(const float* x, float* out) { relay<false>(x, out); }

// Named barriers, 4 warps: warps 0-1 produce tile after tile of 64 into one buffer and
// bar.arrive on barrier 1 (full); warps 2-3 bar.sync on it, copy the tile out, and bar.arrive
// on barrier 2 (empty), on which the producers bar.sync before overwriting the buffer. The
// broken form's consumers read before their bar.sync.
template <bool kConsumerWaits>
__device__ void pipeline(const float* x, float* out, int tiles) {
  __shared__ float buf[64];
  unsigned t = threadIdx.x;
  if (t < 64) {
    for (int i = 0; i < tiles; ++i) {
      if (i > 0) asm volatile("bar.sync 2, 128;" ::: "memory");
      buf[t] = x[i * 64 + t];
      asm volatile("bar.arrive 1, 128;" ::: "memory");
    }
  } else {
    unsigned c = t - 64;
    for (int i = 0; i < tiles; ++i) {
      float v;
      if (kConsumerWaits) {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        v = buf[c];
      } else {
        v = buf[c];
        asm volatile("bar.sync 1, 128;" ::: "memory");
      }
      out[i * 64 + c] = v;
      if (i + 1 < tiles) asm volatile("bar.arrive 2, 128;" ::: "memory");
    }
  }
}
K named_barrier_pipeline(const float* x, float* out, int tiles) { pipeline<true>(x, out, tiles); }
K named_barrier_read_early(const float* x, float* out, int tiles) { pipeline<false>(x, out, tiles); }

// CTA barrier -> mbarrier across a cluster of 2 CTAs of 2 warps: rank 0's warp 0 stages x;
// rank 0 synchronizes (__syncthreads); its warp 1 arrives on rank 1's mbarrier; rank 1's warp 0
// waits and copies rank 0's buffer out. The broken form has no __syncthreads: the arrive
// releases only warp 1's own accesses.
template <bool kSync>
__device__ void sync_then_signal(const float* x, float* out) {
  ClusterStart c = cluster_start();
  if (c.rank == 0) {
    if (c.warp == 0) c.buf[c.lane] = x[c.lane];
    if (kSync) __syncthreads();
    if (c.warp == 1) mbar_arrive_rank(c.bar, 1);
  } else if (c.warp == 0) {
    mbar_wait(c.bar, 0);
    out[c.lane] = c.read_rank0();
  }
  cg::this_cluster().sync();
}
K cluster_sync_then_signal(const float* x, float* out) { sync_then_signal<true>(x, out); }
K cluster_signal_without_sync(const float* x, float* out) { sync_then_signal<false>(x, out); }

// barrier.cluster -> mbarrier: rank 0's warp 0 stages x and every thread arrives at the cluster
// barrier; rank 0's warp 1 waits for it and arrives on rank 1's mbarrier; rank 1's warp 0 waits
// on that mbarrier (not on the cluster barrier) before it reads rank 0's buffer.
K cluster_barrier_then_signal(const float* x, float* out) {
  ClusterStart c = cluster_start();
  if (c.rank == 0 && c.warp == 0) c.buf[c.lane] = x[c.lane];
  cluster_arrive();
  if (c.rank == 0) {
    cluster_wait();
    if (c.warp == 1) mbar_arrive_rank(c.bar, 1);
  } else {
    if (c.warp == 0) {
      mbar_wait(c.bar, 0);
      out[c.lane] = c.read_rank0();
    }
    cluster_wait();
  }
  cg::this_cluster().sync();
}

// mbarrier -> barrier.cluster: rank 0's warp 1 arrives at the cluster barrier, then stages x
// and arrives on its CTA's mbarrier; rank 0's warp 0 waits on the mbarrier before it arrives at
// the cluster barrier; rank 1's warp 0 reads rank 0's buffer after the cluster barrier. The
// stores follow warp 1's own arrive: only the chain through warp 0 orders them.
K mbarrier_then_cluster_barrier(const float* x, float* out) {
  ClusterStart c = cluster_start();
  if (c.rank == 0 && c.warp == 1) {
    cluster_arrive();
    c.buf[c.lane] = x[c.lane];
    mbar_arrive(c.bar);
    cluster_wait();
  } else {
    if (c.rank == 0) mbar_wait(c.bar, 0);
    cluster_arrive();
    cluster_wait();
    if (c.rank == 1 && c.warp == 0) out[c.lane] = c.read_rank0();
  }
  cg::this_cluster().sync();
}
