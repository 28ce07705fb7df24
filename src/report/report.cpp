#include "report/report.hpp"

#include <cstdio>
#include <fstream>

#include "report/hazards.hpp"
#include "support/error.hpp"

namespace racer::report {
namespace {

std::string upper(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return o;
}

std::string number(const mpq_class& q) {
  std::string s = rational_text(q);
  if (q.get_den() != 1) {
    char buf[40];
    std::snprintf(buf, sizeof buf, " (~%.9g)", rational_double(q));
    s += buf;
  }
  return s;
}

nlohmann::json site_json(const exec::Site& s) {
  return {{"launch", s.launch},  {"ctaid", s.ctaid},   {"tid", s.tid},
          {"ptx_line", s.ptx_line}, {"source", s.source}, {"instruction", s.text}};
}

// "shape reduction: 2048 cells in 32 classes equal up to a renaming of inputs, one decision each
// (largest: out[0,0] 64 cells proved, ...); 16 cells with identical sides"
std::string reuse_text(const check::ReuseStats& u) {
  auto cells = [](uint64_t n) { return std::to_string(n) + (n == 1 ? " cell" : " cells"); };
  std::vector<std::string> parts;
  if (u.classes > 0) {
    std::string p = cells(u.cells) + " in " + std::to_string(u.classes) + (u.classes == 1 ? " class" : " classes") +
                    " equal up to a renaming of inputs, one decision each (largest:";
    for (size_t i = 0; i < u.largest.size(); ++i)
      p += (i ? ", " : " ") + u.largest[i].representative + " " + cells(u.largest[i].cells) + " " + u.largest[i].outcome;
    parts.push_back(p + ")");
  }
  if (u.identical > 0) parts.push_back(cells(u.identical) + " with identical sides");
  std::string s = "  shape reduction:";
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : " ") + parts[i];
  return s + "\n";
}

std::string_view outcome_name(check::CellOutcome o) {
  switch (o) {
    case check::CellOutcome::Proved: return "proved";
    case check::CellOutcome::Refuted: return "refuted";
    case check::CellOutcome::Unknown: return "unknown";
    case check::CellOutcome::Skipped: return "skipped";
    case check::CellOutcome::Negligible: return "negligible";
    case check::CellOutcome::Undecided: return "not_reached";
  }
  return "?";
}

// The cells of an output as runs of one outcome, row-major flat indices: [{"outcome":
// "proved", "first": 0, "last": 99}, {"outcome": "not_reached", ...}]. A check stopped by a
// limit keeps every cell it decided, and says which it did not reach.
nlohmann::json outcome_runs(const check::OutputStats& o) {
  nlohmann::json runs = nlohmann::json::array();
  for (size_t first = 0; first < o.outcomes.size();) {
    size_t last = first;
    while (last + 1 < o.outcomes.size() && o.outcomes[last + 1] == o.outcomes[first]) ++last;
    runs.push_back({{"outcome", outcome_name(o.outcomes[first])}, {"first", first}, {"last", last}});
    first = last + 1;
  }
  return runs;
}

}  // namespace

std::string rational_text(const mpq_class& q) { return q.get_str(); }

double rational_double(const mpq_class& q) { return q.get_d(); }

nlohmann::json witness_value_json(const check::WitnessValue& v) {
  return {{"name", v.name}, {"kind", v.kind}, {"tensor", v.tensor}, {"cell", v.cell}, {"value", rational_text(v.value)}, {"approx", rational_double(v.value)}};
}

int exit_code(const check::CheckResult& r) {
  ExitCode c = ExitCode::Equivalent;
  if (r.verdict == check::Verdict::Refused) c = ExitCode::BadInput;
  else if (!r.defects.empty() || r.verdict == check::Verdict::Inequivalent) c = ExitCode::Inequivalent;
  else if (r.verdict == check::Verdict::Unknown) c = ExitCode::Unknown;
  else if (r.verdict == check::Verdict::EqualUpToRounding) c = ExitCode::EqualUpToRounding;
  // --fail-on-hazard: a float hazard fails a check that would otherwise pass.
  bool passing = c == ExitCode::Equivalent || c == ExitCode::EqualUpToRounding;
  if (passing && r.float_hazards.fails_check && !r.float_hazards.hazards.empty()) c = ExitCode::Inequivalent;
  return static_cast<int>(c);
}

