#pragma once
// The machine that runs one program (a sequence of launches) over its own copy of memory:
// tensors with guard gaps, shared memory per CTA, local memory per thread, every thread of
// every CTA under a barrier-driven scheduler. Defects are recorded where they happen.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "exec/cta_barrier.hpp"
#include "exec/defect.hpp"
#include "exec/defect_log.hpp"
#include "exec/domain.hpp"
#include "exec/happens_before.hpp"
#include "exec/launch.hpp"
#include "exec/params.hpp"
#include "exec/ports.hpp"
#include "exec/racing_reads.hpp"
#include "exec/region.hpp"
#include "exec/session.hpp"
#include "exec/site_ref.hpp"
#include "exec/storage.hpp"
#include "exec/thread.hpp"
#include "ptx/ir.hpp"
#include "ptx/liveness.hpp"

namespace racer::exec {

class Machine;
struct Cta;
struct Semantics;

// Everything an instruction's semantics may touch: one thread of one CTA, its registers and
// operands, the value domain, and the machine through its ports only.
struct ExecContext {
  ExecContext(Machine& machine, Cta& cta, Thread& th, const ptx::Module& mod, const ptx::Function& fn, Domain& dom)
      : cta(cta), th(th), mod(mod), fn(fn), dom(dom), m(machine) {}
  Cta& cta;
  Thread& th;
  const ptx::Module& mod;
  const ptx::Function& fn;
  Domain& dom;

  MemoryPort& memory() const;
  AsyncPort& async() const;
  ClusterPort& cluster() const;
  SyncPort& sync() const;
  const Semantics& semantics() const;
  // The same instruction's context for another thread of the CTA (a collective's lanes), or
  // over another copy of the thread in another domain (a probe of a compiled routine).
  ExecContext with(Thread& other) const { return ExecContext(m, cta, other, mod, fn, dom); }
  ExecContext with(Thread& other, Domain& d) const { return ExecContext(m, cta, other, mod, fn, d); }

  // Source operand as type t: registers (checked for poison), immediates, special registers.
  Value get(const ptx::Operand& op, ptx::Type t);
  uint64_t get_bits(const ptx::Operand& op, ptx::Type t);  // concrete bits or a Refusal
  void set(const ptx::Operand& op, Value v);               // destination register (or sink)
  // The address an [ ] operand names, in its state space (shared/local offsets, global address).
  uint64_t address(const ptx::Operand& addr);
  Site site(const ptx::Instr& ins) const;

 private:
  friend class Machine;
  friend struct SiteRef;
  Machine& m;
};

// Where instruction `instr` of a launch's kernel is: its PTX line (the launch's source map), its
// source line (.loc) and its text; launch, CTA and thread are the caller's to fill.
Site instruction_site(const LaunchSpec& l, uint32_t instr);

// Instruction semantics, supplied by the layer above (sem/).
using Handler = void (*)(ExecContext&, const ptx::Instr&);
// A warp collective, run once all its participants have arrived; the context is the first
// lane's.
using Collective = void (*)(ExecContext& ctx, const ptx::Instr&, std::span<Thread* const> lanes);
struct Semantics {
  std::array<Handler, static_cast<size_t>(ptx::Op::Count)> step{};
  std::array<Collective, static_cast<size_t>(ptx::Op::Count)> collective{};
};

// Recognizes a compiled math routine where the instruction semantics would refuse (a
// bit-level operation or a branch on symbolic data), or where a routine without either
// selects between its range's approximations (nvcc's tanhf: a polynomial near zero, an
// exp-based form beyond, picked by selp); supplied by the layer above (idiom/).
class RoutineRecognizer {
 public:
  // Refusal: the semantics refused `ins`. Selection: `ins` is a selp on symbolic data that
  // the semantics can model as a piecewise function; a fit is held to a stricter bound there,
  // since nothing forces the recognition.
  enum class Trigger : uint8_t { Refusal, Selection };
  virtual ~RoutineRecognizer() = default;
  // `ins` refused with `why` (or selects, see Trigger); th.pc is already past it. On success,
  // installs an AbsorbPlan on the thread and returns true; execution then goes on at th.pc.
  virtual bool recognize(ExecContext& ctx, const ptx::Instr& ins, const std::string& why, Trigger trigger) = 0;
};

struct PendingAtomic {
  uint8_t op;        // ptx::atomop
  ptx::Type type;
  unsigned size;
  std::vector<Value> operands;
  Site first;
};

struct CtaAsync;
struct AsyncCopy;
struct Cluster;
struct Mbarrier;

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
};


