#pragma once
// The machine that runs one program (a sequence of launches) over its own copy of memory:
// tensors with guard gaps, shared memory per CTA, local memory per thread, every thread of
// every CTA under a barrier-driven scheduler. Defects are recorded where they happen. It is
// the access path (exec/access_path.hpp) and the thread stepper; the asynchronous unit, the
// cluster unit and the scheduler are parts of it that see it only as those.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "exec/access_path.hpp"
#include "exec/async_unit.hpp"
#include "exec/cluster_unit.hpp"
#include "exec/context.hpp"
#include "exec/cta.hpp"
#include "exec/cta_barrier.hpp"
#include "exec/defect.hpp"
#include "exec/defect_log.hpp"
#include "exec/domain.hpp"
#include "exec/happens_before.hpp"
#include "exec/indexed_races.hpp"
#include "exec/launch.hpp"
#include "exec/params.hpp"
#include "exec/ports.hpp"
#include "exec/racing_reads.hpp"
#include "exec/region.hpp"
#include "exec/scheduler.hpp"
#include "exec/session.hpp"
#include "exec/site_ref.hpp"
#include "exec/storage.hpp"
#include "exec/thread.hpp"
#include "ptx/ir.hpp"
#include "ptx/liveness.hpp"

namespace racer::exec {

// Where instruction `instr` of a launch's kernel is: its PTX line (the launch's source map), its
// source line (.loc) and its text; launch, CTA and thread are the caller's to fill.
Site instruction_site(const LaunchSpec& l, uint32_t instr);

// Recognizes a compiled math routine where the instruction semantics would refuse (a
// bit-level operation or a branch on symbolic data), or where a routine without either
// selects between its range's approximations (nvcc's tanhf: a polynomial near zero, an
// exp-based form beyond, picked by selp); supplied by the layer above (idiom/).
class RoutineRecognizer {
 public:
  // Refusal: the semantics refused `ins`. Selection: `ins` is a selp on symbolic data that
  // the semantics can model as a piecewise function; a fit is held to a stricter bound there,
  // since nothing forces the recognition. Rounding: `ins` rounds symbolic float data to an
  // integer, which the semantics model exactly: only the first pass of probes is tried (a
  // quantizer rounds at every element; a routine that needs the further passes is still met
  // where its later bit-level steps are refused).
  enum class Trigger : uint8_t { Refusal, Selection, Rounding };
  virtual ~RoutineRecognizer() = default;
  // `ins` refused with `why` (or selects, see Trigger); th.pc is already past it. On success,
  // installs an AbsorbPlan on the thread and returns true; execution then goes on at th.pc.
  virtual bool recognize(ExecContext& ctx, const ptx::Instr& ins, const std::string& why, Trigger trigger) = 0;
};

class Machine final : public AccessPath, public ThreadStepper {
 public:
  // Address layout (exec/access_path.hpp): each tensor at its own base with a guard gap, shared
  // and local memory in their own windows of the generic address space.
  static constexpr uint64_t kGlobalBase = Storage::kGlobalBase;
  static constexpr uint64_t kGuardGap = Storage::kGuardGap;
  static constexpr uint64_t kSharedWindow = exec::kSharedWindow;
  static constexpr uint64_t kLocalWindow = exec::kLocalWindow;
  static constexpr uint64_t kParamWindow = exec::kParamWindow;
  static constexpr uint64_t kSharedBase = exec::kSharedBase;
  static constexpr uint64_t kLocalBase = exec::kLocalBase;

  Machine(Session& session, char program, const std::vector<TensorSpec>& tensors, Domain& dom, const Semantics& sem);
  ~Machine();

