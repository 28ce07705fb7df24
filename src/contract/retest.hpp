#pragma once
// Which contracts a stack upgrade must re-run. The policy (from the contracts paper's
// version-diff section): six classes are re-run on every upgrade, three when the release
// touches a subsystem they depend on, three once per major version. A contract whose class
// the policy does not know is always re-run (fail closed).
#include <string>
#include <vector>

namespace racer::contract {

struct RetestEntry {
  std::string contract;
  bool retest = false;
  std::string reason;
};

// The subsystems a release can name: compiler, math_library, mixed_precision, fusion,
// collectives, scheduler, atomics, driver.
const std::vector<std::string>& subsystem_names();

// Throws racer::Error(BadInput) for an unknown subsystem name.
std::vector<RetestEntry> retest_plan(const std::vector<std::string>& contract_ids, const std::vector<std::string>& changed, bool major_version);

}  // namespace racer::contract
