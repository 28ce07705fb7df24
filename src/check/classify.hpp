#pragma once
// What a refutation means in floating point. The decider refutes over the reals; before a
// witness is reported, both programs are replayed on the emulator there and at further
// points (the ends of the input ranges, small magnitudes, nearly equal inputs), and each
// replay is read against the rounding the formats allow (decide/rounding_bound):
//  * manifest: at some point the float outputs differ by more than rounding can explain: a
//    bug that happens in the output format (the reported witness becomes that point);
//  * rounding: nowhere, and the exact outputs never differ by more than a few units of the
//    output format's rounding: the programs are equal up to rounding (its own verdict);
//  * hidden: nowhere manifest, yet the exact difference is larger than that somewhere (the
//    rounding noise there is larger still); the refutation stands;
//  * not_replayed: the emulator refused, or the check's limits ended the replays first.
#include <string>

#include "check/execution.hpp"

namespace racer::check {

struct Classification {
  enum class Kind : uint8_t { Manifest, Rounding, Hidden, NotReplayed } kind = Kind::NotReplayed;
  std::string summary;                      // one line for the report
  std::optional<Counterexample> manifest;   // Manifest away from the decider's witness: the new witness
  double largest_relative_difference = 0;   // of the exact outputs, over the points tried
};

Classification classify_refutation(Execution& ex, const Counterexample& cx, uint64_t seed);

// The exact-value half of the rounding class alone, with no emulation: whether at the witness
// and at the same further points the refuted cell's exact outputs never differ by more than
// rounding can make them. Cheap enough to ask of every class of refuted cells.
bool exact_outputs_within_rounding(Execution& ex, const Counterexample& cx, uint64_t seed);

// "manifest", "rounding", "hidden", "not_replayed"
std::string_view classification_name(Classification::Kind k);

}  // namespace racer::check