  // Runs one launch to completion. Throws Refusal (with a message naming the instruction,
  // thread and launch) or LimitReached.
  void launch(const LaunchSpec& spec);
  // For concrete runs (replay, measurement): where a read meets uninitialized or
  // out-of-bounds memory, take these bits (by the name the symbolic run would give the
  // unknown value) instead of making a symbol. The defect is recorded all the same. `integer`:
  // the read takes integer data (the bits are then the value's two's complement).
  using ConcreteUnknown = std::function<uint64_t(const std::string& name, unsigned size, bool integer)>;
  void set_concrete_unknowns(ConcreteUnknown f) { concrete_unknown_ = std::move(f); }
  void set_recognizer(RoutineRecognizer* r) { recognizer_ = r; }
  // For concrete runs whose defects nobody reads (a self-check, a hazard search): tensors and
  // shared memory keep no access records (their pages and their bookkeeping at every access
  // are the cost). Values are unchanged (records only ever add defects or refusals); module
  // variables keep theirs (constant tables are told apart by never having been written).
  void set_race_tracking(bool on) { race_tracking_ = on; }
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
  char program() const override { return program_; }
  // Loads found racing with a store, and (for a second run) which of them to replace by
  // fresh unknowns (exec/racing_reads.hpp).
  const RacingReads& racing_reads() const { return racing_; }
  void replace_racing_reads(std::set<uint32_t> loads) { racing_.to_replace = std::move(loads); }
  void replace_racing_writes() { racing_.replace_writes = true; }
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
  // Once the program has run (no launch follows): frees the tensors' access records.
  void drop_access_records() { storage_.drop_access_records(); }

