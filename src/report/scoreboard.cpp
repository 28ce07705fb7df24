#include "report/scoreboard.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "check/check.hpp"
#include "check/expect.hpp"
#include "instance/load.hpp"
#include "report/markup.hpp"
#include "support/error.hpp"

namespace racer::report {
namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

}  // namespace

ScoreRow score_instance(const std::string& path, double seconds, const std::function<void(instance::Instance&)>& prepare,
                        std::optional<unsigned> hazard_points) {
  ScoreRow row;
  row.name = std::filesystem::path(path).stem().string();
  row.file = path;
  row.expected = "?";
  try {
    instance::Instance inst = instance::load_instance(path);
    if (prepare) prepare(inst);
    if (inst.expect) row.expected = std::string(instance::verdict_name(inst.expect->verdict));
    check::CheckOptions o;
    o.limits.max_seconds = seconds;
    if (hazard_points) {
      o.hazard_points = *hazard_points;
      o.hazard_instruction_budget = 0;
    }
    check::CheckResult r = check::check_instance(inst, o);
    row.got = std::string(check::verdict_name(r.verdict));
    row.seconds = r.seconds;
    row.why = check::expectation_mismatch(inst, r);
    if (r.counterexample) row.replay = r.counterexample->replay_kind;
    for (const auto& h : r.float_hazards.hazards)
      row.hazards.push_back(h.kind + " (" + std::string(1, h.program) + ") " + (h.intermediate ? "intermediate" : h.cell));
    for (const auto& c : r.float_hazards.precision_changes) {
      std::string form = std::string(1, c.program) + ": " + c.what;
      if (std::find(row.precision_changes.begin(), row.precision_changes.end(), form) == row.precision_changes.end())
        row.precision_changes.push_back(form);
    }
    row.hazard_summary = r.float_hazards.summary;
  } catch (const Error& e) {
    row.got = "error";
    row.why = e.what();
    row.why = row.why.substr(0, row.why.find('\n'));
  }
  row.pass = row.why.empty();
  return row;
}

std::string scoreboard_line(const ScoreRow& r) {
  char line[288];
  std::snprintf(line, sizeof line, "%-44s %-20s %-20s %-9s %7.2f %s", r.name.c_str(), r.expected.c_str(), r.got.c_str(),
                r.replay.c_str(), r.seconds, r.pass ? "PASS" : "FAIL");
  return line + (r.pass ? std::string() : "  " + r.why.substr(0, r.why.find('\n')));
}

nlohmann::json row_json(const ScoreRow& r) {
  return {{"case", r.name}, {"file", r.file}, {"expected", r.expected}, {"got", r.got}, {"replay", r.replay},
          {"seconds", r.seconds}, {"pass", r.pass}, {"why", r.why}, {"hazards", r.hazards},
          {"precision_changes", r.precision_changes}, {"hazard_summary", r.hazard_summary}};
}

ScoreRow row_from_json(const nlohmann::json& j) {
  ScoreRow r;
  r.name = j.at("case").get<std::string>();
  r.file = j.at("file").get<std::string>();
  r.expected = j.at("expected").get<std::string>();
  r.got = j.at("got").get<std::string>();
  r.replay = j.at("replay").get<std::string>();
  r.seconds = j.at("seconds").get<double>();
  r.pass = j.at("pass").get<bool>();
  r.why = j.at("why").get<std::string>();
  r.hazards = j.value("hazards", std::vector<std::string>{});
  r.precision_changes = j.value("precision_changes", std::vector<std::string>{});
  r.hazard_summary = j.value("hazard_summary", std::string());
  return r;
}

std::string hazards_markdown(const std::vector<ScoreRow>& rows) {
  auto join = [](const std::vector<std::string>& xs) {
    std::string s;
    for (const auto& x : xs) s += (s.empty() ? "" : "; ") + x;
    return s.empty() ? std::string("none") : s;
  };
  size_t with_hazards = 0, searched = 0;
  std::string table = "| case | verdict | float hazards | precision changes on one side only |\n| --- | --- | --- | --- |\n";
  for (const auto& r : rows) {
    with_hazards += !r.hazards.empty();
    searched += r.hazard_summary.rfind("float hazards:", 0) == 0;
    std::string hazards = r.hazard_summary.rfind("float hazards:", 0) == 0 || !r.hazards.empty() ? join(r.hazards)
                          : r.hazard_summary.empty()                                            ? "not searched (" + r.got + ")"
                                                                                                : r.hazard_summary;
    table += "| " + r.name + " | " + r.got + " | " + hazards + " | " + join(r.precision_changes) + " |\n";
  }
  return std::to_string(rows.size()) + " instances, " + std::to_string(searched) + " searched, " + std::to_string(with_hazards) +
         " with float hazards.\n\n" + table;
}

std::string junit(const std::vector<ScoreRow>& rows, const std::string& suite) {
  size_t failures = 0, errors = 0;
  double total = 0;
  for (const auto& r : rows) {
    total += r.seconds;
    if (!r.pass) ++(r.got == "error" ? errors : failures);
  }
  std::string counts = "tests=\"" + std::to_string(rows.size()) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
                       std::to_string(errors) + "\" time=\"" + seconds_text(total) + "\"";
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"racer\" " + counts + ">\n";
  s += "  <testsuite name=\"" + xml_escape(suite) + "\" " + counts + " skipped=\"0\">\n";
  for (const auto& r : rows) {
    s += "    <testcase classname=\"" + xml_escape(suite) + "\" name=\"" + xml_escape(r.name) + "\" file=\"" + xml_escape(r.file) +
         "\" time=\"" + seconds_text(r.seconds) + "\">\n";
    std::string detail = "expected " + r.expected + ", got " + r.got + (r.replay.empty() ? "" : " (replay " + r.replay + ")");
    if (!r.pass) {
      const char* tag = r.got == "error" ? "error" : "failure";
      s += "      <" + std::string(tag) + " message=\"" + xml_escape(r.why.substr(0, r.why.find('\n'))) + "\" type=\"" +
           (r.got == "error" ? "bad_input" : "expectation") + "\">" + xml_escape(detail + "\n" + r.why) + "</" + tag + ">\n";
    }
    s += "      <system-out>" + xml_escape(detail) + "</system-out>\n    </testcase>\n";
  }
  return s + "  </testsuite>\n</testsuites>\n";
}

}  // namespace racer::report