class Machine final : public MemoryPort, public AsyncPort, public ClusterPort, public SyncPort {
 public:
  // Address layout: each tensor at its own base with a guard gap, shared and local memory
  // in their own windows of the generic address space.
  static constexpr uint64_t kGlobalBase = Storage::kGlobalBase;
  static constexpr uint64_t kGuardGap = Storage::kGuardGap;
  static constexpr uint64_t kSharedWindow = 0x7F0000000000ull;  // generic address of shared offset 0
  static constexpr uint64_t kLocalWindow = 0x7E0000000000ull;
  static constexpr uint64_t kParamWindow = 0x7D0000000000ull;  // generic address of kernel-param offset 0 (cvta.param)
  static constexpr uint64_t kSharedBase = 0x400;   // shared-space address of the first byte
  static constexpr uint64_t kLocalBase = 0x400;

  Machine(Session& session, char program, const std::vector<TensorSpec>& tensors, Domain& dom, const Semantics& sem);
  ~Machine();

  // Runs one launch to completion. Throws Refusal (with a message naming the instruction,
  // thread and launch) or LimitReached.
  void launch(const LaunchSpec& spec);
  // For concrete runs (replay, measurement): where a read meets uninitialized or
  // out-of-bounds memory, take these bits (by the name the symbolic run would give the
  // unknown value) instead of making a symbol. The defect is recorded all the same.
  using ConcreteUnknown = std::function<uint64_t(const std::string& name, unsigned size)>;
  void set_concrete_unknowns(ConcreteUnknown f) { concrete_unknown_ = std::move(f); }
  void set_recognizer(RoutineRecognizer* r) { recognizer_ = r; }
  // For concrete measurement (kernel contracts): the hardware performs the atomics on one
  // cell in an order nobody promises; this reorders each cell's operands (arrival order by
  // default) before they are combined, so a runner can try the orders a GPU might pick.
  using AtomicOrder = std::function<void(std::vector<Value>& operands)>;
  void set_atomic_order(AtomicOrder f) { atomic_order_ = std::move(f); }

  // A cell's final contents, read as the tensor's element type.
  Value cell(size_t tensor, int64_t flat_cell);
  // The exact real (or integer) a final cell holds, as an expression.
  expr::ExprId cell_expr(size_t tensor, int64_t flat_cell);
  // The instruction whose store (or atomic) last wrote a final cell, if any did: where a
  // refuted cell was computed.
  std::optional<Site> writer_of(size_t tensor, int64_t flat_cell) const;
  // The instruction being executed and by whom (for a value domain that reports an event
  // from inside an instruction, such as the first non-finite float); nullopt between them.
  std::optional<Site> site_now() const;

