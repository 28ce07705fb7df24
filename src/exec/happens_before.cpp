// Vector clocks (exec/happens_before.hpp) and the machine's question built on them: is an
// earlier access ordered before what a thread does now.
#include "exec/happens_before.hpp"

#include <algorithm>

#include "exec/cluster.hpp"
#include "exec/machine.hpp"

namespace racer::exec {
namespace {

using Entries = std::vector<std::pair<uint32_t, uint32_t>>;

// Pointwise maximum of two sorted (key, bound) lists into `into`.
void join_entries(Entries& into, const Entries& from) {
  if (from.empty()) return;
  if (into.empty()) {
    into = from;
    return;
  }
  Entries out;
  out.reserve(into.size() + from.size());
  auto a = into.cbegin();
  auto b = from.cbegin();
  while (a != into.cend() || b != from.end()) {
    if (b == from.end() || (a != into.cend() && a->first < b->first)) out.push_back(*a++);
    else if (a == into.cend() || b->first < a->first) out.push_back(*b++);
    else out.emplace_back(a->first, std::max(a->second, b->second)), ++a, ++b;
  }
  into = std::move(out);
}

void raise(Entries& e, uint32_t key, uint32_t bound) {
  // Callers mostly raise keys in increasing order: appending is the common case.
  if (e.empty() || e.back().first < key) {
    e.emplace_back(key, bound);
    return;
  }
  auto it = std::lower_bound(e.begin(), e.end(), key, [](const auto& p, uint32_t k) { return p.first < k; });
  if (it != e.end() && it->first == key) it->second = std::max(it->second, bound);
  else e.insert(it, {key, bound});
}

uint32_t bound_of(const Entries& e, uint32_t key) {
  auto it = std::lower_bound(e.begin(), e.end(), key, [](const auto& p, uint32_t k) { return p.first < k; });
  return it != e.end() && it->first == key ? it->second : 0;
}

}  // namespace

void Clock::join(const Clock& other) {
  join_entries(seqs, other.seqs);
  join_entries(epochs, other.epochs);
  cluster_phases = std::max(cluster_phases, other.cluster_phases);
}

void Clock::raise_seq(uint32_t thread, uint32_t seq) { raise(seqs, thread, seq); }
void Clock::raise_epoch(uint32_t cta, uint32_t epoch) { raise(epochs, cta, epoch); }
uint32_t Clock::seq_of(uint32_t thread) const { return bound_of(seqs, thread); }
uint32_t Clock::epoch_of(uint32_t cta) const { return bound_of(epochs, cta); }

bool publishes_clocks(const ptx::Function& fn) {
  for (const ptx::Instr& i : fn.instrs) {
    switch (i.op) {
      case ptx::Op::MbarrierArrive:
      case ptx::Op::MbarrierArriveDrop:
      case ptx::Op::BarArrive:
      case ptx::Op::BarrierArrive:
      case ptx::Op::BarrierClusterArrive: return true;
      case ptx::Op::BarSync:
      case ptx::Op::BarrierSync:
        if (i.operands.size() > 1) return true;
        break;
      default: break;
    }
  }
  return false;
}

Clock Machine::release_clock(const ExecContext& ctx) const {
  const Cta& home = clusters_.home_cta(ctx);
  Clock c = ctx.th.hb;
  c.raise_seq(home.linear * static_cast<uint32_t>(home.threads.size()) + ctx.th.linear, access_seq_);
  c.raise_epoch(home.linear, home.epoch);
  return c;
}

bool Machine::ordered_before(const AccessRecord& a, const Cta& cta, const Thread& th) const {
  const uint32_t per_cta = static_cast<uint32_t>(cta.threads.size());
  const uint32_t a_cta = a.thread / per_cta;
  if (a_cta == cta.linear) {
    if (a.epoch != cta.epoch) return true;
    bool same_warp = (a.thread % per_cta) / 32 == th.warp;
    if (same_warp && a.warp_epoch != cta.warp_epoch[th.warp]) return true;
  }
  if (th.hb.empty()) return false;
  if (const Cluster* cl = clusters_.current(); cl && cl->ordered(a.thread, a.seq, th.hb.cluster_phases)) return true;
  return th.hb.covers(a.thread, a_cta, a.seq, a.epoch);
}

}  // namespace racer::exec
