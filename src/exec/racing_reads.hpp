#pragma once
// Loads that race with a store of another thread. Triton replicates a value across lanes, and
// an in-place kernel then has a lane read an element a peer lane overwrites, where the value
// read is never used for any output. Such a race cannot change an output, but only a run in
// which the racing reads return values unrelated to memory can show it: the checker runs the
// program again with each racing load (named by its access number, the same in every run of
// the program until a value steers a branch) replaced by a fresh unknown, and keeps the
// verdict only if no output depends on one of them.
#include <cstdint>
#include <set>
#include <unordered_set>

namespace racer::exec {

struct RacingReads {
  std::set<uint32_t> found;  // access numbers of loads found in a race with a store
  uint64_t races = 0;        // race defects recorded (of any kind, counting occurrences)
  uint64_t read_races = 0;   // of them, a load against a store

  // For a second run: the loads to replace, and the symbols that replaced them.
  std::set<uint32_t> to_replace;
  std::set<uint32_t> replaced;
  std::unordered_set<uint32_t> symbols;  // ExprId indices

  bool replacing() const { return !to_replace.empty(); }
  // Every race was a load against a store: the kind a second run can excuse.
  bool only_read_races() const { return races > 0 && races == read_races; }
};

}  // namespace racer::exec
