// mbarrier objects and the bulk copies that complete on them (cp.async.bulk ...
// .mbarrier::complete_tx::bytes). A phase completes when its arrivals are all in and its
// transaction count is zero. Bulk copies stay in flight until a thread waits for the phase
// they complete (the latest moment the hardware may land them), so a read that no wait
// orders after them meets them in flight: a race, and an unknown value.
//
// Arrivals release (by default) what is ordered before the arriving thread's arrive (its own
// earlier accesses and its clock, exec/happens_before.hpp), and a wait that sees the phase
// complete acquires it: those accesses are ordered before the waiter's later ones, whatever
// CTA of the cluster either thread is in, and the waiter releases them in turn.
//
// try_wait and test_wait are modelled as waiting until the phase completes (the schedule in
// which the thread is delayed until then). That is faithful only where the program retries a
// failed wait and does nothing else with its outcome: sem/mbarrier.cpp refuses the others
// (ptx/wait_loops.hpp).
#include <algorithm>

#include "exec/async_state.hpp"
#include "exec/async_unit.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

CtaAsync& cta_async(Cta& cta) {
  if (!cta.async) cta.async = std::make_shared<CtaAsync>();
  return *cta.async;
}

}  // namespace

Mbarrier& AsyncUnit::mbarrier_at(ExecContext& ctx, uint64_t addr) {
  Located l = path_.locate(ctx, Space::Shared, addr);
  if (!l.region || !l.region->contains(l.offset, 8) || l.offset % 8)
    throw Refusal("mbarrier operation on an address that is not an aligned 8-byte object in shared memory");
  auto& bars = cta_async(ctx.cta).barriers;
  auto it = bars.find(l.offset);
  if (it == bars.end()) throw Refusal("mbarrier operation on an object that mbarrier.init did not initialize");
  return it->second;
}

void AsyncUnit::mbarrier_init(ExecContext& ctx, uint64_t addr, uint32_t count) {
  Located l = path_.locate(ctx, Space::Shared, addr);
  if (!l.region || !l.region->contains(l.offset, 8) || l.offset % 8)
    throw Refusal("mbarrier.init of an address that is not an aligned 8-byte object in shared memory");
  if (count == 0) throw Refusal("mbarrier.init with a count of 0");
  auto& bars = cta_async(ctx.cta).barriers;
  auto it = bars.find(l.offset);
  if (it != bars.end() && !it->second.copies.empty()) throw Refusal("mbarrier.init of a barrier with bulk copies in flight");
  Mbarrier b;
  b.expected = b.pending = count;
  b.init_thread = ctx.cta.linear * static_cast<uint32_t>(ctx.cta.threads.size()) + ctx.th.linear;
  b.init_seq = path_.next_access();
  bars[l.offset] = std::move(b);
}

void AsyncUnit::mbarrier_inval(ExecContext& ctx, uint64_t addr) {
  Mbarrier& b = mbarrier_at(ctx, addr);
  if (!b.copies.empty()) throw Refusal("mbarrier.inval of a barrier with bulk copies in flight");
  Located l = path_.locate(ctx, Space::Shared, addr);
  ctx.cta.async->barriers.erase(l.offset);
}

uint64_t AsyncUnit::mbarrier_arrive(ExecContext& ctx, uint64_t addr, uint32_t count, uint32_t tx, bool drop, bool release) {
  Mbarrier& b = mbarrier_at(ctx, addr);
  b.tx += tx;
  if (count > b.pending) throw Refusal("mbarrier.arrive with more arrivals than the phase still expects");
  if (release) b.releasing.join(path_.release_clock(ctx));
  uint64_t token = b.phase;
  b.pending -= count;
  if (drop) {
    if (b.expected < count) throw Refusal("mbarrier.arrive_drop below zero expected arrivals");
    b.expected -= count;
  }
  // A phase with nothing in flight completes at its last arrival.
  if (b.pending == 0 && b.copies.empty() && b.tx == 0) complete_phase(ctx.cta, b);
  return token;
}

void AsyncUnit::mbarrier_expect_tx(ExecContext& ctx, uint64_t addr, uint32_t tx) { mbarrier_at(ctx, addr).tx += tx; }

// Lands the phase's copies and completes it, if every arrival and every expected byte is in.
bool AsyncUnit::complete_phase(Cta& cta, Mbarrier& b) {
  if (b.pending != 0) return false;
  int64_t bytes = 0;
  for (const AsyncCopy& c : b.copies) bytes += c.size;
  if (bytes != b.tx) return false;
  Region& shared = *cta.shared;
  // The landed bytes are written by the phase itself (Mbarrier::landing_writer), ordered before
  // exactly what acquires the phase: a thread that did not wait for it, nor follows one that
  // did, races with them.
  const bool landed = !b.copies.empty();
  if (landed && b.landing_writer == 0) b.landing_writer = next_landing_writer_++;
  const AccessRecord landing{b.landing_writer, cta.epoch, 0, static_cast<uint16_t>(path_.launch_index()), static_cast<uint32_t>(b.phase + 1)};
  for (const AsyncCopy& c : b.copies) {
    uint64_t off = c.dst - shared.base;
    for (unsigned k = 0; k < c.size; ++k) --shared.in_flight[off + k];
    shared.track.each(off, c.size, [&](ByteTrack& t) {
      t = ByteTrack{};
      t.writer = t.established = landing;
      return false;
    });
    land(cta, shared, c);
    remote_.landed_remote(c);  // a wait in the target CTA observed it
  }
  b.copies.clear();
  b.tx = 0;
  Clock upto = b.released.empty() ? Clock{} : b.released.back();
  upto.join(b.releasing);
  if (landed) upto.raise_seq(landing.thread, landing.seq);
  b.released.push_back(std::move(upto));
  b.releasing = Clock{};
  ++b.phase;
  b.pending = b.expected;
  return true;
}

