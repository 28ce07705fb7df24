#pragma once
// What instruction semantics (sem/) may ask of the machine, by concern. An instruction sees
// these through its ExecContext and nothing else of the machine: memory as addressed by the
// program, the asynchronous unit (copies, wgmma's pending registers, mbarriers), the
// cluster's distributed shared memory and barriers, and CTA/warp synchronization.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "exec/launch.hpp"
#include "exec/params.hpp"
#include "exec/value.hpp"
#include "ptx/ir.hpp"

namespace racer::exec {

struct ExecContext;
struct AsyncCopy;
struct Cta;
struct Thread;
struct IndexedAddress;

// SharedCluster: a .shared::cluster address, reaching the shared memory of every CTA of the
// cluster (exec/cluster.cpp has the address layout).
enum class Space : uint8_t { Global, Shared, Local, Param, Const, Generic, SharedCluster };
// The state space a memory instruction names (Generic without one); a Refusal for spaces
// not modelled.
Space space_of(const ptx::Instr& ins);

class MemoryPort {
 public:
  virtual Value load(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, ptx::Type t) = 0;
  virtual void store(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, Value v,
                     ptx::Type t) = 0;
  // atom/red whose old value is not used: recorded, combined when order no longer matters.
  virtual void atomic(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, uint8_t op,
                      ptx::Type t, Value operand) = 0;
  // atom.cas (with `expected`) and atom.exch, whose old value is read: executed where they run,
  // on a cell no other thread of the launch swaps or updates atomically (a lock one thread
  // takes and releases); a Refusal where another does (the outcome would depend on the order).
  virtual Value swap_atomic(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size,
                            ptx::Type t, std::optional<Value> expected, Value desired) = 0;
  virtual Value load_param(ExecContext& ctx, const ptx::Instr& ins, uint64_t offset, unsigned size) = 0;
  // An address whose base register (of `width` bits) holds integer data computed from symbolic
  // inputs (an index read from memory), plus `offset`: every address the indices' declared
  // ranges allow where the thread's path runs, each with the index values that name it
  // (exec/indexed_address.hpp); a Refusal where they are not few. The accesses below take one
  // such address plus `extra` bytes (a vector access's element): a load is the select over the
  // candidate cells, a store updates each under its condition, an atomic adds its operand
  // under the condition to each (exec/indexed_memory.cpp).
  virtual std::shared_ptr<const IndexedAddress> indexed_address(ExecContext& ctx, const ptx::Instr& ins, Value base,
                                                                unsigned width, uint64_t offset) = 0;
  virtual Value load_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space,
                             const std::shared_ptr<const IndexedAddress>& a, uint64_t extra, unsigned size, ptx::Type t) = 0;
  virtual void store_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space,
                             const std::shared_ptr<const IndexedAddress>& a, uint64_t extra, unsigned size, Value v,
                             ptx::Type t) = 0;
  virtual void atomic_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space,
                              const std::shared_ptr<const IndexedAddress>& a, unsigned size, uint8_t op, ptx::Type t,
                              Value operand) = 0;
  // A compiled routine's constant table: bytes of a module variable that nothing has
  // written (its initializer), read without recording an access; nullopt otherwise.
  virtual std::optional<uint64_t> peek_constant(ExecContext& ctx, Space space, uint64_t addr, unsigned size) = 0;
  virtual const std::vector<ParamSlot>& param_slots() const = 0;
  virtual const LaunchSpec& current_launch() const = 0;
  virtual const std::vector<TensorSpec>& tensors() const = 0;
  virtual uint64_t tensor_base(size_t tensor) const = 0;

 protected:
  ~MemoryPort() = default;
};

