#pragma once
// The access path: what the machine's parts (the asynchronous unit, clusters, the scheduler)
// may ask of memory and of the run, and nothing more. Machine implements it over Storage, the
// DefectLog and its race tracking; a part holds an AccessPath&, never the Machine, so a
// change to one part reaches another only through these functions.
#include <cstdint>
#include <optional>
#include <string>

#include "exec/context.hpp"
#include "exec/cta.hpp"
#include "exec/defect.hpp"
#include "exec/happens_before.hpp"
#include "exec/ports.hpp"
#include "exec/region.hpp"
#include "exec/site_ref.hpp"
#include "exec/value.hpp"

namespace racer::exec {

// The generic address space: shared, local and parameter memory in their own windows (global
// addresses are Storage's), and where a CTA's shared and a thread's local memory begin.
constexpr uint64_t kSharedWindow = 0x7F0000000000ull;  // generic address of shared offset 0
constexpr uint64_t kLocalWindow = 0x7E0000000000ull;
constexpr uint64_t kParamWindow = 0x7D0000000000ull;  // generic address of kernel-param offset 0 (cvta.param)
constexpr uint64_t kSharedBase = 0x400;               // shared-space address of the first byte
constexpr uint64_t kLocalBase = 0x400;

// Where an address lands: a region (null: none) and the address within its space.
struct Located {
  Region* region;
  uint64_t offset;
};

class AccessPath : public MemoryPort {
 public:
  // --- memory: where an address lands, the one bounds-and-alignment check, the bytes ---
  virtual Located locate(ExecContext& ctx, Space space, uint64_t addr) = 0;
  // The bytes [offset, offset + size) of l's region an access may touch: outside every region,
  // or past its end, records `oob` and gives nullopt; an address not a multiple of `align`
  // records Misaligned and refuses with `misaligned`.
  virtual std::optional<uint64_t> target(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size,
                                         unsigned align, DefectKind oob, const Text& misaligned) = 0;
  // Race detection for an access to r's bytes [off, off+size); returns the access's number.
  virtual uint32_t track(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, bool write,
                         Value v) = 0;
  // The value in r's bytes [off, off+size); an uninitialized read records a defect at `site`.
  virtual Value read_bytes(Region& r, uint64_t off, unsigned size, const Cta* cta, const SiteRef& site,
                           bool as_integer) = 0;
  virtual void write_bytes(Region& r, uint64_t off, unsigned size, Value v) = 0;
  // What r's bytes are, for a message.
  virtual std::string describe(const Region* r, uint64_t addr, unsigned size) = 0;
  // A fresh unknown value named `name` for bytes no ordering makes readable (in a concrete run,
  // the bits the runner gives for that name).
  virtual Value unknown_value(const std::string& name, const std::string& where, uint64_t off, unsigned size,
                              bool integer) = 0;

  // --- atomics not yet applied ---
  virtual bool pending_atomic_overlaps(const Region& r, uint64_t off, unsigned size, const Cta& cta) const = 0;
  // A race defect where another thread's plain access to r's bytes is not ordered before ctx's atomic.
  virtual void atomic_conflicts(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size) = 0;
  virtual Value combine_atomic(const PendingAtomic& p, Value old) = 0;
  virtual void flush_shared_atomics(Cta& cta) = 0;  // applies them: order no longer matters

  // --- defects and refusals ---
  virtual char program() const = 0;  // 'a' or 'b': names the symbols memory private to it gets
  virtual size_t defect(DefectKind kind, const SiteRef& site, const Text& memory, const Text& detail = {}) = 0;
  virtual void note(const SiteRef& site, const Text& message) = 0;
  [[noreturn]] virtual void refuse(ExecContext& ctx, const ptx::Instr& ins, const std::string& reason) = 0;
  [[noreturn]] virtual void refuse_at(const Site& site, const std::string& reason) = 0;

  // --- the run's order: one numbering of accesses, arrivals, fences and inits across parts ---
  virtual uint32_t launch_index() const = 0;
  virtual uint32_t next_access() = 0;        // numbers a new event of the access sequence
  virtual uint32_t last_access() const = 0;  // the number of the latest
  virtual uint32_t next_epoch() = 0;         // a new CTA barrier epoch
  // Whether access `a` (by another thread of this launch) is ordered before what `th` does now.
  virtual bool ordered_before(const AccessRecord& a, const Cta& cta, const Thread& th) const = 0;
  // What a releasing operation of ctx's thread publishes: its clock, its own accesses so far
  // and its CTA's earlier epochs.
  virtual Clock release_clock(const ExecContext& ctx) const = 0;
  // A context for thread th of cta at the current launch's kernel.
  virtual ExecContext context(Cta& cta, Thread& th) = 0;

 protected:
  ~AccessPath() = default;
};

}  // namespace racer::exec
