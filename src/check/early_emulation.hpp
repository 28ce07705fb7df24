#pragma once
// The self-check's first emulation needs no symbol: at a keyed point (check/points.hpp: every
// value a function of the seed and the symbol's identity) its inputs are known before the
// symbolic run, so it starts then, on a thread of its own (both programs one after the
// other), and on a machine of two cores costs no wall time beside the symbolic run.
#include <atomic>
#include <optional>
#include <thread>

#include "check/concrete_run.hpp"
#include "check/prepare.hpp"

namespace racer::check {

// Destroying it cancels and joins the run.
class EarlyEmulation {
 public:
  EarlyEmulation(const Prepared& prep, const exec::Session& within, uint64_t seed);
  ~EarlyEmulation();
  EarlyEmulation(const EarlyEmulation&) = delete;
  EarlyEmulation& operator=(const EarlyEmulation&) = delete;
  // The run, once it has ended (waits for it); nullopt where it did not end by itself (a
  // limit, an error: the self-check then emulates as usual, and meets the same).
  std::optional<ConcreteRun> take();

 private:
  std::atomic<bool> cancelled_{false};
  std::optional<ConcreteRun> run_;
  std::thread thread_;
};

}  // namespace racer::check
