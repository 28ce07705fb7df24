// CTA barriers, named or not (exec/cta_barrier.hpp). Arrivals are counted when a thread
// executes bar.sync / bar.arrive; the phase completes at the arrival that reaches its thread
// count, and the scheduler lets its waiting threads go at the end of the round.
//
// What stays unfaithful is refused: a count that is not a multiple of the warp size (sem/),
// arrivals with different counts in one phase, a thread arriving twice in one phase, an
// arrival while the waiters of the last phase have not been let go (which arrivals form a
// phase would then depend on the schedule: the engine runs each thread as far as it can
// before completing anything, so a schedule that could group arrivals otherwise shows up
// here), and phases made of parts of warps (hardware counts whole warps).
#include <algorithm>

#include "exec/machine.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

std::string barrier_name(uint32_t id) { return "barrier " + std::to_string(id); }

}  // namespace

void Machine::cta_barrier_arrive(ExecContext& ctx, uint32_t id, uint32_t count, bool waits) {
  Cta& cta = ctx.cta;
  const uint32_t size = static_cast<uint32_t>(cta.threads.size());
  if (count == 0) count = size;  // bar.sync without a count: the whole CTA
  if (count > size)
    throw Refusal(barrier_name(id) + " expects " + std::to_string(count) + " threads; the CTA has " + std::to_string(size));
  if (cta.barriers.empty()) cta.barriers.resize(16);
  CtaBarrier& b = cta.barriers.at(id);
  if (!b.waking.empty())
    throw Refusal("arrives at " + barrier_name(id) +
                  " while threads of its completed phase still wait to go on: which arrivals form a phase would depend "
                  "on the schedule");
  if (b.count != 0 && b.count != count)
    throw Refusal("arrives at " + barrier_name(id) + " with a thread count of " + std::to_string(count) +
                  " while the phase being gathered counts " + std::to_string(b.count) +
                  ": different counts in one phase are not modelled");
  if (b.arrived.empty()) b.arrived.assign(size, 0);
  if (b.arrived[ctx.th.linear])
    throw Refusal("arrives at " + barrier_name(id) +
                  " a second time before its phase completes: which phase the arrival counts toward depends on the "
                  "schedule");
  b.arrived[ctx.th.linear] = 1;
  b.count = count;
  b.arrivals.push_back({ctx.th.linear, access_seq_, waits});
  if (!ctx.th.hb.empty()) b.published.join(ctx.th.hb);
  if (b.arrivals.size() == count) complete_cta_barrier(cta, b, id);
}

void Machine::complete_cta_barrier(Cta& cta, CtaBarrier& b, uint32_t id) {
  const uint32_t size = static_cast<uint32_t>(cta.threads.size());
  b.whole_cta = b.count == size && std::all_of(b.arrivals.begin(), b.arrivals.end(), [](const auto& a) { return a.waits; });
  if (!b.whole_cta) {
    // Hardware counts a warp's arrival as its 32 threads: every participating warp must be whole.
    for (const CtaBarrier::Arrival& a : b.arrivals) {
      const uint32_t first = a.thread / 32 * 32;
      if (first + 32 > size)
        throw Refusal(barrier_name(id) + " over " + std::to_string(b.count) + " threads with the CTA's last warp, which has only " +
                      std::to_string(size - first) + " threads: how it counts is not modelled");
      for (uint32_t t = first; t < first + 32; ++t) {
        if (b.arrived[t]) continue;
        throw Refusal(barrier_name(id) + " completes with part of warp " + std::to_string(a.thread / 32) + " (thread " +
                      std::to_string(t) + (cta.threads[t].exited ? " exited" : " did not arrive") +
                      "): arrivals of parts of warps are not modelled");
      }
    }
  }
  b.wake = std::move(b.published);
  if (!b.whole_cta) {
    const uint32_t first = cta.linear * size;
    for (const CtaBarrier::Arrival& a : b.arrivals) b.wake.raise_seq(first + a.thread, a.seq);
    b.wake.raise_epoch(cta.linear, cta.epoch);
  }
  for (const CtaBarrier::Arrival& a : b.arrivals)
    if (a.waits) b.waking.push_back(a.thread);
  b.count = 0;
  b.arrivals.clear();
  b.arrived.assign(size, 0);
  b.published = Clock{};
}

bool Machine::release_cta_barriers(Cta& cta) {
  bool released = false;
  for (CtaBarrier& b : cta.barriers) {
    if (b.waking.empty()) continue;
    if (b.whole_cta) {
      // The common case: a new epoch orders everything before it; clocks only carry what came
      // from elsewhere (mbarriers, other CTAs), which every thread now has. (`wake` joins every
      // thread's clock: all of them arrived.) Entries for this CTA's own threads name accesses
      // before the barrier, which the epoch covers from now on: they go, and clocks stay small.
      flush_atomics(cta.shared.get(), cta.shared_atomics, &cta);
      const uint32_t size = static_cast<uint32_t>(cta.threads.size()), first = cta.linear * size;
      std::erase_if(b.wake.seqs, [&](const auto& e) { return e.first >= first && e.first - first < size; });
      for (Thread& t : cta.threads)
        if (!t.hb.empty() || !b.wake.empty()) t.hb = b.wake;
      cta.epoch = next_epoch_++;
    } else {
      for (uint32_t t : b.waking) cta.threads[t].hb.join(b.wake);
    }
    for (uint32_t t : b.waking) cta.threads[t].wait = Wait::None;
    b.waking.clear();
    b.wake = Clock{};
    released = true;
  }
  return released;
}

std::string Machine::cta_barrier_state(const Cta& cta, uint32_t id) const {
  if (cta.barriers.empty()) return {};
  const CtaBarrier& b = cta.barriers.at(id);
  if (b.count == 0) return {};
  return "; " + barrier_name(id) + " has " + std::to_string(b.arrivals.size()) + " of the " + std::to_string(b.count) +
         " arrivals its phase needs";
}

}  // namespace racer::exec
