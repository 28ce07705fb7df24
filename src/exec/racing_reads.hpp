#pragma once
// Loads that race with a store of another thread. Triton replicates a value across lanes, and
// an in-place kernel then has a lane read an element a peer lane overwrites, where the value
// read is never used for any output. Such a race cannot change an output, but only a run in
// which the racing reads return values unrelated to memory can show it: the checker runs the
// program again with each racing load (named by its access number, the same in every run of
// the program until a value steers a branch) replaced by a fresh unknown, and keeps the
// verdict only if no output depends on one of them. That run keeps every read of a byte since
// its last write, so it finds every load in a race; if it finds loads the first run missed, one
// more run replaces those too.
#include <algorithm>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "exec/defect.hpp"

namespace racer::exec {

struct RacingReads {
  std::set<uint32_t> found;  // access numbers of loads found in a race with a store
  uint64_t races = 0;        // race defects recorded (of any kind, counting occurrences)
  uint64_t read_races = 0;   // of them, a load against a store

  // For a second run: the loads to replace, and the symbols that replaced them.
  std::set<uint32_t> to_replace;
  std::set<uint32_t> replaced;
  std::unordered_set<uint32_t> symbols;  // ExprId indices
  std::unordered_map<uint32_t, Site> sites;  // symbol -> the load that read it
  // Access number of a load -> the warp's collective count when an instruction first read
  // the register it loaded.
  std::unordered_map<uint32_t, uint32_t> used_at;
  // A byte read by more loads since its last write than a run keeps: every racing load
  // could not be found.
  bool incomplete = false;
  static constexpr size_t kMaxReadersPerByte = 4096;

  // For a run that tells the cells no race reaches (check/execution.cpp): a store that races
  // with another thread's store leaves a fresh unknown in the bytes instead of its value (in
  // another order the other store lands last), so whatever reads them later depends on it.
  bool replace_writes = false;
  uint64_t replaced_writes = 0;  // such stores

  bool replacing() const { return !to_replace.empty() || replace_writes; }
  // Every race was a load against a store: the kind a second run can excuse.
  bool only_read_races() const { return races > 0 && races == read_races; }
  // Every race of the run left an unknown where its schedule-dependent value went: each load
  // in a race was replaced, each store racing with a store too, and no other kind of race (an
  // indexed access, an asynchronous copy) was met.
  bool every_race_replaced() const {
    return !incomplete && races == read_races + replaced_writes &&
           std::includes(replaced.begin(), replaced.end(), found.begin(), found.end());
  }
};

}  // namespace racer::exec
