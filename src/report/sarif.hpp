#pragma once
// A check as a SARIF 2.1.0 log (GitHub code scanning, review tools): every defect and every
// refuted output is a result, located in the PTX and, where the PTX's .loc says, in the CUDA
// or Triton source.
#include <string>

#include <nlohmann/json.hpp>

#include "check/result.hpp"
#include "instance/instance.hpp"

namespace racer::report {

nlohmann::json sarif(const check::CheckResult& r, const instance::Instance& inst);

}  // namespace racer::report
