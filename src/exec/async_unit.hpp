#pragma once
// The asynchronous unit: cp.async copies in flight until their wait, wgmma's pending
// accumulator registers, the async proxy's fence, mbarriers and the bulk copies that complete
// on them. Its per-CTA state lives in the CTA (CtaAsync, exec/async_state.hpp); it reaches
// memory only through the access path, and the cluster only by telling it of remote landings.
#include <cstdint>
#include <span>

#include "exec/access_path.hpp"
#include "exec/async_state.hpp"
#include "exec/context.hpp"
#include "exec/cta.hpp"
#include "exec/ports.hpp"

namespace racer::exec {

// Told when a copy another CTA's thread sent (st.async, red.async) lands: the cluster keeps
// that remote access until something orders it before the target CTA's exit.
class RemoteLandings {
 public:
  virtual void landed_remote(const AsyncCopy& c) = 0;

 protected:
  ~RemoteLandings() = default;
};

class AsyncUnit final : public AsyncPort {
 public:
  AsyncUnit(AccessPath& path, RemoteLandings& remote) : path_(path), remote_(remote) {}

  // --- the port instruction semantics see (exec/ports.hpp) ---
  void async_copy(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size,
                  unsigned src_size) override;
  void async_commit(ExecContext& ctx) override;
  void async_wait(ExecContext& ctx, uint32_t keep, bool all) override;
  void proxy_fence(ExecContext& ctx) override;
  Value async_proxy_load(ExecContext& ctx, const ptx::Instr& ins, uint64_t addr, unsigned size, ptx::Type t) override;
  void pend_registers(ExecContext& ctx, const ptx::Instr& ins, std::span<const uint32_t> regs) override;
  bool is_pending_accumulator(ExecContext& ctx, uint32_t reg) override;
  void pend_halves(ExecContext& ctx, const ptx::Instr& ins, uint32_t acc, uint32_t lo, uint32_t hi) override;
  void wgmma_commit(ExecContext& ctx) override;
  void wgmma_wait(ExecContext& ctx, uint32_t keep) override;
  void mbarrier_init(ExecContext& ctx, uint64_t addr, uint32_t count) override;
  void mbarrier_inval(ExecContext& ctx, uint64_t addr) override;
  void mbarrier_expect_tx(ExecContext& ctx, uint64_t addr, uint32_t tx) override;
  bool mbarrier_wait(ExecContext& ctx, uint64_t addr, bool parity, uint64_t value) override;
  void bulk_copy(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size,
                 uint64_t mbar) override;
  AsyncCopy bulk_source(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size) override;
  void bulk_copy_parts(ExecContext& ctx, const ptx::Instr& ins, AsyncCopy copy, uint64_t mbar,
                       unsigned align = 16) override;

  // --- for the access path, the cluster and the scheduler ---
  // Bytes an asynchronous copy is still writing, and an access to them: a race; a read gets an
  // unknown value.
  static bool in_flight(const Region& r, uint64_t off, unsigned size);
  Value in_flight_access(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, bool write,
                         ptx::Type t);
  // Whether every asynchronous write in flight on the CTA's shared bytes [off, off+size) is a
  // red.async of the same operation as c (a Refusal where the order of two would matter).
  bool only_same_reductions(const Cta& cta, const AsyncCopy& c, uint64_t off, unsigned size) const;
  // A read or write of a pending register by any other instruction: a defect; a read gets
  // an unknown value (neither the old nor the new one).
  Value pending_register_access(ExecContext& ctx, uint32_t reg, Value v, bool write);
  // The mbarrier at shared-space address addr of ctx's CTA (a Refusal where none was initialized).
  Mbarrier& mbarrier_at(ExecContext& ctx, uint64_t addr);
  // Arrives (count arrivals; drop: also one fewer per later phase) after adding tx expected
  // bytes; returns the state token (the phase arrived at). release: .release semantics,
  // making the thread's earlier accesses visible to threads whose wait sees the phase complete.
  uint64_t mbarrier_arrive(ExecContext& ctx, uint64_t addr, uint32_t count, uint32_t tx, bool drop, bool release = true);
  // Releases threads whose mbarrier phase completed; false when none can go on.
  bool resolve_mbarrier_waits(Cta& cta);
  void finish_async(Cta& cta);  // lands what no wait landed when the CTA ends

 private:
  AsyncCopy read_source(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size,
                        unsigned src_size);
  bool complete_phase(Cta& cta, Mbarrier& b);
  // An mbarrier wait that saw `phase` complete joins what its arrivals released.
  void acquire(Thread& th, const Mbarrier& b, int64_t phase);
  // Writes a landing asynchronous copy's bytes into `shared` (applies a red.async's operation).
  void land(Cta& cta, Region& shared, const AsyncCopy& c);

  AccessPath& path_;
  RemoteLandings& remote_;
  uint32_t next_landing_writer_ = AccessRecord::kAsyncWriterBase;
};

}  // namespace racer::exec
