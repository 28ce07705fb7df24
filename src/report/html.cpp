#include "report/html.hpp"

#include <algorithm>
#include <cstdio>

#include "report/locations.hpp"
#include "report/markup.hpp"
#include "report/report.hpp"
#include "report/version.hpp"

namespace racer::report {
namespace {

// A map is drawn up to this many cells per output; beyond, the page says how many it left out.
constexpr uint64_t kMaxMapCells = 65536;

std::string esc(std::string_view s) { return xml_escape(s); }

const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1f24;max-width:1200px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de}
.verdict{display:inline-block;padding:3px 10px;border-radius:12px;color:#fff;font-weight:600}
.v-equivalent{background:#1a7f37}.v-inequivalent{background:#cf222e}.v-unknown{background:#9a6700}
.v-refused{background:#57606a}.v-equal_up_to_rounding{background:#0969da}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
code,pre{font:12px/1.4 ui-monospace,monospace}pre{background:#f6f8fa;padding:8px;white-space:pre-wrap;word-break:break-all;margin:0}
.map{display:grid;gap:1px;margin:6px 0;width:max-content}.map span{width:10px;height:10px;display:block}
.p{background:#2da44e}.r{background:#cf222e}.u{background:#d4a72c}.g{background:#8fd19e}.n{background:#d0d7de}
.map span.w{outline:2px solid #000;outline-offset:0}.legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}.diff{background:#fff8c5}
.src{color:#57606a}
)";

void outputs_section(std::string& s, const check::CheckResult& r) {
  s += "<h2>Outputs</h2>\n<table id=\"outputs\"><tr><th>output</th><th>cells</th><th>proved</th><th>refuted</th><th>unknown</th><th>not decided</th></tr>\n";
  for (const auto& o : r.outputs)
    s += "<tr><td>" + esc(o.tensor) + "</td><td>" + std::to_string(o.cells) + "</td><td>" + std::to_string(o.proved) +
         "</td><td>" + std::to_string(o.refuted) + "</td><td>" + std::to_string(o.unknown) + "</td><td>" +
         std::to_string(o.skipped + static_cast<uint64_t>(std::count(o.outcomes.begin(), o.outcomes.end(),
                                                                       check::CellOutcome::Undecided))) +
         "</td></tr>\n";
  s += "</table>\n<div class=\"legend\"><span class=\"p\"></span>proved<span class=\"r\"></span>refuted"
       "<span class=\"u\"></span>unknown<span class=\"g\"></span>equal up to negligible terms<span class=\"n\"></span>not decided (a limit stopped deciding, or the output was already refuted)"
       "<span class=\"w\" style=\"outline:2px solid #000\"></span>witness cell</div>\n";
}

// One output's cells as a grid: the last dimension across, every other dimension down.
void cell_map(std::string& s, const check::OutputStats& o, size_t index, const check::CheckResult& r,
              const instance::Instance& inst) {
  const instance::Tensor* t = inst.find_tensor(o.tensor);
  uint64_t across = t && !t->shape.empty() ? static_cast<uint64_t>(std::max<int64_t>(t->shape.back(), 1)) : o.cells;
  if (across > 64) across = 64;  // a long row wraps, so the map fits the page
  int64_t witness = r.counterexample && r.counterexample->output == index ? r.counterexample->flat_cell : -1;
  uint64_t shown = std::min<uint64_t>(o.outcomes.size(), kMaxMapCells);
  s += "<h3>" + esc(o.tensor) + "</h3>\n<div class=\"map\" data-output=\"" + esc(o.tensor) +
       "\" style=\"grid-template-columns:repeat(" + std::to_string(std::max<uint64_t>(across, 1)) + ",10px)\">";
  for (uint64_t c = 0; c < shown; ++c) {
    const char* cls = "n";
    const char* word = "not decided";
    switch (o.outcomes[c]) {
      case check::CellOutcome::Proved: cls = "p"; word = "proved"; break;
      case check::CellOutcome::Refuted: cls = "r"; word = "refuted"; break;
      case check::CellOutcome::Unknown: cls = "u"; word = "unknown"; break;
      case check::CellOutcome::Negligible: cls = "g"; word = "equal up to negligible terms"; break;
      case check::CellOutcome::Skipped: word = "not decided (output already refuted)"; break;
      case check::CellOutcome::Undecided: break;
    }
    bool w = static_cast<int64_t>(c) == witness;
    s += "<span class=\"" + std::string(cls) + (w ? " w" : "") + "\" title=\"cell " + std::to_string(c) + ": " + word + "\"></span>";
  }
  s += "</div>\n";
  if (shown < o.cells) s += "<p>the first " + std::to_string(shown) + " of " + std::to_string(o.cells) + " cells are drawn</p>\n";
}

void witness_section(std::string& s, const check::CheckResult& r, const std::optional<check::Explanation>& x) {
  if (!r.counterexample) return;
  const auto& cx = *r.counterexample;
  s += "<h2>Witness</h2>\n<p id=\"witness-cell\">The outputs differ at <code>" + esc(cx.cell) + "</code> (" + esc(cx.step) +
       ") when</p>\n<table id=\"witness\"><tr><th>input</th><th>value</th><th>about</th></tr>\n";
  for (const auto& v : cx.values) {
    char approx[48];
    std::snprintf(approx, sizeof approx, "%.9g", rational_double(v.value));
    s += "<tr><td><code>" + esc(v.name) + "</code></td><td><code>" + esc(rational_text(v.value)) + "</code></td><td>~" + approx +
         (v.kind.empty() || v.kind == "input" ? "" : " (" + esc(v.kind) + ")") + "</td></tr>\n";
  }
  s += "</table>\n";
  if (cx.value_a || cx.value_b) {
    s += "<table id=\"witness-values\"><tr><th>program</th><th>" + esc(cx.cell) + "</th></tr>\n";
    if (cx.value_a) s += "<tr><td>a</td><td><code>" + esc(rational_text(*cx.value_a)) + "</code></td></tr>\n";
    if (cx.value_b) s += "<tr><td>b</td><td><code>" + esc(rational_text(*cx.value_b)) + "</code></td></tr>\n";
    s += "</table>\n";
  }
  if (!cx.replay.empty()) s += "<p>replay (" + esc(cx.replay_kind) + "): " + esc(cx.replay) + "</p>\n";
  std::string ea = x && x->stopped.empty() ? x->expr_a : cx.expr_a, eb = x && x->stopped.empty() ? x->expr_b : cx.expr_b;
  s += "<h2>Expressions for " + esc(cx.cell) + "</h2>\n<div class=\"sides\" id=\"expressions\"><div><b>program a</b><pre id=\"expr-a\">" +
       esc(ea) + "</pre></div><div><b>program b</b><pre id=\"expr-b\">" + esc(eb) + "</pre></div></div>\n";
  if (!cx.stored_by_a.empty() || !cx.stored_by_b.empty()) {
    s += "<table id=\"stored-by\"><tr><th>program</th><th>the store that wrote " + esc(cx.cell) + "</th></tr>\n";
    if (!cx.stored_by_a.empty()) s += "<tr><td>a</td><td><code>" + esc(cx.stored_by_a) + "</code></td></tr>\n";
    if (!cx.stored_by_b.empty()) s += "<tr><td>b</td><td><code>" + esc(cx.stored_by_b) + "</code></td></tr>\n";
    s += "</table>\n";
  }
  if (x && x->stopped.empty()) {
    s += "<p><b>a &minus; b</b></p><pre class=\"diff\" id=\"difference\">" + esc(x->difference) + "</pre>\n<p>decided: " +
         esc(x->status) + (x->step.empty() ? "" : " (" + esc(x->step) + ")") + "</p>\n";
  } else if (x) {
    s += "<p>the difference could not be recomputed: " + esc(x->stopped) + "</p>\n";
  }
}

// The source line a site's .loc names, found on disk where it can be.
std::string source_cell(const exec::Site& site, char program, const instance::Instance& inst) {
  if (site.source.empty()) return "<td>(no .loc)</td>";
  SourcePos pos = parse_source_pos(site.source);
  std::string file = find_source_file(pos.file, launch_ptx_path(inst, program, site.launch), inst.source_path);
  std::string text = file.empty() ? std::string() : file_line(file, pos.line);
  return "<td><code>" + esc(site.source) + "</code>" + (text.empty() ? "" : "<pre class=\"src\">" + esc(text) + "</pre>") + "</td>";
}

// The access site, PTX and source cells of a defect's row (or of its race's other access).
std::string site_cells(const exec::Site& site, char program, const instance::Instance& inst) {
  std::string ptx = launch_ptx_path(inst, program, site.launch);
  return "<td>launch " + std::to_string(site.launch) + ", CTA " + dims_text(site.ctaid) + ", thread " + dims_text(site.tid) +
         "</td><td><code>" + esc(ptx) + (site.ptx_line ? ":" + std::to_string(site.ptx_line) : "") + "</code><pre>" +
         esc(site.text) + "</pre></td>" + source_cell(site, program, inst);
}

void defects_section(std::string& s, const check::CheckResult& r, const instance::Instance& inst) {
  s += "<h2>Defects (" + std::to_string(r.defects.size()) + ")</h2>\n";
  if (r.defects.empty()) {
    s += "<p id=\"no-defects\">none in either program</p>\n";
    return;
  }
  s += "<table id=\"defects\"><tr><th>program</th><th>kind</th><th>memory</th><th>access site</th><th>PTX</th><th>source</th></tr>\n";
  for (const auto& d : r.defects) {
    s += "<tr class=\"defect\"><td>" + std::string(1, d.program) + "</td><td>" + esc(exec::defect_kind_name(d.kind)) + "</td><td><code>" +
         esc(d.memory) + "</code>" + (d.detail.empty() ? "" : "<br>" + esc(d.detail)) +
         (d.count > 1 ? "<br>" + std::to_string(d.count) + " times" : "") + "</td>" + site_cells(d.site, d.program, inst) + "</tr>\n";
    if (d.other)  // a race's other access, on a row of its own under the first
      s += "<tr class=\"defect-other\"><td></td><td>other access</td><td></td>" + site_cells(*d.other, d.program, inst) + "</tr>\n";
  }
  s += "</table>\n";
}

// The float hazard search's findings and the precision changes on one side only: beside the
// verdict, never part of it.
void hazards_section(std::string& s, const check::CheckResult& r, const instance::Instance& inst) {
  const check::HazardReport& h = r.float_hazards;
  s += "<h2>Float hazards (" + std::to_string(h.hazards.size()) + ")</h2>\n<p id=\"hazard-summary\">" + esc(h.summary) + "</p>\n";
  if (!h.hazards.empty()) {
    s += "<table id=\"hazards\"><tr><th>kind</th><th>program</th><th>cell</th><th>what happens</th><th>input</th></tr>\n";
    for (const auto& z : h.hazards) {
      std::string input;
      for (size_t i = 0; i < z.values.size() && i < 8; ++i) input += (i ? ", " : "") + z.values[i].name + " = " + rational_text(z.values[i].value);
      if (z.values.size() > 8) input += ", ... (" + std::to_string(z.values.size()) + " values in the JSON report)";
      s += "<tr class=\"hazard\"><td>" + esc(z.kind) + "</td><td>" + std::string(1, z.program) + "</td><td><code>" + esc(z.intermediate ? "(intermediate)" : z.cell) + "</code></td><td>" +
           esc(z.message) + "</td><td><code>" + esc(input) + "</code></td></tr>\n";
    }
    s += "</table>\n";
  }
  if (h.precision_changes.empty()) return;
  s += "<h2>Precision changes on one side only (" + std::to_string(h.precision_changes.size()) + ")</h2>\n";
  s += "<table id=\"precision-changes\"><tr><th>program</th><th>kind</th><th>form</th><th>PTX</th><th>source</th></tr>\n";
  for (const auto& c : h.precision_changes) {
    exec::Site site;
    site.launch = c.launch;
    site.ptx_line = c.ptx_line;
    site.source = c.source;
    site.text = c.instruction;
    std::string ptx = launch_ptx_path(inst, c.program, c.launch);
    s += "<tr class=\"precision-change\"><td>" + std::string(1, c.program) + "</td><td>" + esc(c.kind) + "</td><td><code>" + esc(c.what) + "</code>" +
         (c.more ? "<br>and " + std::to_string(c.more) + " more" : "") + "</td><td><code>" + esc(ptx) +
         (c.ptx_line ? ":" + std::to_string(c.ptx_line) : "") + "</code><pre>" + esc(c.instruction) + "</pre></td>" + source_cell(site, c.program, inst) +
         "</tr>\n";
  }
  s += "</table>\n";
}

void programs_section(std::string& s, const instance::Instance& inst) {
  s += "<h2>Programs</h2>\n<table id=\"programs\"><tr><th>program</th><th>entry</th><th>grid</th><th>block</th><th>PTX</th></tr>\n";
  for (char p : {'a', 'b'})
    for (const auto& l : (p == 'a' ? inst.a : inst.b).launches) {
      uint32_t line = entry_line(l.ptx, l.entry);
      s += "<tr><td>" + std::string(1, p) + "</td><td><code>" + esc(l.entry) + "</code></td><td>" + dims_text(l.grid) + "</td><td>" +
           dims_text(l.block) + "</td><td><code>" + esc(l.ptx) + (line ? ":" + std::to_string(line) : "") + "</code></td></tr>\n";
    }
  s += "</table>\n";
}

}  // namespace

std::string html(const check::CheckResult& r, const instance::Instance& inst, const std::optional<check::Explanation>& witness) {
  std::string verdict(check::verdict_name(r.verdict));
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>racer: " + esc(r.name) + " " + verdict +
                  "</title><style>" + kStyle + "</style></head><body>\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f s", r.seconds);
  s += "<h1>" + esc(r.name) + "</h1>\n<p><span class=\"verdict v-" + verdict + "\" id=\"verdict\">" + verdict + "</span> " + secs +
       ", racer " + std::string(racer_version()) + ", " + esc(inst.source_path) + "</p>\n";
  if (!inst.about.empty()) s += "<p>" + esc(inst.about) + "</p>\n";
  if (!r.reason.empty()) s += "<p id=\"reason\">reason: " + esc(r.reason) + "</p>\n";
  if (!r.self_check.empty()) s += "<p>" + esc(r.self_check) + "</p>\n";
  outputs_section(s, r);
  for (size_t i = 0; i < r.outputs.size(); ++i) cell_map(s, r.outputs[i], i, r, inst);
  for (const auto& u : r.unknown_cells) s += "<p class=\"unknown-cell\">unknown " + esc(u) + "</p>\n";
  witness_section(s, r, witness);
  defects_section(s, r, inst);
  for (const auto& n : r.notes)
    s += "<p class=\"note\">note: " + std::string(1, n.program) + ": " + esc(n.message) + " at PTX line " + std::to_string(n.site.ptx_line) +
         (n.site.source.empty() ? "" : " (" + esc(n.site.source) + ")") + "</p>\n";
  hazards_section(s, r, inst);
  programs_section(s, inst);
  for (const auto& g : r.recognized) s += "<p class=\"recognized\">recognized " + esc(g) + "</p>\n";
  return s + "</body></html>\n";
}

}  // namespace racer::report
