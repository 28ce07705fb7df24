#pragma once
// One CTA of a launch as the machine's parts see it: its threads, its shared and local
// memory, its barrier epochs, its CTA barriers, its pending shared-memory atomics and its
// asynchronous state.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "exec/branch_histories.hpp"
#include "exec/cta_barrier.hpp"
#include "exec/defect.hpp"
#include "exec/region.hpp"
#include "exec/thread.hpp"
#include "exec/value.hpp"
#include "ptx/types.hpp"

namespace racer::exec {

struct PendingAtomic {
  uint8_t op;        // ptx::atomop
  ptx::Type type;
  unsigned size;
  std::vector<Value> operands;
  Site first;
};

struct CtaAsync;

struct Cta {
  std::array<uint32_t, 3> ctaid{};
  uint32_t linear = 0;
  std::unique_ptr<Region> shared;
  std::vector<std::unique_ptr<Region>> locals;
  std::vector<Thread> threads;
  uint32_t epoch = 0;
  std::vector<uint16_t> warp_epoch;
  // Per warp: collectives (shfl.sync, vote.sync, ...) that every lane of the warp took part in.
  std::vector<uint32_t> warp_collectives;
  std::vector<CtaBarrier> barriers;  // the sixteen bar/barrier ids (empty until the first arrival)
  std::map<uint64_t, PendingAtomic> shared_atomics;
  std::shared_ptr<CtaAsync> async;  // created by the first asynchronous operation (exec/async_state.hpp)
  uint32_t cluster_rank = 0;        // %cluster_ctarank (0 outside clustered launches)
  BranchHistories histories;        // the branches its lanes took (activemask)
};

}  // namespace racer::exec
