#pragma once
// What one probe of a compiled routine records: the routine's instructions run concretely
// from where recognition began, at one value of its input, with every register write and
// what each instruction read from the thread's state as it was.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "exec/ieee.hpp"
#include "ptx/ir.hpp"

namespace racer::idiom {

// What a register holds during a probe: data fixed before it began, a value computed from
// the probed input, or other symbolic data the probe has no value for.
enum class State : uint8_t { Fixed, Sample, Opaque };

struct Event {
  uint32_t pc;
  std::vector<uint32_t> writes;
  std::vector<uint64_t> values;
  bool absorbed;                  // reads the routine's input, directly or not
  std::vector<std::pair<uint32_t, uint64_t>> fixed_reads;
  uint32_t addend = UINT32_MAX;   // an unrelated register added to the routine's value here
  bool addend_negated = false;
  // Mixes a value the routine computed with other symbolic data (other than as the additive
  // outsider of its last step): the routine's data escapes before its result is in place, so
  // no plan may end after it.
  bool escapes = false;
  // Every register the instruction read (guard and address included); recorded only by a
  // probe that follows the thread past the routine (ProbeSite::through).
  std::vector<uint32_t> reads;
};

struct Run {
  long double t;
  std::vector<Event> events;
  // First visit of each instruction: the routine's registers then, and how many events came before.
  struct Visit {
    size_t events_before;
    std::vector<std::pair<uint32_t, uint64_t>> sample_regs;
  };
  std::vector<uint32_t> order;
  std::map<uint32_t, Visit> visits;
  // Local scratch the routine's own stores wrote (local-space address, size).
  std::set<std::pair<uint64_t, unsigned>> local_stores;
  // Branches on the routine's input, with where their paths meet again.
  std::map<uint32_t, uint32_t> branch_joins;
  // Where the probe stopped (an instruction it cannot run, or UINT32_MAX at its step limit),
  // and whether it had passed there before.
  uint32_t stop = UINT32_MAX;
  bool stop_visited_before = false;
  // Instructions between a branch on other data and where its paths meet, which a probe
  // following the thread stepped over without running (the thread runs them).
  std::set<uint32_t> unfollowed;
};

// The IEEE format of a float register type; nullopt for other widths.
std::optional<ieee::Format> format_of(ptx::Type t);

}  // namespace racer::idiom
