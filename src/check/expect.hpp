#pragma once
// Comparing a result with an instance's [expect]: the verdict and the set of defects
// (program and kind) must both match.
#include <string>

#include "check/result.hpp"
#include "instance/instance.hpp"

namespace racer::check {

// Empty when the result matches [expect]; otherwise what differs, for the scoreboard.
std::string expectation_mismatch(const instance::Instance& inst, const CheckResult& r);

}  // namespace racer::check
