#pragma once
// The scheduler: runs a launch's CTAs, one at a time or a cluster's together, in rounds. In a
// round every ready thread runs to its next synchronization point (the stepper's work); then
// whatever can be released is: warp collectives, mbarrier phases, CTA barriers (whose arrivals
// it counts, exec/cta_barrier.hpp), the cluster barrier. Participants that can never meet are
// a refusal that says who waits where.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "exec/access_path.hpp"
#include "exec/async_unit.hpp"
#include "exec/cluster_unit.hpp"
#include "exec/context.hpp"
#include "exec/cta.hpp"
#include "exec/ports.hpp"

namespace racer::exec {

// What runs threads between synchronization points (the Machine's interpreter loop).
class ThreadStepper {
 public:
  // Runs every ready thread of cta until it exits or waits; true when every thread exited.
  virtual bool run_ready_threads(Cta& cta) = 0;
  // The CTAs run so far are done: nothing of their threads' registers is read again.
  virtual void ctas_done() = 0;

 protected:
  ~ThreadStepper() = default;
};

class Scheduler final : public SyncPort {
 public:
  Scheduler(AccessPath& path, AsyncUnit& async, ClusterUnit& clusters, ThreadStepper& stepper, const Semantics& sem)
      : path_(path), async_(async), clusters_(clusters), stepper_(stepper), sem_(sem) {}

  // Runs every CTA of the current launch (the access path's) to completion, each with
  // shared_size bytes of shared memory and local_bytes of local memory per thread.
  void run(uint64_t shared_size, uint64_t local_bytes);

  // --- the port instruction semantics see (exec/ports.hpp) ---
  void cta_barrier_arrive(ExecContext& ctx, uint32_t id, uint32_t count, bool waits) override;
  void warp_synchronized(Cta& cta, std::span<Thread* const> lanes) override;

 private:
  // A fresh CTA at ctaid (x, y, z): uninitialized shared memory, every thread at the start.
  void init_cta(Cta& cta, uint32_t x, uint32_t y, uint32_t z, uint64_t shared_size, uint64_t local_bytes);
  void run_cta(Cta& cta);
  void run_clusters(uint64_t shared_size, uint64_t local_bytes);
  void run_cluster(std::vector<Cta>& ctas);
  bool release_sync(Cta& cta);  // false when nothing can be released
  void complete_cta_barrier(Cta& cta, CtaBarrier& b, uint32_t id);
  bool release_cta_barriers(Cta& cta);  // lets the waiters of completed phases go on
  std::string cta_barrier_state(const Cta& cta, uint32_t id) const;  // for a stuck thread's message
  [[noreturn]] void stuck(Cta& cta);  // says who waits where

  AccessPath& path_;
  AsyncUnit& async_;
  ClusterUnit& clusters_;
  ThreadStepper& stepper_;
  const Semantics& sem_;
  // Whether the current launch's kernel has a synchronization that publishes clocks (mbarrier
  // arrive, bar.arrive or a counted bar.sync, barrier.cluster): without one, none is ever read.
  bool publishes_clocks_ = false;
  // The threads of the CTA run last, kept for the next one's (init_cta).
  std::vector<Thread> spare_threads_;
};

}  // namespace racer::exec