  // The defects that stand (occurrences withdrawn by a later race are gone).
  std::vector<Defect> defects() const { return log_.standing(); }
  const std::vector<Note>& notes() const { return log_.notes(); }
  char program() const { return program_; }
  // Loads found racing with a store, and (for a second run) which of them to replace by
  // fresh unknowns (exec/racing_reads.hpp).
  const RacingReads& racing_reads() const { return racing_; }
  void replace_racing_reads(std::set<uint32_t> loads) { racing_.to_replace = std::move(loads); }
  // A register read or written while loads' registers are watched (racing_reads.cpp).
  void register_read(ExecContext& ctx, uint32_t reg);
  void register_written(ExecContext& ctx, uint32_t reg);
  // The load whose replaced value one of `roots` depends on, if any.
  std::optional<Site> racing_read_reaching(std::span<const expr::ExprId> roots) const;
  bool depends_on_racing_read(Value v) const;
  // The races become notes, each with `why` (the second run showed they change no output).
  void excuse_races(const std::string& why) { log_.demote(DefectKind::Race, why); }
  uint64_t steps() const { return steps_; }  // thread-instructions executed
  Session& session() { return session_; }
  const Storage& storage() const { return storage_; }

  // --- the ports instruction semantics see (exec/ports.hpp has what each promises) ---
  Value load(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, ptx::Type t) override;
  void store(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, Value v,
             ptx::Type t) override;
  void atomic(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, uint8_t op,
              ptx::Type t, Value operand) override;
  Value load_param(ExecContext& ctx, const ptx::Instr& ins, uint64_t offset, unsigned size) override;
  std::optional<uint64_t> peek_constant(ExecContext& ctx, Space space, uint64_t addr, unsigned size) override;
  const std::vector<ParamSlot>& param_slots() const override { return param_slots_; }
  const LaunchSpec& current_launch() const override { return *launch_; }
  const std::vector<TensorSpec>& tensors() const override { return storage_.tensors(); }
  uint64_t tensor_base(size_t tensor) const override { return storage_.tensor_base(tensor); }

  void async_copy(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size,
                  unsigned src_size) override;
  void async_commit(ExecContext& ctx) override;
  void async_wait(ExecContext& ctx, uint32_t keep, bool all) override;
  void proxy_fence(ExecContext& ctx) override;
  Value async_proxy_load(ExecContext& ctx, const ptx::Instr& ins, uint64_t addr, unsigned size, ptx::Type t) override;
  void pend_registers(ExecContext& ctx, const ptx::Instr& ins, std::span<const uint32_t> regs) override;
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

