#pragma once
// State of a CTA's asynchronous operations: cp.async copies in flight (their destination
// bytes are not to be touched until the issuing thread's wait retires them), and wgmma
// accumulator registers pending until wgmma.wait_group. The asynchronous unit
// (exec/async_unit.hpp) works on it; each CTA holds its own.
#include <cstdint>
#include <map>
#include <vector>

#include "exec/defect.hpp"
#include "exec/happens_before.hpp"
#include "exec/value.hpp"
#include "ptx/types.hpp"

namespace racer::exec {

// One cp.async: the source read when it was issued, landing in shared memory at its wait.
struct AsyncCopy {
  struct Part {
    uint32_t offset;  // from dst
    uint8_t size;
    Value value;
  };
  uint32_t instr = 0;   // the cp.async, where defects of its landing are reported
  uint64_t dst = 0;     // shared-space address
  unsigned size = 0;
  std::vector<Part> parts;
  uint32_t group = kUncommitted;
  static constexpr uint32_t kUncommitted = UINT32_MAX;
  // red.async: the atomic operation (ptx::atomop) its one part applies to the bytes when it
  // lands, rather than overwriting them; kNoReduction for copies and st.async.
  uint8_t reduce_op = kNoReduction;
  ptx::Type reduce_type = ptx::Type::B32;
  Site reduce_site;  // where an uninitialized target it reads at landing is reported
  // st.async / red.async into another CTA: the issuing thread (launch-wide) and the number of
  // that remote access (Cluster::remote). Landing at a wait of the target CTA orders it
  // before that CTA exits.
  uint32_t remote_thread = UINT32_MAX;
  uint32_t remote_seq = 0;
  static constexpr uint8_t kNoReduction = UINT8_MAX;
  bool reduction() const { return reduce_op != kNoReduction; }
};

struct PendingRegister {
  uint32_t reg = 0;
  uint32_t instr = 0;   // the wgmma.mma_async that writes it
  uint32_t group = AsyncCopy::kUncommitted;
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t half_of = kNone;  // a 16-bit half unpacked from this accumulator before the wait
};

struct ThreadAsync {
  std::vector<AsyncCopy> copies;
  uint32_t copy_groups = 0;       // cp.async.commit_group count
  std::vector<PendingRegister> regs;
  uint32_t wgmma_groups = 0;      // wgmma.commit_group count
};

// An mbarrier object in shared memory: the arrivals its current phase still waits for, its
// transaction count, and the bulk copies that complete it. The copies land (and the phase
// completes) as late as the program allows: when a thread waits for the phase and every
// arrival and every expected byte is there, so a thread that reads without waiting meets
// them in flight.
struct Mbarrier {
  uint32_t expected = 0;  // arrivals per phase (mbarrier.init count, less arrive_drop)
  uint32_t pending = 0;   // arrivals the current phase still needs
  int64_t tx = 0;         // bytes expected (expect_tx) and not yet landed
  uint64_t phase = 0;     // completed phases
  std::vector<AsyncCopy> copies;  // bulk copies in flight that complete_tx on it
  // Who initialized it, and when (launch-wide thread, access sequence number): an arrive from
  // another CTA of the cluster must be ordered after the init by a cluster barrier.
  uint32_t init_thread = UINT32_MAX;
  uint32_t init_seq = 0;
  // Release/acquire: what the current phase's release arrivals published (their clocks,
  // AccessPath::release_clock, joined); per completed phase, the same accumulated over that phase
  // and all before it. A wait that sees a phase complete joins that phase's clock.
  Clock releasing;
  std::vector<Clock> released;
  // The writer the bytes its copies land are recorded under (region.hpp, kAsyncWriterBase on;
  // 0 until the first landing): its access numbered p + 1 is phase p's landing, published in
  // that phase's clock, so only threads that acquired the phase (or are ordered after one that
  // did) read them without a race.
  uint32_t landing_writer = 0;
};

struct CtaAsync {
  std::map<uint32_t, ThreadAsync> threads;  // by thread (linear index in the CTA)
  std::map<uint64_t, Mbarrier> barriers;    // by shared-memory offset
  // Per thread: the access sequence number of its last fence.proxy.async (0: none). A
  // generic-proxy store to shared memory after it is not visible to the async proxy (wgmma).
  std::map<uint32_t, uint32_t> proxy_fence;
  ThreadAsync& of(uint32_t thread) { return threads[thread]; }
};

}  // namespace racer::exec
