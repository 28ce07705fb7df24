#include "check/early_emulation.hpp"

#include "check/points.hpp"

namespace racer::check {

EarlyEmulation::EarlyEmulation(const Prepared& prep, const exec::Session& within, uint64_t seed, unsigned points) {
  thread_ = std::thread([this, &prep, &within, seed, points] {
    size_t held = 0;  // bytes of the outputs of the runs so far
    for (size_t k = 0; k < std::size(kPlan); ++k) {
      std::optional<ConcreteRun> run;
      // (Every run's outputs are as large as the first's.)
      if (!cancelled_ && kPlan[k].key_offset < points && (k == 0 || held + held / k <= kHeldOutputBytes)) {
        try {
          const double narrowing = kPlan[k].narrowed ? kNarrowing : 1.0;
          run = run_concrete(prep, keyed_inputs(prep, seed + kPlan[k].key_offset, &cancelled_, narrowing), Defects::Skip, &within,
                             {true, &cancelled_});
        } catch (...) {  // (a limit or an error: the self-check's own emulation meets it again and says so)
        }
      }
      if (run)
        for (const auto& side : run->outputs)
          for (const auto& cells : side) held += cells.size() * sizeof(uint64_t);
      std::lock_guard lock(mutex_);
      runs_[k] = std::move(run);
      done_ = k + 1;
      ended_.notify_all();
    }
  });
}

EarlyEmulation::~EarlyEmulation() {
  cancelled_ = true;
  if (thread_.joinable()) thread_.join();
}

std::optional<ConcreteRun> EarlyEmulation::take(unsigned i, bool narrowed) {
  size_t k = 0;
  while (k < std::size(kPlan) && (kPlan[k].key_offset != i || kPlan[k].narrowed != narrowed)) ++k;
  if (k == std::size(kPlan)) return std::nullopt;
  std::unique_lock lock(mutex_);
  ended_.wait(lock, [&] { return done_ > k; });
  return std::move(runs_[k]);
}

}  // namespace racer::check
