#pragma once
// What one probe of a compiled routine records: the routine's instructions run concretely
// from where recognition began, at one value of its input, with every register write and
// what each instruction read from the thread's state as it was.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <span>
#include <utility>
#include <vector>

#include "exec/ieee.hpp"
#include "ptx/ir.hpp"

namespace racer::idiom {

// What a register holds during a probe: data fixed before it began, a value computed from
// the probed input, or other symbolic data the probe has no value for.
enum class State : uint8_t { Fixed, Sample, Opaque };

// The values a run's events hold, in blocks that never move, so that an event keeps a span of
// its own (most events hold one value: a vector each cost an allocation per probe step).
class ValueArena {
 public:
  std::span<uint64_t> take(size_t n) {
    if (n == 0) return {};
    if (used_ + n > capacity_) {
      capacity_ = std::max(n, kBlock);
      blocks_.push_back(std::make_unique<uint64_t[]>(capacity_));
      used_ = 0;
    }
    std::span<uint64_t> s(blocks_.back().get() + used_, n);
    used_ += n;
    return s;
  }

 private:
  static constexpr size_t kBlock = 1024;
  std::vector<std::unique_ptr<uint64_t[]>> blocks_;
  size_t used_ = 0, capacity_ = 0;
};

struct Event {
  uint32_t pc;
  // The registers written: the instruction's own list (ptx::RegisterUse, which outlives every
  // run) or one its run owns (Run::owned_writes); empty where the guard was off.
  std::span<const uint32_t> writes;
  std::span<const uint64_t> values;  // one per write, where the probe computed them (Run::value_arena)
  bool absorbed;                  // reads the routine's input, directly or not
  std::vector<std::pair<uint32_t, uint64_t>> fixed_reads;
  uint32_t addend = UINT32_MAX;   // an unrelated register added to the routine's value here
  bool addend_negated = false;
  // Mixes a value the routine computed with other symbolic data (other than as the additive
  // outsider of its last step): the routine's data escapes before its result is in place, so
  // no plan may end after it.
  bool escapes = false;
  // Every register the instruction read (guard and address included); recorded only by a
  // probe that follows the thread past the routine (ProbeSite::through); the instruction's own
  // list (ptx::RegisterUse).
  std::span<const uint32_t> reads;
};

struct Run {
  Run() = default;
  // Moved, never copied: events' write lists may point into owned_writes.
  Run(Run&&) = default;
  Run& operator=(Run&&) = default;
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  long double t = 0;
  std::vector<Event> events;
  std::deque<std::vector<uint32_t>> owned_writes;
  ValueArena value_arena;
  // First visit of each instruction: the routine's registers then, and how many events came before.
  struct Visit {
    size_t events_before;
    std::vector<std::pair<uint32_t, uint64_t>> sample_regs;
  };
  std::vector<uint32_t> order;
  std::map<uint32_t, Visit> visits;
  // Local stores of data the routine derived (instruction, local-space address, size): its own
  // scratch where the plan steps over the store, else a store of its result after it.
  std::set<std::tuple<uint32_t, uint64_t, unsigned>> local_stores;
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
