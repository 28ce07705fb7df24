#pragma once
#include <functional>
// A corpus run: one row per instance against its [expect], printed as the scoreboard line,
// kept as JSON, or written as a JUnit XML report for CI systems.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instance/instance.hpp"

namespace racer::report {

struct ScoreRow {
  std::string name;      // the instance file's stem
  std::string file;      // its path
  std::string expected;  // [expect]'s verdict, "?" without one
  std::string got;       // the verdict, or "error" when the instance could not be checked
  std::string replay;    // the witness replay's kind, "" without a witness
  std::string why;       // what differs from [expect] (or the error); "" when it passes
  double seconds = 0;
  bool pass = false;
  // The float hazard search's findings (check/hazards.hpp), "kind (program) cell" each, and
  // the precision changes on one side only, "program: form" each; not part of passing.
  std::vector<std::string> hazards, precision_changes;
  std::string hazard_summary;
};

// Checks one instance file against its [expect] (time limit `seconds`): the row `racer corpus`
// prints for it. An instance that cannot be loaded or checked is a row with got "error".
// `prepare` runs on the loaded instance before it is checked (the CLI traces a [b] reference
// there: the front ends live above this layer).
// `hazard_points`: inputs of the float hazard search, every one run (check::CheckOptions);
// nullopt: the default search of racer check.
ScoreRow score_instance(const std::string& path, double seconds,
                        const std::function<void(instance::Instance&)>& prepare = {},
                        std::optional<unsigned> hazard_points = std::nullopt);

// `<case> <expected> <got> <replay> <seconds> PASS|FAIL  why`, as `racer corpus` prints it.
std::string scoreboard_line(const ScoreRow& r);
nlohmann::json row_json(const ScoreRow& r);
ScoreRow row_from_json(const nlohmann::json& j);

// The hazards section of a scoreboard (Markdown): per instance its verdict, the hazards found
// and the precision changes on one side only.
std::string hazards_markdown(const std::vector<ScoreRow>& rows);

// JUnit XML (the schema Jenkins, GitLab and GitHub test reporters read): a failure per row
// that misses its [expect], an error per instance that could not be checked.
std::string junit(const std::vector<ScoreRow>& rows, const std::string& suite);

}  // namespace racer::report
