#include "contract/retest.hpp"

#include <algorithm>
#include <map>

#include "support/error.hpp"

namespace racer::contract {
namespace {

enum class Rule : uint8_t { Always, IfSubsystem, MajorOnly };

struct Policy {
  Rule rule;
  std::vector<std::string> subsystems;  // IfSubsystem: what it depends on
  const char* why;
};

// Class (C-FAM-NN, without any suffix) -> policy.
const std::map<std::string, Policy>& policies() {
  static const std::map<std::string, Policy> p = {
      {"C-PRC-01", {Rule::Always, {}, "accumulator handling changes with library and compiler fixes"}},
      {"C-PRC-03", {Rule::Always, {}, "denormal modes follow compiler defaults and flags"}},
      {"C-ORD-01", {Rule::Always, {}, "reduction schedules change with scheduler and library tuning"}},
      {"C-CMP-02", {Rule::Always, {}, "the autotuning space and its choices change with every build"}},
      {"C-EXC-01", {Rule::Always, {}, "NaN/Inf handling changes with library fixes"}},
      {"C-EXC-02", {Rule::Always, {}, "bounds handling changes with library and driver fixes"}},
      {"C-PRC-02", {Rule::IfSubsystem, {"math_library", "compiler"}, "depends on the math library's exp/log and their compilation"}},
      {"C-PRC-04", {Rule::IfSubsystem, {"mixed_precision", "compiler"}, "depends on mixed-precision scaling and format conversions"}},
      {"C-CMP-01", {Rule::IfSubsystem, {"fusion", "compiler"}, "depends on the fusion pass"}},
      {"C-ORD-02", {Rule::MajorOnly, {}, "atomic determinism classes change with major versions"}},
      {"C-ORD-03", {Rule::MajorOnly, {}, "collective reduction orders change with major versions"}},
      {"C-CMP-03", {Rule::MajorOnly, {}, "supported shape classes change with major versions"}},
  };
  return p;
}

// "C-PRC-01-FP8-ACC" -> "C-PRC-01".
std::string class_of(const std::string& id) {
  size_t dashes = 0;
  for (size_t i = 0; i < id.size(); ++i)
    if (id[i] == '-' && ++dashes == 3) return id.substr(0, i);
  return id;
}

}  // namespace

const std::vector<std::string>& subsystem_names() {
  static const std::vector<std::string> n = {"compiler", "math_library", "mixed_precision", "fusion", "collectives", "scheduler", "atomics", "driver"};
  return n;
}

std::vector<RetestEntry> retest_plan(const std::vector<std::string>& ids, const std::vector<std::string>& changed, bool major) {
  for (const std::string& s : changed)
    if (std::find(subsystem_names().begin(), subsystem_names().end(), s) == subsystem_names().end()) {
      std::string all;
      for (const auto& n : subsystem_names()) all += (all.empty() ? "" : ", ") + n;
      throw Error(ExitCode::BadInput, "unknown subsystem '" + s + "'; expected one of " + all);
    }
  std::vector<RetestEntry> out;
  for (const std::string& id : ids) {
    RetestEntry e{id, true, ""};
    auto it = policies().find(class_of(id));
    if (it == policies().end()) {
      e.reason = "always (no retest policy for this class: re-run to be safe)";
    } else {
      const Policy& p = it->second;
      switch (p.rule) {
        case Rule::Always: e.reason = std::string("always: ") + p.why; break;
        case Rule::IfSubsystem: {
          std::string hit;
          for (const auto& s : p.subsystems)
            if (std::find(changed.begin(), changed.end(), s) != changed.end()) hit = s;
          e.retest = !hit.empty() || major;
          e.reason = !hit.empty() ? "the release changes " + hit + ": " + p.why
                     : major ? std::string("major version: ") + p.why
                             : std::string("not affected (") + p.why + ")";
          break;
        }
        case Rule::MajorOnly:
          e.retest = major;
          e.reason = major ? std::string("major version: ") + p.why : std::string("once per major version (") + p.why + ")";
          break;
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace racer::contract
