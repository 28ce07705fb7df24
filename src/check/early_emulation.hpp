#pragma once
// The self-check's emulations need no symbol: at a keyed point (check/points.hpp: every value a
// function of the seed and the symbol's identity) the inputs are known before the symbolic run,
// so they start then, on a thread of their own (both programs one after the other), and on a
// machine of two cores cost no wall time beside the symbolic run.
//
// The thread emulates the runs the self-check and the float hazard search are likely to take,
// in the order they take them: the self-check's first point; its first in the box narrowed by
// kNarrowing, where the programs compute in a format narrower than f32 (where most cells may
// have no rounding bound in the whole box: flash attention's exp passes f16's range there);
// the hazard search's first point (every float input at its range's end of largest magnitude,
// check/hazard_points.hpp), which every check with the search on runs; the self-check's second
// point and second narrowed one, where the symbolic run has made a piecewise expression by then
// (allow_second_points: analytic cells take one point). A run the self-check needs and this
// did not make, it makes itself after the symbolic run; a run made and not needed cost the
// symbolic run a fifth of its speed on the shared memory system (a matmul at K = 4096 ran its
// execution in 40 s beside five runs against 32 s alone).
//
// What the self-check does not take is cancelled when it is done (self_check_done) or with the
// check's end; the hazard run is dropped with this object. A self-check run beyond the first
// starts only where the outputs held with it stay within kHeldOutputBytes (an elementwise
// kernel over a million cells holds 16 MB per run and needs only the first); the hazard run
// only where one run's outputs are within kHeldHazardBytes.
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
  // `points`: the self-check's (runs for points beyond them are not made). `hazard_seed`: the
  // float hazard search's sampler seed (hazard_sampler_seed), where the search runs.
  // `narrower_than_f32`: whether the programs compute in such a format (narrowed runs).
  EarlyEmulation(const Prepared& prep, const exec::Session& within, uint64_t seed, unsigned points,
                 std::optional<uint64_t> hazard_seed, bool narrower_than_f32);
  ~EarlyEmulation();
  EarlyEmulation(const EarlyEmulation&) = delete;
  EarlyEmulation& operator=(const EarlyEmulation&) = delete;

  static constexpr double kNarrowing = 0x1p-3;
  // The i-th un-narrowed (narrowed: in the box narrowed by kNarrowing) point the self-check
  // takes is the keyed point with key offset i (PointSampler::draw_keyed), where i < kPerKind.
  static constexpr unsigned kPerKind = 2;
  static constexpr size_t kHeldOutputBytes = size_t{8} << 20;
  static constexpr size_t kHeldHazardBytes = size_t{64} << 20;
  // Its run, once it has ended (waits for it); nullopt where it did not end by itself (a
  // limit, an error: the self-check then emulates as usual, and meets the same) or i >= kPerKind.
  std::optional<ConcreteRun> take(unsigned i, bool narrowed);
  // The self-check took what it needed: its runs not yet ended are cancelled (the hazard run
  // goes on).
  void self_check_done();
  // The hazard search's first run (PointSampler::draw_keyed_largest), as take's.
  std::optional<ConcreteRun> take_hazard();
  // The symbolic run made a piecewise expression: the self-check's second points are worth
  // emulating (from the thread of the symbolic run, which alone reads the store).
  void allow_second_points() { second_points_ = true; }

 private:
  struct Planned {
    unsigned key_offset;
    bool narrowed;
    bool hazard;
  };
  // In the order they run.
  static constexpr Planned kPlan[] = {{0, false, false}, {0, true, false}, {0, false, true}, {1, false, false}, {1, true, false}};
  static constexpr size_t kRuns = std::size(kPlan);

  std::optional<ConcreteRun> take_run(size_t k);

  std::atomic<bool> stop_[kRuns] = {};  // per run: cancelled (before it starts, or while it runs)
  std::atomic<bool> second_points_{false};
  std::mutex mutex_;
  std::condition_variable ended_;
  size_t done_ = 0;  // runs of kPlan ended (or given up), in order
  std::vector<std::optional<ConcreteRun>> runs_ = std::vector<std::optional<ConcreteRun>>(kRuns);
  std::thread thread_;
};

}  // namespace racer::check
