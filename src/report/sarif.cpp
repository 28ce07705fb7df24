#include "report/sarif.hpp"

#include <filesystem>

#include "report/locations.hpp"
#include "report/report.hpp"
#include "report/version.hpp"

namespace racer::report {
namespace {
namespace fs = std::filesystem;

struct Rule {
  std::string_view id, name, description, level = "error";
};
// One rule per defect kind (their instance-format names) and one for refuted outputs.
constexpr Rule kRules[] = {
    {"oob_read", "OutOfBoundsRead", "A load reads outside every tensor and buffer the program was given."},
    {"oob_write", "OutOfBoundsWrite", "A store writes outside every tensor and buffer the program was given."},
    {"uninit_read", "UninitializedRead", "A load reads memory no launch has written and no input initialized."},
    {"race", "DataRace", "Two threads access the same bytes, at least one writing, with nothing ordering them."},
    {"access_violation", "AccessViolation", "A write to a tensor the launch may only read, or a read of one it may only write."},
    {"misaligned", "MisalignedAccess", "An access whose address is not a multiple of its size."},
    {"unmapped_read", "UnmappedStorageRead",
     "A load reads storage of a tensor that no cell of its shape and strides maps to (between strided rows)."},
    {"inequivalent", "InequivalentOutput",
     "Program A and program B compute different values for an output: a witness input shows the difference."},
    // Float hazards (check/hazards.hpp): the programs' formats behave differently at an input;
    // never part of the verdict.
    {"float_nan", "FloatNaN", "One program's output is NaN at an input where the other's is not.", "warning"},
    {"float_overflow", "FloatOverflow", "One program's output is infinite at an input where the other's is finite.", "warning"},
    {"float_underflow", "FloatUnderflow",
     "One program's output underflows to zero at an input where its exact value is a normal number and the other's is not zero.", "warning"},
    {"float_precision", "FloatPrecisionLoss",
     "One program's output is many ulps from its exact value, many times the other's error and beyond the other's rounding.", "warning"},
    {"precision_change", "PrecisionChange",
     "An instruction lowers precision (a narrowing conversion, an approximation, a flush to zero) on one side only.", "note"},
};

std::string_view hazard_rule(const std::string& kind) {
  if (kind == "nan") return "float_nan";
  if (kind == "overflow" || kind == "infinity") return "float_overflow";
  if (kind == "underflow") return "float_underflow";
  return "float_precision";
}

// A file URI for an existing file, so viewers resolve it wherever the log is opened.
std::string file_uri(const std::string& path) {
  std::error_code ec;
  std::string abs = fs::absolute(path, ec).lexically_normal().string();
  std::string out = "file://";
  for (unsigned char c : abs) {
    if (std::isalnum(c) || std::string_view("/-._~").find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

nlohmann::json location(const std::string& path, uint32_t line, uint32_t column, const std::string& what) {
  nlohmann::json artifact = {{"uri", file_uri(path)}};
  nlohmann::json phys = {{"artifactLocation", artifact}};
  if (line) {
    phys["region"] = {{"startLine", line}};
    if (column) phys["region"]["startColumn"] = column;
    if (std::string text = file_line(path, line); !text.empty()) phys["region"]["snippet"] = {{"text", text}};
  }
  return {{"physicalLocation", phys}, {"message", {{"text", what}}}};
}

// The source line first (what a code-review page shows), then the PTX instruction.
nlohmann::json site_locations(const exec::Site& s, char program, const instance::Instance& inst) {
  nlohmann::json locs = nlohmann::json::array();
  std::string ptx = launch_ptx_path(inst, program, s.launch);
  SourcePos pos = parse_source_pos(s.source);
  if (std::string src = find_source_file(pos.file, ptx, inst.source_path); !src.empty())
    locs.push_back(location(src, pos.line, pos.column, "program " + std::string(1, program) + " source"));
  if (!ptx.empty()) locs.push_back(location(ptx, s.ptx_line, 0, "program " + std::string(1, program) + " PTX: " + s.text));
  return locs;
}

nlohmann::json defect_result(const exec::Defect& d, const instance::Instance& inst) {
  std::string kind(exec::defect_kind_name(d.kind));
  std::string msg = "program " + std::string(1, d.program) + ": " + kind + " at " + d.memory;
  if (!d.detail.empty()) msg += " (" + d.detail + ")";
  msg += "; first by launch " + std::to_string(d.site.launch) + ", CTA " + dims_text(d.site.ctaid) + ", thread " + dims_text(d.site.tid);
  if (!d.site.source.empty()) msg += " at " + d.site.source;
  if (d.count > 1) msg += ", " + std::to_string(d.count) + " times";
  nlohmann::json res = {{"ruleId", kind},
                        {"level", "error"},
                        {"message", {{"text", msg}}},
                        {"locations", site_locations(d.site, d.program, inst)},
                        {"properties",
                         {{"program", std::string(1, d.program)},
                          {"memory", d.memory},
                          {"count", d.count},
                          {"launch", d.site.launch},
                          {"ctaid", d.site.ctaid},
                          {"tid", d.site.tid},
                          {"instruction", d.site.text}}}};
  if (res["locations"].empty()) res.erase("locations");
  if (d.other) {
    // The race's other access: a code-review page shows it beside the first.
    nlohmann::json other = site_locations(*d.other, d.program, inst);
    for (auto& l : other) l["message"]["text"] = "the conflicting access: CTA " + dims_text(d.other->ctaid) + ", thread " +
                                                 dims_text(d.other->tid) + ", " + l["message"]["text"].get<std::string>();
    if (!other.empty()) res["relatedLocations"] = other;
    res["properties"]["other_ctaid"] = d.other->ctaid;
    res["properties"]["other_tid"] = d.other->tid;
    res["properties"]["other_instruction"] = d.other->text;
  }
  return res;
}

// A refuted output: the instance's outputs line, and each program's kernel entries.
nlohmann::json refuted_result(const check::OutputStats& o, size_t index, const check::CheckResult& r,
                              const instance::Instance& inst) {
  std::string msg = "output " + o.tensor + ": " + std::to_string(o.refuted) + " of " + std::to_string(o.cells) +
                    " cells differ between program a and program b";
  if (o.skipped > 0) msg += " (" + std::to_string(o.skipped) + " more not decided: one refuted cell settles the output)";
  nlohmann::json props = {{"tensor", o.tensor}, {"cells", o.cells}, {"refuted", o.refuted}, {"skipped", o.skipped},
                          {"verdict", check::verdict_name(r.verdict)}};
  if (r.counterexample && r.counterexample->output == index) {
    const auto& cx = *r.counterexample;
    msg += "; e.g. " + cx.cell + " when";
    for (const auto& v : cx.values) msg += " " + v.name + " = " + rational_text(v.value) + ",";
    if (msg.back() == ',') msg.pop_back();
    if (cx.value_a && cx.value_b) msg += ": a gives " + rational_text(*cx.value_a) + ", b gives " + rational_text(*cx.value_b);
    if (!cx.replay_kind.empty()) msg += " (replay: " + cx.replay_kind + ")";
    props["witness_cell"] = cx.cell;
    props["expr_a"] = cx.expr_a;
    props["expr_b"] = cx.expr_b;
  }
  nlohmann::json locs = nlohmann::json::array();
  if (!inst.source_path.empty() && fs::exists(inst.source_path)) {
    uint32_t line = 0;
    for (size_t i = 0; i < inst.outputs.size() && i < inst.output_locs.size(); ++i)
      if (inst.outputs[i] == o.tensor) line = inst.output_locs[i].line;
    locs.push_back(location(inst.source_path, line, 0, "the instance's outputs"));
  }
  for (char p : {'a', 'b'})
    for (const auto& l : (p == 'a' ? inst.a : inst.b).launches)
      if (fs::exists(l.ptx))
        locs.push_back(location(l.ptx, entry_line(l.ptx, l.entry), 0, "program " + std::string(1, p) + ": entry " + l.entry));
  nlohmann::json res = {{"ruleId", "inequivalent"}, {"level", "error"}, {"message", {{"text", msg}}}, {"properties", props}};
  if (!locs.empty()) res["locations"] = locs;
  return res;
}

// A float hazard: located at the instance's outputs line and each program's entries, as a
// refuted output is; the input is in the properties, so the emulator can replay it.
nlohmann::json hazard_result(const check::FloatHazard& h, const check::CheckResult& r, const instance::Instance& inst) {
  check::OutputStats o;
  if (h.output < r.outputs.size()) o = r.outputs[h.output];
  nlohmann::json res = refuted_result(o, r.outputs.size(), r, inst);
  res["ruleId"] = hazard_rule(h.kind);
  res["level"] = "warning";
  res["message"] = {{"text", h.kind + ": " + h.message}};
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : h.values) values.push_back(witness_value_json(v));
  res["properties"] = {{"kind", h.kind}, {"program", std::string(1, h.program)}, {"cell", h.cell}, {"intermediate", h.intermediate}, {"input", h.input}, {"values", values}};
  return res;
}

nlohmann::json precision_change_result(const check::PrecisionChange& c, const instance::Instance& inst) {
  exec::Site s;
  s.launch = c.launch;
  s.ptx_line = c.ptx_line;
  s.source = c.source;
  s.text = c.instruction;
  std::string msg = "program " + std::string(1, c.program) + ": " + c.kind + " " + c.what + " (the other program has none of this form)";
  if (c.more) msg += ", and " + std::to_string(c.more) + " more";
  nlohmann::json res = {{"ruleId", "precision_change"},
                        {"level", "note"},
                        {"message", {{"text", msg}}},
                        {"locations", site_locations(s, c.program, inst)},
                        {"properties", {{"program", std::string(1, c.program)}, {"kind", c.kind}, {"what", c.what}, {"instruction", c.instruction}}}};
  if (res["locations"].empty()) res.erase("locations");
  return res;
}

}  // namespace

nlohmann::json sarif(const check::CheckResult& r, const instance::Instance& inst) {
  nlohmann::json rules = nlohmann::json::array();
  for (const Rule& rule : kRules)
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.description}}},
                     {"defaultConfiguration", {{"level", rule.level}}}});
  nlohmann::json results = nlohmann::json::array();
  for (const auto& d : r.defects) results.push_back(defect_result(d, inst));
  for (size_t i = 0; i < r.outputs.size(); ++i)
    if (r.outputs[i].refuted) results.push_back(refuted_result(r.outputs[i], i, r, inst));
  for (const auto& h : r.float_hazards.hazards) results.push_back(hazard_result(h, r, inst));
  for (const auto& c : r.float_hazards.precision_changes) results.push_back(precision_change_result(c, inst));
  for (auto& res : results)
    for (size_t i = 0; i < std::size(kRules); ++i)
      if (res["ruleId"] == kRules[i].id) res["ruleIndex"] = i;
  nlohmann::json run = {
      {"tool", {{"driver", {{"name", "racer"}, {"version", std::string(racer_version())}, {"rules", rules}}}}},
      {"invocations", nlohmann::json::array({{{"executionSuccessful", r.verdict != check::Verdict::Refused}, {"exitCode", exit_code(r)}}})},
      {"results", results},
      {"properties", {{"instance", r.name}, {"verdict", check::verdict_name(r.verdict)}, {"reason", r.reason}}}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", nlohmann::json::array({run})}};
}

}  // namespace racer::report
