#pragma once
// Replaying a witness: both programs run concretely (bit-exact IEEE emulation on the CPU)
// with the witness's input values, and their float outputs are compared bit for bit.
#include <string>
#include <vector>

#include "check/result.hpp"
#include "instance/instance.hpp"

namespace racer::check {

struct ReplayCell {
  std::string cell;
  uint64_t bits_a = 0, bits_b = 0;
  double a = 0, b = 0;
};

struct ReplayResult {
  std::string witness_cell;
  std::optional<ReplayCell> at_witness;   // the cell the witness is about
  std::vector<ReplayCell> differing;      // cells whose bits differ (the first few)
  uint64_t differing_count = 0, compared = 0;
  std::vector<exec::Defect> defects;
  std::string refusal;                    // non-empty if a program could not be replayed
  // Where each program's floats left their format (infinity or NaN from finite operands, zero
  // from nonzero ones), one line per kind and instruction: "a: overflow to 0x7f800000 at ...".
  std::vector<std::string> float_events;
};

// Cells of input tensors the witness does not mention are 0; unknown initial memory the
// witness does not mention is 0 too.
ReplayResult replay(const instance::Instance& inst, const std::string& witness_cell,
                    const std::vector<WitnessValue>& values);

}  // namespace racer::check
