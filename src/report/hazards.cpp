#include "report/hazards.hpp"

#include <cmath>

#include "report/report.hpp"

namespace racer::report {
namespace {

std::string site(const check::PrecisionChange& c) {
  std::string s = "launch " + std::to_string(c.launch);
  if (c.ptx_line) s += ", PTX line " + std::to_string(c.ptx_line);
  if (!c.source.empty()) s += " (" + c.source + ")";
  return s + ": " + c.instruction;
}

}  // namespace

std::string hazards_text(const check::HazardReport& h) {
  std::string s;
  if (!h.summary.empty()) s += "  " + h.summary + "\n";
  if (!h.hazards.empty()) {
    s += "float hazards (not part of the verdict; `racer replay` reproduces each from --hazard-witness):\n";
    for (const auto& z : h.hazards) {
      s += "  " + z.kind + ": " + z.message + "\n     input:";
      size_t shown = 0;
      for (const auto& v : z.values) {
        if (shown++ == 6) {
          s += " ... (" + std::to_string(z.values.size()) + " values; all of them in --json)";
          break;
        }
        s += " " + v.name + " = " + rational_text(v.value) + (v.value.get_den() != 1 ? " (~" + std::to_string(v.value.get_d()) + ")" : "") + ",";
      }
      if (s.back() == ',') s.pop_back();
      s += "\n";
    }
  }
  if (!h.precision_changes.empty()) {
    s += "precision changes on one side only (the identity over the reals; listed whatever the verdict):\n";
    for (const auto& c : h.precision_changes) {
      s += "  " + std::string(1, c.program) + ": " + c.kind + " " + c.what + " at " + site(c);
      if (c.more) s += " (and " + std::to_string(c.more) + " more)";
      s += "\n";
    }
  }
  return s;
}

nlohmann::json hazards_json(const check::HazardReport& h) {
  nlohmann::json j{{"searched", h.searched}, {"summary", h.summary}, {"runs", h.runs}, {"runs_beside", h.runs_beside}, {"seconds", h.seconds}};
  j["hazards"] = nlohmann::json::array();
  for (const auto& z : h.hazards) {
    nlohmann::json e{{"kind", z.kind},          {"program", std::string(1, z.program)}, {"cell", z.cell},
                     {"output", z.output},      {"flat_cell", z.flat_cell},             {"cells", z.cells},
                     {"value", z.value},        {"other_value", z.other},               {"bits", z.bits},
                     {"other_bits", z.other_bits}, {"input", z.input},                  {"message", z.message}};
    // JSON has no NaN or infinity: the bits say which; the values are null then.
    for (const char* k : {"value", "other_value"})
      if (!std::isfinite(e[k].get<double>())) e[k] = nullptr;
    if (z.exact) e["exact"] = *z.exact;
    if (!z.origin.empty()) e["origin"] = z.origin;
    e["intermediate"] = z.intermediate;
    e["more"] = z.more;
    if (z.kind == "precision") {
      e["error_ulps"] = z.error_ulps;
      e["other_error_ulps"] = z.other_error_ulps;
    }
    e["values"] = nlohmann::json::array();
    for (const auto& v : z.values) e["values"].push_back(witness_value_json(v));
    j["hazards"].push_back(std::move(e));
  }
  j["precision_changes"] = nlohmann::json::array();
  for (const auto& c : h.precision_changes)
    j["precision_changes"].push_back({{"program", std::string(1, c.program)}, {"kind", c.kind},       {"what", c.what},
                                      {"launch", c.launch},                   {"ptx_line", c.ptx_line}, {"source", c.source},
                                      {"instruction", c.instruction},         {"more", c.more}});
  return j;
}

nlohmann::json hazard_witness_json(const check::CheckResult& r, const check::FloatHazard& h, const std::string& instance_path,
                                   const instance::Instance& inst) {
  check::CheckResult at;
  at.name = r.name;
  check::Counterexample cx;
  cx.cell = h.cell;
  cx.output = h.output;
  cx.flat_cell = h.flat_cell;
  cx.values = h.values;
  at.counterexample = std::move(cx);
  nlohmann::json j = witness_json(at, instance_path, inst);
  j["hazard"] = {{"kind", h.kind}, {"program", std::string(1, h.program)}, {"message", h.message}};
  return j;
}

}  // namespace racer::report