std::string text(const check::CheckResult& r) {
  char head[160];
  std::snprintf(head, sizeof head, "%s: %s  (%.2f s, %zu expression nodes)\n", r.name.c_str(),
                upper(check::verdict_name(r.verdict)).c_str(), r.seconds, r.expression_nodes);
  std::string s = head;
  if (!r.reason.empty()) s += "  reason: " + r.reason + "\n";
  for (const auto& o : r.outputs) {
    s += "  " + o.tensor + ": " + std::to_string(o.cells) + " cells, " + std::to_string(o.proved) + " proved, " +
         std::to_string(o.refuted) + " refuted, " + std::to_string(o.unknown) + " unknown";
    if (o.negligible > 0) s += ", " + std::to_string(o.negligible) + " equal up to negligible terms";
    if (o.skipped > 0) s += ", " + std::to_string(o.skipped) + " not decided (the output is already refuted; --all-cells decides them)";
    if (o.not_reached() > 0) s += ", " + std::to_string(o.not_reached()) + " not reached";
    s += "\n";
  }
  if (r.reuse.classes > 0 || r.reuse.identical > 0) s += reuse_text(r.reuse);
  for (const auto& u : r.unknown_cells) s += "  unknown " + u + "\n";
  for (const auto& n : r.negligible_cells) s += "  negligible " + n + "\n";
  for (const auto& g : r.recognized) s += "  recognized " + g + "\n";
  if (!r.self_check.empty()) s += "  " + r.self_check + "\n";
  if (!r.defects.empty()) {
    s += "defects:\n";
    for (const auto& d : r.defects) {
      s += "  " + std::string(1, d.program) + ": " + exec::defect_text(d) + "\n     first at " + exec::site_text(d.site) + "\n";
    }
  }
  for (const auto& n : r.notes) s += "note: " + std::string(1, n.program) + ": " + n.message + "\n     at " + exec::site_text(n.site) + "\n";
  if (r.counterexample) {
    const auto& cx = *r.counterexample;
    s += "witness: the outputs differ at " + cx.cell + " (" + cx.step + ") when\n";
    for (const auto& v : cx.values) s += "  " + v.name + " = " + number(v.value) + "\n";
    if (cx.value_a) s += "  program a computes " + cx.cell + " = " + number(*cx.value_a) + "\n";
    if (cx.value_b) s += "  program b computes " + cx.cell + " = " + number(*cx.value_b) + "\n";
    if (!cx.reference_line.empty()) s += "  program b is the reference " + cx.reference_line + "\n";
    if (!cx.stored_by_a.empty()) s += "  program a stored " + cx.cell + " at " + cx.stored_by_a + "\n";
    if (!cx.stored_by_b.empty()) s += "  program b stored " + cx.cell + " at " + cx.stored_by_b + "\n";
    s += "  a: " + cx.expr_a + "\n  b: " + cx.expr_b + "\n";
    if (!cx.replay.empty() && cx.replay != r.reason) s += "  replay: " + cx.replay + "\n";
  }
  return s + hazards_text(r.float_hazards);
}

