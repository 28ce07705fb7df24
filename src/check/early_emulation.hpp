#pragma once
// The self-check's emulations need no symbol: at a keyed point (check/points.hpp: every value a
// function of the seed and the symbol's identity) the inputs are known before the symbolic run,
// so they start then, on a thread of their own (both programs one after the other), and on a
// machine of two cores cost no wall time beside the symbolic run.
//
// The thread emulates the keyed points the self-check takes, most likely first: the first
// point; the first in the box narrowed by kNarrowing (where most cells have no rounding bound
// in the whole box: flash attention's exp passes f16's range there); the second point and the
// second narrowed one (piecewise cells take two). What the self-check does not take is
// cancelled with the check's end, or dropped with this object after the self-check. A run
// beyond the first starts only where the outputs held with it stay within kHeldOutputBytes (an
// elementwise kernel over a million cells holds 16 MB per run and needs only the first).
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "check/concrete_run.hpp"
#include "check/prepare.hpp"

namespace racer::check {

// Destroying it cancels and joins the runs.
class EarlyEmulation {
 public:
  // `points`: the self-check's (runs for points beyond them are not made).
  EarlyEmulation(const Prepared& prep, const exec::Session& within, uint64_t seed, unsigned points);
  ~EarlyEmulation();
  EarlyEmulation(const EarlyEmulation&) = delete;
  EarlyEmulation& operator=(const EarlyEmulation&) = delete;

  static constexpr double kNarrowing = 0x1p-3;
  // The i-th un-narrowed (narrowed: in the box narrowed by kNarrowing) point the self-check
  // takes is the keyed point with key offset i (PointSampler::draw_keyed), where i < kPerKind.
  static constexpr unsigned kPerKind = 2;
  static constexpr size_t kHeldOutputBytes = size_t{8} << 20;
  // Its run, once it has ended (waits for it); nullopt where it did not end by itself (a
  // limit, an error: the self-check then emulates as usual, and meets the same) or i >= kPerKind.
  std::optional<ConcreteRun> take(unsigned i, bool narrowed);

 private:
  struct Planned {
    unsigned key_offset;
    bool narrowed;
  };
  // In the order they run.
  static constexpr Planned kPlan[] = {{0, false}, {0, true}, {1, false}, {1, true}};

  std::atomic<bool> cancelled_{false};
  std::mutex mutex_;
  std::condition_variable ended_;
  size_t done_ = 0;  // runs of kPlan ended (or given up), in order
  std::vector<std::optional<ConcreteRun>> runs_ = std::vector<std::optional<ConcreteRun>>(std::size(kPlan));
  std::thread thread_;
};

}  // namespace racer::check
