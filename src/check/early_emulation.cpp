#include "check/early_emulation.hpp"

#include "check/points.hpp"

namespace racer::check {

EarlyEmulation::EarlyEmulation(const Prepared& prep, const exec::Session& within, uint64_t seed) {
  thread_ = std::thread([this, &prep, &within, seed] {
    try {
      ConcreteRun run = run_concrete(prep, keyed_inputs(prep, seed, &cancelled_), Defects::Skip, &within, {true, &cancelled_});
      run_ = std::move(run);
    } catch (...) {  // (a limit or an error: the self-check's own emulation meets it again and says so)
    }
  });
}

EarlyEmulation::~EarlyEmulation() {
  cancelled_ = true;
  if (thread_.joinable()) thread_.join();
}

std::optional<ConcreteRun> EarlyEmulation::take() {
  if (thread_.joinable()) thread_.join();
  return std::move(run_);
}

}  // namespace racer::check
