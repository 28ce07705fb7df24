#pragma once
// Running a compiled routine concretely at one value of its input (see recognizer.hpp): the
// thread's state is copied, the input register set to the probe value, and the routine's
// instructions run one by one on the bit-exact domain, each value following its own branches.
// Nothing the probe does reaches the machine's memory or the thread itself.
#include <optional>
#include <vector>

#include "exec/machine.hpp"
#include "ptx/liveness.hpp"
#include "idiom/probe_run.hpp"

namespace racer::idiom {

// Instructions before the refusal that compute registers from the routine's input (every
// such register, not only those the refusing instruction reads: the routine may read others
// later), in program order; a probe runs them again from each probe value.
std::vector<uint32_t> prelude_of(const exec::Thread& th, const ptx::Function& fn, uint32_t input_sym);

struct ProbeSite {
  exec::ExecContext& ctx;  // the thread being recognized (never modified)
  uint32_t at;             // the instruction recognition began at
  uint32_t root;           // the routine's input register
  const std::vector<uint32_t>& prelude;
  const std::vector<uint32_t>& ipdom;  // immediate post-dominators of ctx.fn
  size_t max_steps;
  bool debug;
  // Follow the thread past the routine (a routine split across a loop, see split_plan.hpp):
  // loads and stores of other data run as opaque steps (a load's value is other data) and
  // every event records the registers it read; the probe stops at a branch on other data, at
  // memory addressed by or guarded by the routine's data, and at what is not a register
  // operation or a load or store.
  bool through = false;
  const ptx::RegisterUse* use = nullptr;  // of ctx.fn (required)
  // Go on past a load of the thread's other data (global or shared memory, an address and a
  // guard of the thread's own) among the first steps: its value is other data, and the plan
  // leaves the load to run (expf(c) + a with a's load among expf's steps, the addition fused
  // into expf's last multiply). Off, a probe stops at such a load.
  bool other_data_loads = false;
  // Read an addition of a value the thread computed from the input before the routine (or the
  // input itself) to the routine's value as an addend at the commit, as for other data
  // (expf(x) + x: nvcc fuses the addition into expf's last multiply). Off, such a step is the
  // routine's own (tanhf's x + x p(x) for small x is one).
  bool input_addends = false;
};

// The probe at input bits `bits` (of the input's format): nullopt when an instruction the
// routine runs is refused by the semantics (then no value can be fitted).
std::optional<Run> probe_once(const ProbeSite& site, uint64_t bits);

}  // namespace racer::idiom
