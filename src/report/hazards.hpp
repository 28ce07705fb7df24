#pragma once
// The float hazard report (check/hazards.hpp) for people and programs: its own section of the
// text report, its own key of the JSON, its own SARIF rules; never the verdict.
#include <string>

#include <nlohmann/json.hpp>

#include "check/result.hpp"
#include "instance/instance.hpp"

namespace racer::report {

std::string hazards_text(const check::HazardReport& h);
nlohmann::json hazards_json(const check::HazardReport& h);
// A witness file (racer-witness-1) at a hazard's input and cell, for `racer replay`.
nlohmann::json hazard_witness_json(const check::CheckResult& r, const check::FloatHazard& h, const std::string& instance_path,
                                   const instance::Instance& inst);

}  // namespace racer::report