class AsyncPort {
 public:
  // cp.async: reads the source now; the destination's bytes are in flight until a wait of
  // the issuing thread lands them. src_size < size zero-fills the rest.
  virtual void async_copy(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size,
                          unsigned src_size) = 0;
  virtual void async_commit(ExecContext& ctx) = 0;
  // Lands every committed copy of the thread but those of the newest `keep` groups
  // (wait_all: every copy, committed or not).
  virtual void async_wait(ExecContext& ctx, uint32_t keep, bool all) = 0;
  // fence.proxy.async: the thread's earlier shared-memory stores become visible to the
  // async proxy. async_proxy_load: a wgmma's read of shared memory, where bytes a thread
  // stored without such a fence since are a race (and read as an unknown value).
  virtual void proxy_fence(ExecContext& ctx) = 0;
  virtual Value async_proxy_load(ExecContext& ctx, const ptx::Instr& ins, uint64_t addr, unsigned size, ptx::Type t) = 0;
  // wgmma: registers written by wgmma.mma_async, pending until wgmma.wait_group retires them.
  virtual void pend_registers(ExecContext& ctx, const ptx::Instr& ins, std::span<const uint32_t> regs) = 0;
  // `mov.b32 {lo, hi}, acc` of a pending accumulator (Triton's f16 accumulators are unpacked
  // before the wait): whether reg is one, and after the move, lo and hi pending with it.
  virtual bool is_pending_accumulator(ExecContext& ctx, uint32_t reg) = 0;
  virtual void pend_halves(ExecContext& ctx, const ptx::Instr& ins, uint32_t acc, uint32_t lo, uint32_t hi) = 0;
  virtual void wgmma_commit(ExecContext& ctx) = 0;
  virtual void wgmma_wait(ExecContext& ctx, uint32_t keep) = 0;
  // mbarrier (exec/mbarrier.cpp). Addresses are shared-space addresses of the object.
  virtual void mbarrier_init(ExecContext& ctx, uint64_t addr, uint32_t count) = 0;
  virtual void mbarrier_inval(ExecContext& ctx, uint64_t addr) = 0;
  virtual void mbarrier_expect_tx(ExecContext& ctx, uint64_t addr, uint32_t tx) = 0;
  // True when the awaited phase has completed; otherwise the thread now waits for it.
  virtual bool mbarrier_wait(ExecContext& ctx, uint64_t addr, bool parity, uint64_t value) = 0;
  // cp.async.bulk global -> shared completing on the mbarrier at `mbar`.
  virtual void bulk_copy(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size,
                         uint64_t mbar) = 0;
  // The source of a cp.async.bulk of `size` bytes, read now.
  virtual AsyncCopy bulk_source(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size) = 0;
  // A bulk copy whose parts the caller read (a TMA box), completing on the mbarrier at `mbar`.
  // `align`: the destination's required alignment (16 for bulk copies).
  virtual void bulk_copy_parts(ExecContext& ctx, const ptx::Instr& ins, AsyncCopy copy, uint64_t mbar,
                               unsigned align = 16) = 0;

 protected:
  ~AsyncPort() = default;
};

class ClusterPort {
 public:
  // barrier.cluster.arrive (relaxed: without release semantics) and barrier.cluster.wait.
  virtual void cluster_arrive(ExecContext& ctx, const ptx::Instr& ins, bool relaxed) = 0;
  virtual void cluster_wait(ExecContext& ctx, const ptx::Instr& ins) = 0;
  // fence.mbarrier_init: the thread's earlier mbarrier.init become visible to the cluster at
  // its next barrier.cluster.arrive, even a relaxed one.
  virtual void mbarrier_init_fence(ExecContext& ctx) = 0;
  // mapa: the .shared::cluster address (generic: its generic address) of the byte at `addr`
  // of this CTA's shared memory in the CTA of rank `rank`; getctarank: the rank an address names.
  virtual uint64_t cluster_map_address(ExecContext& ctx, uint64_t addr, uint32_t rank, bool generic) = 0;
  virtual uint32_t cluster_rank_of(ExecContext& ctx, uint64_t addr, bool generic) = 0;
  // A .shared::cluster address (or a generic one, less the shared window) as an address of
  // this CTA's shared memory; a Refusal naming `what` when it lies in another CTA.
  virtual uint64_t own_shared_address(ExecContext& ctx, uint64_t cluster_addr, const char* what) = 0;
  // .multicast::cluster: the copy lands at the same offsets in the shared memory of every CTA
  // whose rank is set in `mask`, completing on the mbarrier at the same offset in each.
  virtual void bulk_copy_multicast(ExecContext& ctx, const ptx::Instr& ins, const AsyncCopy& copy, uint64_t mbar,
                                   uint32_t mask) = 0;
  // st.async / red.async: `values` (elements of elem_size bytes), or one atomic operation `op`
  // of type t, sent to the .shared::cluster address `dst`, in flight until a wait sees the
  // phase of the mbarrier at .shared::cluster address `mbar` (in the same CTA) complete; their
  // bytes complete_tx on it.
  virtual void store_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, const std::vector<Value>& values,
                           unsigned elem_size, uint64_t mbar) = 0;
  virtual void reduce_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint8_t op, ptx::Type t, Value operand,
                            uint64_t mbar) = 0;
  // mbarrier.arrive on a .shared::cluster address, possibly another CTA's barrier (mapa):
  // count arrivals (drop: also one fewer per later phase) after adding tx expected bytes;
  // returns the state token. release: .release semantics (the default).
  virtual uint64_t mbarrier_arrive_cluster(ExecContext& ctx, uint64_t cluster_addr, uint32_t count, uint32_t tx, bool drop,
                                           bool release = true) = 0;

 protected:
  ~ClusterPort() = default;
};

class SyncPort {
 public:
  // bar.sync / barrier.sync (waits: the caller has set the thread waiting) and bar.arrive at
  // barrier `id` of ctx's CTA; count 0: every thread of the CTA.
  virtual void cta_barrier_arrive(ExecContext& ctx, uint32_t id, uint32_t count, bool waits) = 0;
  // bar.warp.sync over a whole warp (the warp epoch already moved on): what one lane knew, and
  // every lane's accesses so far, every lane now knows, for what its later releases publish.
  virtual void warp_synchronized(Cta& cta, std::span<Thread* const> lanes) = 0;

 protected:
  ~SyncPort() = default;
};

}  // namespace racer::exec