  void cluster_arrive(ExecContext& ctx, const ptx::Instr& ins, bool relaxed) override;
  void cluster_wait(ExecContext& ctx, const ptx::Instr& ins) override;
  void mbarrier_init_fence(ExecContext& ctx) override;
  uint64_t cluster_map_address(ExecContext& ctx, uint64_t addr, uint32_t rank, bool generic) override;
  uint32_t cluster_rank_of(ExecContext& ctx, uint64_t addr, bool generic) override;
  uint64_t own_shared_address(ExecContext& ctx, uint64_t cluster_addr, const char* what) override;
  void bulk_copy_multicast(ExecContext& ctx, const ptx::Instr& ins, const AsyncCopy& copy, uint64_t mbar,
                           uint32_t mask) override;
  void store_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, const std::vector<Value>& values,
                   unsigned elem_size, uint64_t mbar) override;
  void reduce_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint8_t op, ptx::Type t, Value operand,
                    uint64_t mbar) override;
  uint64_t mbarrier_arrive_cluster(ExecContext& ctx, uint64_t cluster_addr, uint32_t count, uint32_t tx, bool drop,
                                   bool release = true) override;

  void cta_barrier_arrive(ExecContext& ctx, uint32_t id, uint32_t count, bool waits) override;
  void warp_synchronized(Cta& cta, std::span<Thread* const> lanes) override;

  // --- for the execution context and the engine's own parts ---
  Domain& current_domain() { return dom_; }
  const Semantics& semantics() const { return sem_; }
  uint32_t launch_index() const { return launch_index_; }
  [[noreturn]] void refuse(ExecContext& ctx, const ptx::Instr& ins, const std::string& reason);
  [[noreturn]] void refuse_at(const Site& site, const std::string& reason);  // the same at a recorded site
  Value cluster_special(ExecContext& ctx, ptx::SpecialReg sr, uint32_t component);
  // A read or write of a pending register by any other instruction: a defect; a read gets
  // an unknown value (neither the old nor the new one).
  Value pending_register_access(ExecContext& ctx, uint32_t reg, Value v, bool write);

 private:
  // Arrives (count arrivals; drop: also one fewer per later phase) after adding tx expected
  // bytes; returns the state token (the phase arrived at). release: .release semantics,
  // making the thread's earlier accesses visible to threads whose wait sees the phase complete.
  uint64_t mbarrier_arrive(ExecContext& ctx, uint64_t addr, uint32_t count, uint32_t tx, bool drop, bool release = true);
  // Where a local-space address falls in the thread's local memory: (region, offset), or
  // a null region.
  std::pair<Region*, uint64_t> local_bytes(ExecContext& ctx, uint64_t addr, unsigned size);
  struct Located {
    Region* region;
    uint64_t offset;
  };
  // Records a defect; one found on a path of a data-dependent branch says under which condition.
  size_t defect(DefectKind kind, const SiteRef& site, const Text& memory, const Text& detail = {});
  Located locate(ExecContext& ctx, Space space, uint64_t addr);
  std::optional<uint64_t> target(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size, unsigned align,
                                 DefectKind oob, const std::string& misaligned);
  // The value in r's bytes [off, off+size); an uninitialized read records a defect at `site`.
  Value read_bytes(Region& r, uint64_t off, unsigned size, const Cta* cta, const SiteRef& site, bool as_integer);
  void write_bytes(Region& r, uint64_t off, unsigned size, Value v);
  // Which instruction of which launch last wrote each element of a tensor (0: none yet).
  void note_writer(const Region& r, uint64_t off, uint32_t instr);
  std::vector<std::vector<uint64_t>> cell_writers_;
  std::vector<LaunchSpec> launches_run_;  // the launches so far, for their modules and source maps
  ExecContext* running_ctx_ = nullptr;    // the instruction being executed (site_now)
  const ptx::Instr* running_ins_ = nullptr;
  // Race detection for an access to r's bytes [off, off+size); returns the access's number
  // (0 where accesses are not tracked).
  uint32_t track(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, bool write, Value v);
  // A racing load's value, in a run that replaces it: a fresh unknown of the same kind.
  Value racing_read_value(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, Value read, const Region& r,
                          uint64_t off, unsigned size);
  // In a run that replaces racing loads: every earlier read of the bytes concurrent with this
  // write is a racing load; a read is kept until the next write that changes the bytes.
  void every_racing_read(ExecContext& ctx, Region& r, uint64_t off, unsigned size, bool write, bool holds_same, const AccessRecord& cur,
                         const std::function<bool(const AccessRecord&)>& concurrent);
  // Whether read `rd` (by another lane of th's warp) had its value used by an instruction
  // before a collective of the whole warp that th has since passed: the load had then
  // returned its value before th's access, which cannot change what it read.
  bool read_used_before_collective(const AccessRecord& rd, const Cta& cta, const Thread& th) const;
  std::optional<expr::ExprId> racing_symbol_in(std::span<const expr::ExprId> roots) const;
  RacingReads racing_;
  bool pending_atomic_overlaps(const Region& r, uint64_t off, unsigned size, const Cta& cta) const;
  void flush_atomics(Region* shared_region, std::map<uint64_t, PendingAtomic>& pending, const Cta* cta);
  void flush_atomics_global();
  Value combine_atomic(const PendingAtomic& p, Value old);
  // A race defect where another thread's plain access to r's bytes [off, off+size) is not
  // ordered before ctx's atomic (or red.async) on them.
  void atomic_conflicts(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size);
  void run_cta(Cta& cta);
  void init_cta(Cta& cta, uint32_t x, uint32_t y, uint32_t z, uint64_t shared_size, uint64_t local_bytes);
  bool run_ready_threads(Cta& cta);                          // true when every thread exited
  bool release_sync(Cta& cta, const ptx::Function& fn);      // false when nothing can be released
  void complete_cta_barrier(Cta& cta, CtaBarrier& b, uint32_t id);
  bool release_cta_barriers(Cta& cta);  // lets the waiters of completed phases go on
  std::string cta_barrier_state(const Cta& cta, uint32_t id) const;  // for a stuck thread's message
  [[noreturn]] void stuck(Cta& cta, const ptx::Function& fn);  // says who waits where
  // Clusters (exec/cluster.cpp).
  void run_clusters(uint64_t shared_size, uint64_t local_bytes);
  void run_cluster(std::vector<Cta>& ctas);
  bool release_cluster_barrier(std::vector<Cta>& ctas, const ptx::Function& fn);
  // Happens-before (exec/happens_before.cpp): whether access `a` (by another thread of this
  // launch) is ordered before what thread `th` of `cta` does now.
  bool ordered_before(const AccessRecord& a, const Cta& cta, const Thread& th) const;
  // The CTA ctx's thread belongs to (ctx.cta may be another CTA of the cluster), and its
  // launch-wide number.
  const Cta& home_cta(const ExecContext& ctx) const;
  uint32_t launch_thread(const ExecContext& ctx) const;
  // What a releasing operation of ctx's thread publishes: its clock, its own accesses so far
  // and its CTA's earlier epochs.
  Clock release_clock(const ExecContext& ctx) const;
  // Whether the current launch's kernel has a synchronization that publishes clocks (mbarrier
  // arrive, bar.arrive or a counted bar.sync, barrier.cluster): without one, none is ever read.
  bool publishes_clocks_ = false;
  // An mbarrier wait that saw `phase` complete joins what its arrivals released (exec/mbarrier.cpp).
  void acquire(Thread& th, const Mbarrier& b, int64_t phase);
  // Whether b's mbarrier.init is visible to ctx's thread, an arrive or copy from another CTA.
  bool init_visible(const ExecContext& ctx, const Mbarrier& b) const;
  Located locate_cluster(ExecContext& ctx, uint64_t addr);
  // The CTA whose memory r is: another CTA of the cluster for its shared memory, else ctx's.
  Cta& region_cta(ExecContext& ctx, const Region* r);
  void check_remote_lifetimes();
  std::unique_ptr<Cluster> cluster_;
  bool absorbed(ExecContext& ctx, uint32_t instr);
  void follow_skipped(ExecContext& ctx, const AbsorbPlan& p, uint32_t instr);
  void enter_plan(ExecContext& ctx, uint32_t instr);
  void commit_plan(Thread& th, size_t plan, uint32_t instr);
  bool try_recognize(ExecContext& ctx, const ptx::Instr& ins, const std::string& why,
                     RoutineRecognizer::Trigger trigger = RoutineRecognizer::Trigger::Refusal);
  void resolve_sync(Cta& cta, const ptx::Function& fn);

  // Branches on symbolic data (branch_paths.cpp): run both paths to where they meet, then
  // merge the registers still live there. `split` returns why it cannot, or "" on success.
  struct Flow {
    std::vector<uint32_t> ipdom;
    ptx::Liveness live;
  };
  const Flow& flow(const ptx::Function& fn);
  std::string split(ExecContext& ctx, const ptx::Instr& bra, Value guard);
  void enter_path(Thread& th, uint32_t at, uint32_t join, Value taken);
  // An instruction (a load, a store, a register computation) under a symbolic guard: a path
  // of its own that the other path skips. Returns why it cannot, or "" once it ran.
  std::string guarded_path(ExecContext& ctx, const ptx::Instr& ins, Value guard);
  // ret/exit on a path whose paths meet where the kernel ends: go there instead.
  bool leave_on_path(ExecContext& ctx, const ptx::Instr& ins);
  void reach_join(ExecContext& ctx);
  void check_on_path(ExecContext& ctx, const ptx::Instr& ins);
  // The condition under which the thread's current path runs, as text.
  std::string path_condition(const Thread& th) const;
  // A load on a path: what the path (or an enclosing one) stored there, if it did.
  std::optional<Value> path_load(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size);
  void path_store(ExecContext& ctx, const ptx::Instr& ins, PathFrame& f, PathStore s);
  Value before_paths(ExecContext& ctx, const ptx::Instr& ins, size_t depth, const PathStore& s);
  void merge_stores(ExecContext& ctx, PathFrame& f);
  // The unknown initial contents of an output cell this program never wrote.
  Value final_uninitialized(size_t tensor, int64_t flat);
  Value merge(Value taken, Value on_taken, Value otherwise, ptx::Type reg_type);
  std::map<const ptx::Function*, std::unique_ptr<Flow>> flows_;

  Session& session_;
  char program_;
  Storage storage_;
  DefectLog log_;
  Domain& dom_;
  const Semantics& sem_;
  std::map<uint64_t, PendingAtomic> global_atomics_;
  uint32_t last_uninit_defect_ = 0;  // the ticket of the pending read the last read_bytes made
  uint32_t access_seq_ = 0;
  // Bytes an asynchronous copy is still writing (exec/async_copy.cpp).
  bool in_flight(const Region& r, uint64_t off, unsigned size) const;
  Value in_flight_access(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, bool write, ptx::Type t);
  void finish_async(Cta& cta);  // lands what no wait landed when the CTA ends
  // Releases threads whose mbarrier phase completed (scheduler); false when none can go on.
  bool resolve_mbarrier_waits(Cta& cta, const ptx::Function& fn);
  Mbarrier& mbarrier_at(ExecContext& ctx, uint64_t addr);
  bool complete_phase(Cta& cta, struct Mbarrier& b);
  // Writes a landing asynchronous copy's bytes into `shared` (applies a red.async's operation).
  void land(Cta& cta, Region& shared, const AsyncCopy& c);
  // A copy from another CTA landed at a wait of its target: its remote access (when still the
  // latest of its thread at its instruction) needs no cluster barrier before the target exits.
  void landed_remote(const AsyncCopy& c);
  // st.async / red.async (exec/store_async.cpp): `copy` (its parts read) to the
  // .shared::cluster address dst, completing on the mbarrier at .shared::cluster address mbar.
  void send_async(ExecContext& ctx, const ptx::Instr& ins, AsyncCopy copy, uint64_t dst, uint64_t mbar);
  // Whether every asynchronous write in flight on the CTA's shared bytes [off, off+size) is a
  // red.async of the same operation as c (a Refusal where the order of two would matter).
  bool only_same_reductions(const Cta& cta, const AsyncCopy& c, uint64_t off, unsigned size) const;
  AsyncCopy read_source(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size, unsigned src_size);
  Value unknown_value(const std::string& name, const std::string& where, uint64_t off, unsigned size, bool integer);
  const LaunchSpec* launch_ = nullptr;
  uint32_t launch_index_ = 0;
  uint32_t next_epoch_ = 1;
  uint32_t next_landing_writer_ = AccessRecord::kAsyncWriterBase;
  uint64_t steps_ = 0;
  std::vector<ParamSlot> param_slots_;  // the current launch's parameter layout
  ConcreteUnknown concrete_unknown_;
  RoutineRecognizer* recognizer_ = nullptr;
  AtomicOrder atomic_order_;

  friend struct ExecContext;
};

inline MemoryPort& ExecContext::memory() const { return m; }
inline AsyncPort& ExecContext::async() const { return m; }
inline ClusterPort& ExecContext::cluster() const { return m; }
inline SyncPort& ExecContext::sync() const { return m; }
inline const Semantics& ExecContext::semantics() const { return m.semantics(); }

}  // namespace racer::exec
