#pragma once
// Checking one instance: run both programs symbolically, then decide every output cell.
#include "check/progress.hpp"
#include "check/result.hpp"
#include "exec/launch.hpp"
#include "instance/instance.hpp"

namespace racer::check {

struct CheckOptions {
  exec::Limits limits;
  uint64_t seed = 1;
  // Points at which the symbolic run is checked against the bit-exact emulation (0: none).
  unsigned self_check_points = 2;
  // Decide every cell of an output after one of its cells is refuted (by default one witness
  // per output is enough and its remaining cells are reported as not decided).
  bool all_cells = false;
  // Decide each class of cells equal up to a renaming of inputs once (decide/shape.hpp); off,
  // every cell is decided on its own (what the reuse saves can be measured).
  bool shape_reduction = true;
  // Told the phase and counts as the check goes (check/progress.hpp); null: no one asks.
  ProgressObserver* progress = nullptr;
  // Inputs at which both programs run on the emulator looking for float hazards
  // (check/hazards.hpp); 0 skips the search (precision changes are still listed).
  unsigned hazard_points = 3;
  // Big kernels get fewer inputs: as many as fit this many emulated thread-instructions (the
  // symbolic run's count per input), one at least; 0: every input runs (--float-hazards).
  // Counted, not timed, so that a check reports the same on a loaded machine.
  uint64_t hazard_instruction_budget = 600000;
  // A hazard makes an otherwise passing check exit 1 (report::exit_code); precision changes do not.
  bool fail_on_hazard = false;
};

// Bad input (the instance does not fit its PTX) throws racer::Error(BadInput); refusals and
// limits are results (Verdict::Refused / Unknown), not exceptions.
CheckResult check_instance(const instance::Instance& inst, const CheckOptions& options = {});

}  // namespace racer::check
