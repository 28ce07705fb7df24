#include "check/early_emulation.hpp"

#include "check/points.hpp"

namespace racer::check {

EarlyEmulation::EarlyEmulation(const Prepared& prep, const exec::Session& within, uint64_t seed, unsigned points,
                               std::optional<uint64_t> hazard_seed, bool narrower_than_f32) {
  thread_ = std::thread([this, &prep, &within, seed, points, hazard_seed, narrower_than_f32] {
    size_t held = 0, made = 0;  // bytes of the outputs of the runs so far, and how many runs made them
    for (size_t k = 0; k < kRuns; ++k) {
      const Planned& plan = kPlan[k];
      std::optional<ConcreteRun> run;
      // (Every run's outputs are as large as the first's.)
      const bool likely = (!plan.narrowed || narrower_than_f32) && (plan.key_offset == 0 || second_points_);
      const bool wanted = plan.hazard ? hazard_seed && made > 0 && held / made <= kHeldHazardBytes
                                      : likely && plan.key_offset < points && (made == 0 || held + held / made <= kHeldOutputBytes);
      if (wanted && !stop_[k]) {
        try {
          ConcreteInputs inputs = plan.hazard ? keyed_largest_inputs(prep, *hazard_seed, &stop_[k])
                                              : keyed_inputs(prep, seed + plan.key_offset, &stop_[k], plan.narrowed ? kNarrowing : 1.0);
          run = run_concrete(prep, inputs, Defects::Skip, &within, {true, &stop_[k]});
        } catch (...) {  // (a limit or an error: the self-check's or hazard search's own emulation meets it again and says so)
        }
      }
      if (run) {
        ++made;
        for (const auto& side : run->outputs)
          for (const auto& cells : side) held += cells.size() * sizeof(uint64_t);
      }
      std::lock_guard lock(mutex_);
      runs_[k] = std::move(run);
      done_ = k + 1;
      ended_.notify_all();
    }
  });
}

EarlyEmulation::~EarlyEmulation() {
  for (std::atomic<bool>& s : stop_) s = true;
  if (thread_.joinable()) thread_.join();
}

void EarlyEmulation::self_check_done() {
  for (size_t k = 0; k < kRuns; ++k)
    if (!kPlan[k].hazard) stop_[k] = true;
  std::lock_guard lock(mutex_);
  for (size_t k = 0; k < done_; ++k)
    if (!kPlan[k].hazard) runs_[k].reset();  // (frees their outputs)
}

std::optional<ConcreteRun> EarlyEmulation::take_run(size_t k) {
  std::unique_lock lock(mutex_);
  ended_.wait(lock, [&] { return done_ > k; });
  return std::move(runs_[k]);
}

std::optional<ConcreteRun> EarlyEmulation::take(unsigned i, bool narrowed) {
  for (size_t k = 0; k < kRuns; ++k)
    if (!kPlan[k].hazard && kPlan[k].key_offset == i && kPlan[k].narrowed == narrowed) return take_run(k);
  return std::nullopt;
}

std::optional<ConcreteRun> EarlyEmulation::take_hazard() {
  for (size_t k = 0; k < kRuns; ++k)
    if (kPlan[k].hazard) return take_run(k);
  return std::nullopt;
}

}  // namespace racer::check
