#pragma once
// Everything an instruction's semantics may touch: one thread of one CTA, its registers and
// operands, the value domain, and the machine through its ports only. The machine's parts
// (the asynchronous unit, clusters, the scheduler) see contexts too, and nothing of the
// machine through them: the port accessors are defined in machine.hpp, which they do not include.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "exec/cta.hpp"
#include "exec/defect.hpp"
#include "exec/domain.hpp"
#include "exec/ports.hpp"
#include "exec/thread.hpp"
#include "exec/value.hpp"
#include "ptx/ir.hpp"

namespace racer::exec {

class LaneTable;
class Machine;
struct Semantics;

struct ExecContext {
  // `reg_mask`: per register of fn, the mask of its type's bits (what a concrete value keeps).
  ExecContext(Machine& machine, Cta& cta, Thread& th, const ptx::Module& mod, const ptx::Function& fn, Domain& dom,
              const uint64_t* reg_mask)
      : cta(cta), th(th), mod(mod), fn(fn), dom(dom), m(machine), reg_mask_(reg_mask) {}
  Cta& cta;
  Thread& th;
  const ptx::Module& mod;
  const ptx::Function& fn;
  Domain& dom;
  // The guard of the instruction being run where it is a symbolic predicate (a guarded atomic,
  // which then runs as the unguarded one of its identity where the guard fails); else true.
  Value guard = Value::of_bits(1);

  MemoryPort& memory() const;
  AsyncPort& async() const;
  ClusterPort& cluster() const;
  SyncPort& sync() const;
  const Semantics& semantics() const;
  LaneTable& lanes() const;  // the session's byte lanes (exec/packed.hpp)
  // The same instruction's context for another thread of the CTA (a collective's lanes), or
  // over another copy of the thread in another domain (a probe of a compiled routine).
  ExecContext with(Thread& other) const { return ExecContext(m, cta, other, mod, fn, dom, reg_mask_); }
  ExecContext with(Thread& other, Domain& d) const { return ExecContext(m, cta, other, mod, fn, d, reg_mask_); }
  // The same thread acting on another CTA of its cluster (its shared memory, its mbarriers).
  ExecContext on(Cta& other) const { return ExecContext(m, other, th, mod, fn, dom, reg_mask_); }

  // Source operand as type t: registers (checked for poison, deferred sums settled),
  // immediates, special registers. A plain register read (most operands of most instructions)
  // is inline; everything else is read_operand's.
  Value get(const ptx::Operand& op, ptx::Type t) {
    if (op.kind == ptx::Operand::Kind::Reg && !op.negated && !th.pending_regs && th.unread_loads.empty()) [[likely]] {
      const Value& r = th.regs[op.index];
      if (r.sym == 0) return Value{r.bits & reg_mask_[op.index], 0, r.integer};
      if (r.sym < Value::kFirstMarker) return r;  // (not poison, packed lanes or a deferred sum)
    }
    return read_operand(op, t);
  }
  Value read_operand(const ptx::Operand& op, ptx::Type t);
  // Whether an accumulating instruction of this thread may leave a deferred sum in its
  // destination (exec/deferred_sums.hpp): not on a path of a data-dependent branch, inside a
  // recognized routine, with registers pending or loads being replaced, whose readers look at
  // the registers themselves.
  bool may_defer() const {
    return th.paths.empty() && th.plans.empty() && !th.pending_regs && !th.loading && th.unread_loads.empty();
  }
  // The operand an accumulating instruction adds to: as get, but a deferred sum stays deferred.
  Value accumulator(const ptx::Operand& op, ptx::Type t);
  uint64_t get_bits(const ptx::Operand& op, ptx::Type t);  // concrete bits or a Refusal
  void set(const ptx::Operand& op, Value v);               // destination register (or sink)
  // The address an [ ] operand names, in its state space (shared/local offsets, global address).
  uint64_t address(const ptx::Operand& addr);
  Site site(const ptx::Instr& ins) const;

 private:
  friend class Machine;
  friend struct SiteRef;
  Machine& m;
  const uint64_t* reg_mask_;
};

// Settles every deferred sum in th's registers (before anything reads them other than
// through ExecContext::get: a branch's saved registers, a routine's recognizer, a collective).
void settle_deferred(Thread& th, Domain& dom);

// Per register of fn, the mask of its type's bits: what ExecContext keeps of a concrete value
// read from or written to it (a launch computes them once).
std::vector<uint64_t> register_masks(const ptx::Function& fn);

// Instruction semantics, supplied by the layer above (sem/).
using Handler = void (*)(ExecContext&, const ptx::Instr&);
// A warp collective, run once all its participants have arrived; the context is the first
// lane's.
using Collective = void (*)(ExecContext& ctx, const ptx::Instr&, std::span<Thread* const> lanes);
struct Semantics {
  std::array<Handler, static_cast<size_t>(ptx::Op::Count)> step{};
  std::array<Collective, static_cast<size_t>(ptx::Op::Count)> collective{};
};

}  // namespace racer::exec
