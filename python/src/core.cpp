// racer._core: the checker as seen from Python. Instances cross as JSON text (the format of
// instance/json.hpp) and results come back as the report layer renders them, so a
// check from Python is the very same check as from a TOML file.
#include <optional>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "check/check.hpp"
#include "check/expect.hpp"
#include "check/explain.hpp"
#include "check/replay.hpp"
#include "errors.hpp"
#include "instance/json.hpp"
#include "instance/load.hpp"
#include "frontend/reference_trace.hpp"
#include "report/html.hpp"
#include "report/report.hpp"
#include "report/sarif.hpp"
#include "report/scoreboard.hpp"
#include "support/error.hpp"

namespace py = pybind11;
using namespace racer;

namespace {

// hazard_points: inputs of the float hazard search; -1 keeps the default (3, fewer for big
// kernels), 0 skips it, N runs N inputs whatever the kernel's size (as --float-hazards).
check::CheckOptions options(double seconds, size_t memory_mb, unsigned self_check_points = 2, bool all_cells = false, int hazard_points = -1) {
  check::CheckOptions o;
  o.all_cells = all_cells;
  if (hazard_points >= 0) {
    o.hazard_points = static_cast<unsigned>(hazard_points);
    o.hazard_instruction_budget = 0;
  }
  o.limits.max_seconds = seconds;
  o.limits.max_memory_mb = memory_mb;
  o.self_check_points = self_check_points;
  return o;
}

// Hands the check's progress to a Python callable (a dict per update, at most ten a second);
// an exception it raises stops the updates and is raised again once the check has returned.
class CallbackProgress : public check::ProgressObserver {
 public:
  explicit CallbackProgress(py::object callback) : callback_(std::move(callback)) {}
  void update(const check::Progress& p) override {
    py::gil_scoped_acquire locked;
    if (error_) return;
    py::dict d;
    d["phase"] = std::string(check::phase_name(p.phase));
    d["program"] = p.program ? py::object(py::str(std::string(1, p.program))) : py::none();
    d["thread_instructions"] = p.thread_instructions;
    d["cells_decided"] = p.cells_decided;
    d["cells_total"] = p.cells_total;
    try {
      callback_(d);
    } catch (py::error_already_set& e) {
      error_ = std::move(e);
    }
  }
  void raise_if_failed() {
    if (error_) throw std::move(*error_);
  }