  // --- the memory port instruction semantics see (exec/ports.hpp has what it promises) ---
  Value load(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, ptx::Type t) override;
  void store(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, Value v,
             ptx::Type t) override;
  void atomic(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, uint8_t op,
              ptx::Type t, Value operand) override;
  Value swap_atomic(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, ptx::Type t,
                    std::optional<Value> expected, Value desired) override;
  Value load_param(ExecContext& ctx, const ptx::Instr& ins, uint64_t offset, unsigned size) override;
  // Accesses at data-dependent addresses (exec/indexed_memory.cpp).
  std::shared_ptr<const IndexedAddress> indexed_address(ExecContext& ctx, const ptx::Instr& ins, Value base, unsigned width,
                                                        uint64_t offset) override;
  void chosen_cell_readable(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size);
  Value load_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space, const std::shared_ptr<const IndexedAddress>& a,
                     uint64_t extra, unsigned size, ptx::Type t) override;
  void store_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space, const std::shared_ptr<const IndexedAddress>& a,
                     uint64_t extra, unsigned size, Value v, ptx::Type t) override;
  void atomic_indexed(ExecContext& ctx, const ptx::Instr& ins, Space space, const std::shared_ptr<const IndexedAddress>& a,
                      unsigned size, uint8_t op, ptx::Type t, Value operand) override;
  std::optional<uint64_t> peek_constant(ExecContext& ctx, Space space, uint64_t addr, unsigned size) override;
  const std::vector<ParamSlot>& param_slots() const override { return param_slots_; }
  const LaunchSpec& current_launch() const override { return *launch_; }
  const std::vector<TensorSpec>& tensors() const override { return storage_.tensors(); }
  uint64_t tensor_base(size_t tensor) const override { return storage_.tensor_base(tensor); }

  // --- the access path its parts see (exec/access_path.hpp) ---
  Located locate(ExecContext& ctx, Space space, uint64_t addr) override;
  std::optional<uint64_t> target(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size, unsigned align,
                                 DefectKind oob, const Text& misaligned) override;
  // (track: 0 where accesses are not tracked.)
  uint32_t track(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, bool write,
                 Value v) override;
  // Where another thread of the running launch made access a: its CTA, thread and instruction.
  Site access_site(const AccessRecord& a) const;
  Value read_bytes(Region& r, uint64_t off, unsigned size, const Cta* cta, const SiteRef& site, bool as_integer) override;
  Value unmapped_read(const Region& r, uint64_t off, unsigned size, const SiteRef& site);
  void write_bytes(Region& r, uint64_t off, unsigned size, Value v) override;
  std::string describe(const Region* r, uint64_t addr, unsigned size) override {
    return storage_.describe(r, addr, size);
  }
  Value unknown_value(const std::string& name, const std::string& where, uint64_t off, unsigned size,
                      bool integer) override;
  bool pending_atomic_overlaps(const Region& r, uint64_t off, unsigned size, const Cta& cta) const override;
  void atomic_conflicts(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size) override;
  Value combine_atomic(const PendingAtomic& p, Value old) override;
  void flush_shared_atomics(Cta& cta) override { flush_atomics(cta.shared.get(), cta.shared_atomics, &cta); }
  // Records a defect; one found on a path of a data-dependent branch says under which condition.
  size_t defect(DefectKind kind, const SiteRef& site, const Text& memory, const Text& detail = {}) override;
  void note(const SiteRef& site, const Text& message) override { log_.note(site, message); }
  [[noreturn]] void refuse(ExecContext& ctx, const ptx::Instr& ins, const std::string& reason) override;
  [[noreturn]] void refuse_at(const Site& site, const std::string& reason) override;  // the same at a recorded site
  uint32_t launch_index() const override { return launch_index_; }
  uint32_t next_access() override { return ++access_seq_; }
  uint32_t last_access() const override { return access_seq_; }
  uint32_t next_epoch() override { return next_epoch_++; }
  bool ordered_before(const AccessRecord& a, const Cta& cta, const Thread& th) const override;
  Clock release_clock(const ExecContext& ctx) const override;
  ExecContext context(Cta& cta, Thread& th) override {
    return ExecContext(*this, cta, th, *launch_->module, launch_->module->functions[launch_->function], dom_, reg_masks_.data());
  }

  // --- for the execution context ---
  Domain& current_domain() { return dom_; }
  const Semantics& semantics() const { return sem_; }

 private:
  // Runs every ready thread of cta to its next synchronization point (exec/step.cpp).
  bool run_ready_threads(Cta& cta) override;
  // Deferred sums live in registers only (exec/deferred_sums.hpp): a finished CTA's are dead.
  void ctas_done() override { dom_.forget_deferred(); }
  // Where a local-space address falls in the thread's local memory: (region, offset), or
  // a null region.
  std::pair<Region*, uint64_t> local_bytes(ExecContext& ctx, uint64_t addr, unsigned size);
  // Which instruction of which launch last wrote each element of a tensor (0: none yet).
  void note_writer(const Region& r, uint64_t off, uint32_t instr);
  // Programmatic dependent launch (exec/grid_dependency.cpp): a launch whose kernel waits for
  // the previous grid (griddepcontrol.wait) may start before that grid ends; until a thread
  // has waited, what earlier launches wrote is not yet its to read, and tensors are not its to
  // write.
  bool grid_dependent_ = false;
  bool before_grid_wait(const Thread& th) const { return grid_dependent_ && !th.grid_dependency_waited; }
  [[noreturn]] void refuse_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins, const std::string& what);
  void read_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins, const Region& r, uint64_t off, unsigned size);
  void write_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins, const Region& r);
  void step_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins);
  std::vector<std::vector<uint64_t>> cell_writers_;
  std::vector<LaunchSpec> launches_run_;  // the launches so far, for their modules and source maps
  ExecContext* running_ctx_ = nullptr;    // the instruction being executed (site_now)
  const ptx::Instr* running_ins_ = nullptr;
  // Whether [off, off + size) of r is one whole element of a float tensor.
  bool whole_float_element(const Region& r, uint64_t off, unsigned size) const;
  // A fresh unknown standing for a schedule-dependent value, named "<program>: <name>", that
  // racing_read_reaching and depends_on_racing_read find.
  Value racing_unknown(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, const std::string& name);
  // A racing load's value, in a run that replaces it: a fresh unknown of the same kind.
  Value racing_read_value(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, Value read, const Region& r,
                          uint64_t off, unsigned size);
  // A store racing with another thread's store, in a run that replaces such stores: a fresh
  // unknown of the stored kind.
  Value racing_write_value(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, Value stored, const Region& r,
                           uint64_t off, unsigned size, ptx::Type type);
  bool store_raced_ = false;  // set by track() for the store() that called it
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
  // Accesses at data-dependent addresses (exec/indexed_memory.cpp). indexed_conflicts: the
  // races of an access to r's bytes with the indexed accesses recorded there (mine: the
  // access's own address and the points naming this cell, null for a plain access);
  // indexed_vs_plain: those of an indexed access with the plain ones in the byte tracks.
  void indexed_conflicts(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, IndexedKind kind,
                         const IndexedAddress* mine, const std::vector<uint32_t>* points, Value stored);
  void indexed_vs_plain(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, IndexedKind kind);
  void record_indexed(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, IndexedKind kind,
                      const std::shared_ptr<const IndexedAddress>& a, uint32_t candidate, Value stored);
  // A candidate cell's accessible bytes: the region's offset, after the bounds, alignment,
  // permission, pending-atomic and in-flight checks; nullopt where out of bounds (recorded).
  std::optional<uint64_t> indexed_target(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size,
                                         IndexedKind kind);
  // The value a candidate cell holds for this thread now (its path's stores first); where it
  // was never written, a tensor's unknown initial contents.
  Value indexed_old_value(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, ptx::Type t);
  // The running indexed access and the points naming the cell it is at: their condition is
  // added to the defects it records (made into text only then). Null outside indexed accesses.
  struct AccessCondition {
    const IndexedAddress* address = nullptr;
    const std::vector<uint32_t>* points = nullptr;
  } access_condition_;
  // ", only where <the access's and the path's conditions>", or empty where there are none.
  std::string only_where(const Thread& th) const;
  // What an out-of-bounds load reads: an unknown named by the address (the bits a concrete run is given for it).
  Value out_of_bounds_value(const Located& l, uint64_t addr, unsigned size, ptx::Type t);
  // Where an atomic on r's bytes waits until order no longer matters.
  void pend_atomic(ExecContext& ctx, const ptx::Instr& ins, const Located& l, uint64_t off, unsigned size, uint8_t op,
                   ptx::Type t, Value operand);
  void flush_atomics(Region* shared_region, std::map<uint64_t, PendingAtomic>& pending, const Cta* cta);
  void flush_atomics_global();
  bool absorbed(ExecContext& ctx, uint32_t instr);
  void follow_skipped(ExecContext& ctx, const AbsorbPlan& p, uint32_t instr);
  void enter_plan(ExecContext& ctx, uint32_t instr);
  void commit_plan(Thread& th, size_t plan, uint32_t instr);
  bool try_recognize(ExecContext& ctx, const ptx::Instr& ins, const std::string& why,
                     RoutineRecognizer::Trigger trigger = RoutineRecognizer::Trigger::Refusal);

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
  // The parts; each sees the machine only as the access path (and the scheduler as the stepper).
  AsyncUnit async_;
  ClusterUnit clusters_;
  Scheduler scheduler_;
  std::map<uint64_t, PendingAtomic> global_atomics_;
  // The cells this launch's atom.cas / atom.exch swapped (region, offset -> size and the one
  // thread, CTA-major linear index, allowed to): swaps by two threads would depend on their order.
  struct SwappedCell {
    unsigned size;
    uint64_t thread;
  };
  std::map<std::pair<const Region*, uint64_t>, SwappedCell> swapped_cells_;
  // Whether a cell swapped in this launch overlaps [off, off + size) of r, by a thread other than
  // `thread` (any thread: kAnyThread).
  static constexpr uint64_t kAnyThread = UINT64_MAX;
  bool swapped_overlaps(const Region* r, uint64_t off, unsigned size, uint64_t thread) const;
  uint32_t last_uninit_defect_ = 0;  // the ticket of the pending read the last read_bytes made
  uint32_t access_seq_ = 0;
  const LaunchSpec* launch_ = nullptr;
  std::vector<uint64_t> reg_masks_;  // per register of the launch's function (ExecContext)
  uint32_t launch_index_ = 0;
  uint32_t next_epoch_ = 1;
  uint64_t steps_ = 0;
  std::vector<ParamSlot> param_slots_;  // the current launch's parameter layout
  ConcreteUnknown concrete_unknown_;
  bool race_tracking_ = true;
  RoutineRecognizer* recognizer_ = nullptr;
  AtomicOrder atomic_order_;

  friend struct ExecContext;
};

inline MemoryPort& ExecContext::memory() const { return m; }
inline AsyncPort& ExecContext::async() const { return m.async_; }
inline ClusterPort& ExecContext::cluster() const { return m.clusters_; }
inline SyncPort& ExecContext::sync() const { return m.scheduler_; }
inline const Semantics& ExecContext::semantics() const { return m.semantics(); }
inline LaneTable& ExecContext::lanes() const { return m.session_.lanes(); }

}  // namespace racer::exec
