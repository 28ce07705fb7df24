#pragma once
// Happens-before between the threads of a launch, as a vector clock per thread.
//
// Ordering comes from three sources. Program order: a thread's own accesses. CTA-wide
// barriers: every access of a CTA in an earlier barrier epoch (AccessRecord::epoch) is
// ordered before every later access of that CTA, the cheap common case that needs no clock.
// Everything else (mbarrier release/acquire, named barriers over a subset of the CTA,
// barrier.cluster, and chains of any of these through CTA barriers) goes through a Clock:
// what a thread knows to be ordered before its next access. A synchronization that releases
// publishes the releasing thread's clock together with its own position; one that acquires
// joins what was published. Joins are commutative, so the result does not depend on the
// order in which the engine ran the threads, and chains are transitive by construction:
// a thread releases what it acquired.
#include <cstdint>
#include <utility>
#include <vector>

#include "ptx/ir.hpp"

namespace racer::exec {

struct Clock {
  // (launch-wide thread, access sequence number): that thread's accesses numbered up to it are
  // ordered before. Sorted by thread.
  std::vector<std::pair<uint32_t, uint32_t>> seqs;
  // (CTA linear index in the launch, barrier epoch): that CTA's accesses in epochs below it
  // are ordered before. Sorted by CTA.
  std::vector<std::pair<uint32_t, uint32_t>> epochs;
  // barrier.cluster phases of the running cluster known to be complete.
  uint32_t cluster_phases = 0;

  bool empty() const { return seqs.empty() && epochs.empty() && cluster_phases == 0; }
  void join(const Clock& other);
  void raise_seq(uint32_t thread, uint32_t seq);
  void raise_epoch(uint32_t cta, uint32_t epoch);
  uint32_t seq_of(uint32_t thread) const;  // 0: none of its accesses (sequence numbers start at 1)
  uint32_t epoch_of(uint32_t cta) const;   // 0: none (epochs start at 1)
  // Whether the access numbered seq of `thread` (of CTA `cta`, in epoch `epoch`) is ordered before.
  bool covers(uint32_t thread, uint32_t cta, uint32_t seq, uint32_t epoch) const {
    return seq <= seq_of(thread) || epoch < epoch_of(cta);
  }
};

// Whether a kernel has a synchronization that publishes or reads clocks beyond CTA-wide
// barriers (exec/happens_before.cpp).
bool publishes_clocks(const ptx::Function& fn);

}  // namespace racer::exec