 private:
  py::object callback_;
  std::optional<py::error_already_set> error_;
};

py::dict checked(const instance::Instance& inst, double seconds, size_t memory_mb, unsigned self_check_points, bool html = false,
                 bool all_cells = false, int hazard_points = -1, py::object progress = py::none()) {
  check::CheckResult r;
  std::optional<CallbackProgress> observer;
  check::CheckOptions o = options(seconds, memory_mb, self_check_points, all_cells, hazard_points);
  if (!progress.is_none()) o.progress = &observer.emplace(progress);
  {
    py::gil_scoped_release unlocked;
    r = check::check_instance(inst, o);
  }
  if (observer) observer->raise_if_failed();
  py::dict out;
  out["text"] = report::text(r);
  out["json"] = report::json(r).dump();
  out["exit_code"] = report::exit_code(r);
  out["witness"] = r.counterexample ? report::witness_json(r, inst.source_path, inst).dump() : std::string();
  // What `racer corpus` compares: the instance's [expect] (None without one) and what differs.
  out["expected"] = inst.expect ? py::object(py::str(std::string(instance::verdict_name(inst.expect->verdict)))) : py::none();
  out["mismatch"] = inst.expect ? check::expectation_mismatch(inst, r) : std::string();
  out["sarif"] = report::sarif(r, inst).dump(2);
  if (html) {  // the page explains the witness cell: both programs run once more
    std::optional<check::Explanation> x;
    {
      py::gil_scoped_release unlocked;
      if (r.counterexample) x = check::explain_cell(inst, r.counterexample->cell, options(seconds, memory_mb));
    }
    out["html"] = report::html(r, inst, x);
  }
  return out;
}

py::dict check_json(const std::string& description, double seconds, size_t memory_mb, unsigned self_check_points, bool html,
                    bool all_cells, int hazard_points, py::object progress) {
  return checked(instance::instance_from_json(nlohmann::json::parse(description)), seconds, memory_mb, self_check_points, html,
                 all_cells, hazard_points, std::move(progress));
}

// A TOML instance file, checked as `racer check FILE.toml` does.
py::dict check_file(const std::string& path, double seconds, size_t memory_mb, unsigned self_check_points, bool html,
                    bool all_cells, int hazard_points, py::object progress) {
  instance::Instance inst = instance::load_instance(path);
  frontend::trace_reference(inst);
  return checked(inst, seconds, memory_mb, self_check_points, html, all_cells, hazard_points, std::move(progress));
}

py::dict explain_json(const std::string& description, const std::string& cell, double seconds) {
  instance::Instance inst = instance::instance_from_json(nlohmann::json::parse(description));
  check::Explanation x;
  {
    py::gil_scoped_release unlocked;
    x = check::explain_cell(inst, cell, options(seconds, 4096));
  }
  py::dict out;
  out["cell"] = x.cell;
  out["expr_a"] = x.expr_a;
  out["expr_b"] = x.expr_b;
  out["difference"] = x.difference;
  out["status"] = x.status;
  out["step"] = x.step;
  out["reason"] = x.reason;
  out["stopped"] = x.stopped;
  out["recognized"] = x.recognized;
  return out;
}

// The CPU replay (bit-exact IEEE emulation) of a witness file.
py::dict replay_file(const std::string& path) {
  report::WitnessFile w = report::read_witness(path);
  instance::Instance inst = report::witness_instance(w, path);
  check::ReplayResult r = check::replay(inst, w.cell, w.values);
  py::list cells;
  for (const auto& c : r.differing) cells.append(py::make_tuple(c.cell, c.a, c.b));
  py::dict out;
  out["refusal"] = r.refusal;
  out["differing_count"] = r.differing_count;
  out["compared"] = r.compared;
  out["differing"] = cells;
  if (r.at_witness) out["at_witness"] = py::make_tuple(r.at_witness->cell, r.at_witness->a, r.at_witness->b);
  return out;
}

// One instance file scored against its [expect]: the JSON row and the line `racer corpus` prints.
py::tuple score_file(const std::string& path, double seconds) {
  report::ScoreRow row;
  {
    py::gil_scoped_release unlocked;
    row = report::score_instance(path, seconds, frontend::trace_reference);
  }
  return py::make_tuple(report::row_json(row).dump(), report::scoreboard_line(row));
}

std::string junit_xml(const std::vector<std::string>& rows, const std::string& suite) {
  std::vector<report::ScoreRow> parsed;
  for (const auto& r : rows) parsed.push_back(report::row_from_json(nlohmann::json::parse(r)));
  return report::junit(parsed, suite);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "Racer's checker: checking, explaining and replaying instances (racer._frontend has the front ends)";
  python::translate_errors(m, "CoreError");
  m.def("check", &check_json, py::arg("description"), py::arg("time_limit") = 60.0, py::arg("memory_limit_mb") = 4096,
        py::arg("self_check_points") = 2, py::arg("html") = false, py::arg("all_cells") = false, py::arg("hazard_points") = -1,
        py::arg("progress") = py::none(),
        "Check an instance given as JSON; returns text, json, exit_code, witness (JSON text, '' when none), sarif, "
        "and with html=True the HTML report. hazard_points: inputs of the float hazard search (-1: the default, 0: off). "
        "progress: a callable given a dict (phase, program, thread_instructions, cells_decided, cells_total) as the check goes");
  m.def("check_file", &check_file, py::arg("path"), py::arg("time_limit") = 60.0, py::arg("memory_limit_mb") = 4096,
        py::arg("self_check_points") = 2, py::arg("html") = false, py::arg("all_cells") = false, py::arg("hazard_points") = -1,
        py::arg("progress") = py::none(),
        "Check a TOML instance file; as check, plus expected ([expect]'s verdict or None) and mismatch");
  m.def("score_file", &score_file, py::arg("path"), py::arg("time_limit") = 60.0,
        "Score a TOML instance file against its [expect] as racer corpus does: (row as JSON text, scoreboard line)");
  m.def(
      "scoreboard_line", [](const std::string& row) { return report::scoreboard_line(report::row_from_json(nlohmann::json::parse(row))); },
      py::arg("row"), "The line racer corpus prints for a row (JSON text)");
  m.def("junit", &junit_xml, py::arg("rows"), py::arg("suite"), "JUnit XML of scoreboard rows (JSON texts)");
  m.def("explain", &explain_json, py::arg("description"), py::arg("cell"), py::arg("time_limit") = 60.0);
  m.def("replay", &replay_file, py::arg("witness_path"));
}
