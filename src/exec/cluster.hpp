#pragma once
// Thread-block clusters: the CTAs of one cluster run together, each may reach the others'
// shared memory (.shared::cluster addresses from mapa), and barrier.cluster orders them.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "exec/defect.hpp"
#include "exec/happens_before.hpp"
#include "exec/launch.hpp"
#include "exec/region.hpp"
#include "ptx/ir.hpp"

namespace racer::exec {

struct Cta;

// .shared::cluster addresses: below kClusterRankStride, an address of the executing CTA's own
// shared memory (a shared::cta address is a shared::cluster address of its own CTA);
// (rank + 1) * kClusterRankStride + a, address a of the shared memory of the CTA of that rank
// (what mapa returns). Generic addresses of both lie in the shared window.
constexpr uint64_t kClusterRankStride = uint64_t{1} << 24;

// Whether a kernel uses cluster instructions (barrier.cluster, mapa, getctarank, a
// .shared::cluster space): its launches run cluster by cluster, a CTA being a cluster of one
// when the launch declares none.
bool uses_cluster_instructions(const ptx::Function& fn);
// The shape of a launch's clusters: one CTA where it declares none.
Dim3 cluster_shape(const LaunchSpec& l);

// One thread's barrier.cluster history. Arrive p happened after every access numbered up to
// arrive_seq[p]; an access is ordered before another thread's later access when a release
// arrive follows it whose phase the other thread knows complete (its clock's cluster_phases:
// it waited for it, or acquired from a thread that did).
struct ClusterThread {
  std::vector<uint32_t> arrive_seq;
  std::vector<bool> relaxed;  // per arrive: .relaxed, no release semantics
  uint32_t waits = 0;         // completed barrier.cluster.wait
  uint32_t init_fence = 0;    // access sequence number at its last fence.mbarrier_init (0: none)
};

struct Cluster {
  std::vector<Cta*> ctas;  // by rank
  uint32_t per_cta = 0;    // threads per CTA
  std::map<uint32_t, uint32_t> rank_of;  // CTA linear index in the launch -> rank
  std::vector<ClusterThread> threads;    // rank * per_cta + thread
  // Per phase: what its release arrivals published beyond their own accesses (their clocks and
  // CTA epochs, joined); a wait for the phase joins it.
  std::vector<Clock> phase_clocks;
  // The latest access of each thread at each instruction to another CTA's shared memory, and
  // the rank it reached: it must be ordered before that CTA exits.
  struct RemoteAccess {
    AccessRecord access;
    uint32_t rank;
  };
  std::map<std::pair<uint32_t, uint32_t>, RemoteAccess> remote;  // (instr, thread) ->
  std::map<uint32_t, Site> remote_site;                          // instr -> first site
  std::vector<std::unique_ptr<Region>> beyond;  // empty regions naming ranks outside the cluster

  // The cluster thread of a launch-wide thread number, or -1 outside this cluster.
  int64_t index(uint32_t launch_thread) const;
  // Whether thread t's access numbered seq is ordered before what a thread that knows the
  // first `phases` phases complete does now.
  bool ordered(uint32_t t, uint32_t seq, uint32_t phases) const;
  bool phase_complete(uint32_t phase) const;  // every thread arrived for it
  // Whether thread t's mbarrier.init numbered seq is visible to such a thread: ordered as an
  // access, or fenced by fence.mbarrier_init and followed by any arrive (a relaxed one too)
  // of a phase it knows complete.
  bool init_visible(uint32_t t, uint32_t seq, uint32_t phases) const;
};

}  // namespace racer::exec
