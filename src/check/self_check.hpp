#pragma once
// Translation validation of a symbolic run: at points drawn inside the declared input
// ranges, every output cell's exact expression must agree with the bit-exact emulation of
// the same program, within the rounding its formats allow there (decide/rounding_bound).
// The two are independent readings of the PTX (the executor's real semantics and routine
// recognition against the IEEE emulator); a disagreement means the engine mis-modelled
// something, and no verdict may rest on that run.
#include <string>

#include "check/early_emulation.hpp"

#include "check/execution.hpp"

namespace racer::check {

struct SelfCheck {
  unsigned points = 0;         // points run (1 where every cell is analytic, see self_check.cpp)
  bool analytic = false;
  uint64_t compared = 0;       // cell values compared with the emulation
  uint64_t without_bound = 0;  // cell values with no rounding bound there (overflow, a comparison at its edge)
  unsigned narrowed = 0;       // the last points' box was the inputs' narrowed by 8^narrowed
  std::string failure;         // "" when every compared cell agreed
  std::string skipped;         // why the self-check did not run, if it did not
  double seconds = 0;
  double emulation_seconds = 0;  // of which running the programs concretely
  std::string summary() const;  // one line for the report
};

// `early`, where given, is the first point's emulation: the first point is then the keyed one.
SelfCheck self_check(Execution& ex, const std::vector<exec::Defect>& defects, unsigned points, uint64_t seed,
                     EarlyEmulation* early = nullptr);

}  // namespace racer::check
