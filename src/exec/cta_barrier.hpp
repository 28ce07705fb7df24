#pragma once
// One of a CTA's sixteen barriers (bar / barrier .sync and .arrive). A phase gathers arrivals
// until its thread count is reached (every thread of the CTA when none is given); bar.sync
// arrives and waits, bar.arrive arrives and goes on. Completion orders every arrival's
// earlier accesses before every waiting thread's later ones: when all of the CTA waits there,
// by a new barrier epoch (the cheap path), otherwise through the waiters' clocks
// (exec/happens_before.hpp). exec/cta_barrier.cpp has the model and what it refuses.
#include <cstdint>
#include <vector>

#include "exec/happens_before.hpp"

namespace racer::exec {

struct CtaBarrier {
  uint32_t count = 0;  // threads the phase being gathered needs (0: nothing arrived yet)
  struct Arrival {
    uint32_t thread;  // linear in the CTA
    uint32_t seq;     // its last access number when it arrived
    bool waits;       // bar.sync (not bar.arrive)
  };
  std::vector<Arrival> arrivals;
  std::vector<uint8_t> arrived;  // per CTA thread: arrived in this phase
  Clock published;  // the arrivals' clocks and CTA epochs, joined
  // A completed phase whose waiting threads the scheduler has not let go yet: they go on with
  // `wake` joined into their clocks, or into a new epoch when `whole_cta`.
  std::vector<uint32_t> waking;
  Clock wake;
  bool whole_cta = false;
};

}  // namespace racer::exec