bool AsyncUnit::mbarrier_wait(ExecContext& ctx, uint64_t addr, bool parity, uint64_t value) {
  Mbarrier& b = mbarrier_at(ctx, addr);
  Located l = path_.locate(ctx, Space::Shared, addr);
  // Parity: the phase of that parity is the current one (incomplete) or the one before
  // (complete). Token: the phase an arrive returned, complete once the count moved past it.
  bool current = parity ? (b.phase & 1) == (value & 1) : b.phase == value;
  if (!parity && value > b.phase) throw Refusal("mbarrier wait on a state token from a later phase");
  if (!current || complete_phase(ctx.cta, b)) {
    // The phase seen complete: the token's, or the latest one of that parity.
    acquire(ctx.th, b, parity ? static_cast<int64_t>(b.phase) - 1 : static_cast<int64_t>(value));
    return true;
  }
  ctx.th.wait = Wait::Mbarrier;
  ctx.th.wait_instr = ctx.th.pc - 1;
  ctx.th.mbar = l.offset;
  ctx.th.mbar_value = parity ? (value & 1) : value;
  ctx.th.mbar_parity = parity;
  return false;
}

bool AsyncUnit::resolve_mbarrier_waits(Cta& cta) {
  bool released = false;
  for (Thread& th : cta.threads) {
    if (th.wait != Wait::Mbarrier) continue;
    auto it = cta.async->barriers.find(th.mbar);
    if (it == cta.async->barriers.end()) continue;
    Mbarrier& b = it->second;
    bool current = th.mbar_parity ? (b.phase & 1) == th.mbar_value : b.phase == th.mbar_value;
    if (current && !complete_phase(cta, b)) continue;
    ExecContext ctx = path_.context(cta, th);
    acquire(th, b, th.mbar_parity ? static_cast<int64_t>(b.phase) - 1 : static_cast<int64_t>(th.mbar_value));
    const ptx::Operand& d = ctx.fn.instrs[th.wait_instr].operands[0];
    ctx.set(d.kind == ptx::Operand::Kind::Pair ? d.elems[0] : d, Value::of_bits(1));
    th.wait = Wait::None;
    released = true;
  }
  return released;
}

void AsyncUnit::acquire(Thread& th, const Mbarrier& b, int64_t phase) {
  if (phase < 0 || static_cast<size_t>(phase) >= b.released.size()) return;
  th.hb.join(b.released[static_cast<size_t>(phase)]);
}

AsyncCopy AsyncUnit::bulk_source(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size) {
  if (size == 0 || size % 16) path_.refuse(ctx, ins, "cp.async.bulk of a size that is not a nonzero multiple of 16 bytes");
  return read_source(ctx, ins, dst, src, size, size);
}

void AsyncUnit::bulk_copy(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size, uint64_t mbar) {
  AsyncCopy copy = bulk_source(ctx, ins, dst, src, size);
  mbarrier_at(ctx, mbar);
  bulk_copy_parts(ctx, ins, std::move(copy), mbar);
}

void AsyncUnit::bulk_copy_parts(ExecContext& ctx, const ptx::Instr& ins, AsyncCopy copy, uint64_t mbar, unsigned align) {
  Mbarrier& b = mbarrier_at(ctx, mbar);
  uint64_t dst = copy.dst;
  unsigned size = copy.size;
  Located d = path_.locate(ctx, Space::Shared, dst);
  std::optional<uint64_t> at = path_.target(ctx, ins, d, size, align, DefectKind::OobWrite,
                                            [align] {
                                              return align == 16 ? std::string("bulk copy destination not 16-byte aligned")
                                                                 : "destination not aligned to its " + std::to_string(align) + " bytes";
                                            });
  if (!at) return;
  const uint64_t off = *at;
  if (!d.region->in_flight.empty() && in_flight(*d.region, off, size) && !only_same_reductions(ctx.cta, copy, off, size))
    in_flight_access(ctx, ins, *d.region, off, size, true, ptx::Type::B8);
  if (d.region->in_flight.empty()) d.region->in_flight.assign(d.region->size, 0);
  for (unsigned k = 0; k < size; ++k) ++d.region->in_flight[off + k];
  b.copies.push_back(std::move(copy));
}

}  // namespace racer::exec