nlohmann::json json(const check::CheckResult& r) {
  nlohmann::json j;
  j["name"] = r.name;
  j["verdict"] = check::verdict_name(r.verdict);
  j["reason"] = r.reason;
  j["seconds"] = r.seconds;
  j["exec_seconds"] = r.exec_seconds;
  j["self_check"] = r.self_check;
  j["self_check_seconds"] = r.self_check_seconds;
  j["self_check_emulation_seconds"] = r.self_check_emulation_seconds;
  j["thread_instructions"] = r.thread_instructions;
  j["expression_nodes"] = r.expression_nodes;
  j["outputs"] = nlohmann::json::array();
  for (const auto& o : r.outputs)
    j["outputs"].push_back({{"tensor", o.tensor}, {"cells", o.cells}, {"proved", o.proved}, {"refuted", o.refuted},
                            {"unknown", o.unknown}, {"negligible", o.negligible}, {"skipped", o.skipped}, {"not_reached", o.not_reached()},
                            {"cell_outcomes", outcome_runs(o)}});
  nlohmann::json classes = nlohmann::json::array();
  for (const auto& c : r.reuse.largest) classes.push_back({{"representative", c.representative}, {"cells", c.cells}, {"outcome", c.outcome}});
  j["shape_reduction"] = {{"identical_cells", r.reuse.identical}, {"cells", r.reuse.cells}, {"classes", r.reuse.classes},
                          {"largest", classes}};
  j["unknown_cells"] = r.unknown_cells;
  j["negligible_cells"] = r.negligible_cells;
  j["recognized_routines"] = r.recognized;
  j["defects"] = nlohmann::json::array();
  for (const auto& d : r.defects) {
    j["defects"].push_back({{"program", std::string(1, d.program)}, {"kind", exec::defect_kind_name(d.kind)},
                            {"memory", d.memory}, {"detail", d.detail}, {"count", d.count}, {"site", site_json(d.site)}});
    if (d.other) j["defects"].back()["other_site"] = site_json(*d.other);
  }
  j["notes"] = nlohmann::json::array();
  for (const auto& n : r.notes) j["notes"].push_back({{"program", std::string(1, n.program)}, {"message", n.message}, {"site", site_json(n.site)}});
  if (r.counterexample) {
    const auto& cx = *r.counterexample;
    nlohmann::json c{{"cell", cx.cell}, {"step", cx.step}, {"expr_a", cx.expr_a}, {"expr_b", cx.expr_b},
                     {"replay", {{"kind", cx.replay_kind}, {"summary", cx.replay}}}};
    if (!cx.reference_line.empty()) c["reference"] = cx.reference_line;
    if (!cx.stored_by_a.empty()) c["stored_by_a"] = cx.stored_by_a;
    if (!cx.stored_by_b.empty()) c["stored_by_b"] = cx.stored_by_b;
    if (cx.value_a) c["value_a"] = rational_text(*cx.value_a);
    if (cx.value_b) c["value_b"] = rational_text(*cx.value_b);
    c["values"] = nlohmann::json::array();
    for (const auto& v : cx.values) c["values"].push_back(witness_value_json(v));
    j["counterexample"] = c;
  }
  j["float_hazards"] = hazards_json(r.float_hazards);
  return j;
}

nlohmann::json witness_json(const check::CheckResult& r, const std::string& instance_path) {
  nlohmann::json j;
  j["format"] = "racer-witness-1";
  j["instance"] = instance_path;
  if (!r.counterexample) return j;
  j["cell"] = r.counterexample->cell;
  j["values"] = json(r)["counterexample"]["values"];
  return j;
}

WitnessFile read_witness(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(ExitCode::BadInput, path + ": cannot read the witness file");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw Error(ExitCode::BadInput, path + ": not JSON: " + e.what());
  }
  auto need = [&](const nlohmann::json& o, const char* key) -> const nlohmann::json& {
    if (!o.is_object() || !o.contains(key)) throw Error(ExitCode::BadInput, path + ": missing \"" + std::string(key) + "\"");
    return o.at(key);
  };
  if (need(j, "format") != "racer-witness-1") throw Error(ExitCode::BadInput, path + ": not a racer-witness-1 file");
  WitnessFile w;
  try {
    w.instance = need(j, "instance").get<std::string>();
    w.cell = need(j, "cell").get<std::string>();
    for (const auto& v : need(j, "values")) {
      check::WitnessValue x;
      x.name = need(v, "name").get<std::string>();
      x.kind = need(v, "kind").get<std::string>();
      x.tensor = need(v, "tensor").get<int>();
      x.cell = need(v, "cell").get<int64_t>();
      x.value = mpq_class(need(v, "value").get<std::string>());
      x.value.canonicalize();
      w.values.push_back(std::move(x));
    }
    if (j.contains("replay")) w.replay = j["replay"];
  } catch (const nlohmann::json::exception& e) {
    throw Error(ExitCode::BadInput, path + ": " + e.what());
  } catch (const std::invalid_argument&) {
    throw Error(ExitCode::BadInput, path + ": a value is not a rational number");
  }
  // The instance path is relative to the working directory it was checked from, or to the witness.
  return w;
}

}  // namespace racer::report
