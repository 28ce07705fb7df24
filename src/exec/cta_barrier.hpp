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
#include "exec/region.hpp"

namespace racer::exec {

struct CtaBarrier {
  uint32_t count = 0;  // threads the phase being gathered needs (0: nothing arrived yet)
  struct Arrival {
    uint32_t thread;  // linear in the CTA
    AccessRecord at;  // where it stood: its last access number, CTA and warp epochs
    bool waits;       // bar.sync (not bar.arrive)
  };
  std::vector<Arrival> arrivals;
  std::vector<uint8_t> arrived;  // per CTA thread: arrived in this phase
  Clock published;               // the arrivals' clocks, joined
  // The arrivals of the last completed phase (empty after a whole-CTA phase): every arrival of
  // the next phase must be ordered after each of them, or which arrivals form a phase would
  // depend on the schedule.
  std::vector<Arrival> previous;
  // Waiting threads of completed phases the scheduler has not let go yet (their clocks already
  // joined what the phase published), and whether that phase was the whole CTA at bar.sync,
  // which goes on into a new barrier epoch with `whole_cta_clock` as every thread's clock.
  std::vector<uint32_t> waking;
  bool whole_cta = false;
  Clock whole_cta_clock;
};

}  // namespace racer::exec
