// CTA barriers, named or not (exec/cta_barrier.hpp). Arrivals are counted when a thread
// executes bar.sync / bar.arrive; the phase completes at the arrival that reaches its thread
// count, and the scheduler lets its waiting threads go at the end of the round.
//
// Which arrivals form a phase must not depend on the schedule. Hardware counts arrivals in the
// order they happen, so the engine's grouping is the only one exactly when every arrival of a
// phase is ordered (happens-before) after every arrival of the phase before: then no schedule
// can count it earlier. That is checked at each arrival; a whole-CTA phase at bar.sync passes
// it trivially (every thread waited there). Also refused, as unfaithful: a count that is not a
// multiple of the warp size (sem/), arrivals with different counts in one phase, a thread
// arriving twice in one phase, and phases made of parts of warps (hardware counts whole warps).
#include <algorithm>

#include "exec/refusal.hpp"
#include "exec/scheduler.hpp"

namespace racer::exec {
namespace {

std::string barrier_name(uint32_t id) { return "barrier " + std::to_string(id); }

}  // namespace

void Scheduler::cta_barrier_arrive(ExecContext& ctx, uint32_t id, uint32_t count, bool waits) {
  Cta& cta = ctx.cta;
  const uint32_t size = static_cast<uint32_t>(cta.threads.size());
  if (count == 0) count = size;  // bar.sync without a count: the whole CTA
  if (count > size)
    throw Refusal(barrier_name(id) + " expects " + std::to_string(count) + " threads; the CTA has " + std::to_string(size));
  if (cta.barriers.empty()) cta.barriers.resize(16);
  CtaBarrier& b = cta.barriers.at(id);
  if (b.count != 0 && b.count != count)
    throw Refusal("arrives at " + barrier_name(id) + " with a thread count of " + std::to_string(count) +
                  " while the phase being gathered counts " + std::to_string(b.count) +
                  ": different counts in one phase are not modelled");
  if (b.arrived.empty()) b.arrived.assign(size, 0);
  if (b.arrived[ctx.th.linear])
    throw Refusal("arrives at " + barrier_name(id) +
                  " a second time before its phase completes: which phase the arrival counts toward depends on the "
                  "schedule");
  for (const CtaBarrier::Arrival& p : b.previous)
    if (p.thread != ctx.th.linear && !path_.ordered_before(p.at, cta, ctx.th))
      throw Refusal("arrives at " + barrier_name(id) + " unordered with thread " + std::to_string(p.thread) +
                    "'s arrival in its last phase: which arrivals form a phase would depend on the schedule");
  b.arrived[ctx.th.linear] = 1;
  b.count = count;
  // Numbered like an access: a release of this thread before the arrival has a smaller number,
  // one after it at least this one.
  const AccessRecord at{cta.linear * size + ctx.th.linear, cta.epoch, cta.warp_epoch[ctx.th.warp],
                        static_cast<uint16_t>(path_.launch_index()), path_.next_access()};
  b.arrivals.push_back({ctx.th.linear, at, waits});
  if (!ctx.th.hb.empty()) b.published.join(ctx.th.hb);
  if (b.arrivals.size() == count) complete_cta_barrier(cta, b, id);
}

void Scheduler::complete_cta_barrier(Cta& cta, CtaBarrier& b, uint32_t id) {
  const uint32_t size = static_cast<uint32_t>(cta.threads.size());
  const bool whole_cta =
      b.count == size && std::all_of(b.arrivals.begin(), b.arrivals.end(), [](const auto& a) { return a.waits; });
  if (whole_cta) {
    // Released into a new epoch by the scheduler; no arrival can come before that.
    b.whole_cta = true;
    b.whole_cta_clock = std::move(b.published);
    b.previous.clear();
  } else {
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
    // Every arrival's earlier accesses (and what it knew) go to every waiting participant,
    // which runs nothing until the scheduler lets it go.
    Clock wake = std::move(b.published);
    for (const CtaBarrier::Arrival& a : b.arrivals) wake.raise_seq(a.at.thread, a.at.seq);
    wake.raise_epoch(cta.linear, cta.epoch);
    for (const CtaBarrier::Arrival& a : b.arrivals)
      if (a.waits) cta.threads[a.thread].hb.join(wake);
    b.previous = b.arrivals;
  }
  for (const CtaBarrier::Arrival& a : b.arrivals)
    if (a.waits) b.waking.push_back(a.thread);
  b.count = 0;
  b.arrivals.clear();
  b.arrived.assign(size, 0);
  b.published = Clock{};
}

bool Scheduler::release_cta_barriers(Cta& cta) {
  bool released = false;
  for (CtaBarrier& b : cta.barriers) {
    if (b.waking.empty()) continue;
    if (b.whole_cta) {
      // The common case: a new epoch orders everything before it; clocks only carry what came
      // from elsewhere (mbarriers, other CTAs), which every thread now has (the published clock
      // joins every thread's: all of them arrived). Entries for this CTA's own threads name
      // accesses before the barrier, which the epoch covers from now on: they go, and clocks
      // stay small.
      path_.flush_shared_atomics(cta);
      Clock& all = b.whole_cta_clock;
      const uint32_t size = static_cast<uint32_t>(cta.threads.size()), first = cta.linear * size;
      std::erase_if(all.seqs, [&](const auto& e) { return e.first >= first && e.first - first < size; });
      for (Thread& t : cta.threads)
        if (!t.hb.empty() || !all.empty()) t.hb = all;
      cta.epoch = path_.next_epoch();
      b.whole_cta = false;
      all = Clock{};
    }
    for (uint32_t t : b.waking) cta.threads[t].wait = Wait::None;
    b.waking.clear();
    released = true;
  }
  return released;
}

std::string Scheduler::cta_barrier_state(const Cta& cta, uint32_t id) const {
  if (cta.barriers.empty()) return {};
  const CtaBarrier& b = cta.barriers.at(id);
  if (b.count == 0) return {};
  return "; " + barrier_name(id) + " has " + std::to_string(b.arrivals.size()) + " of the " + std::to_string(b.count) +
         " arrivals its phase needs";
}

}  // namespace racer::exec
