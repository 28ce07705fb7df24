// racer check CASE.toml
#include <filesystem>
#include <fstream>
#include <iostream>

#include "check/check.hpp"
#include "check/explain.hpp"
#include "frontend/reference_trace.hpp"
#include "instance/load.hpp"
#include "report/hazards.hpp"
#include "report/html.hpp"
#include "report/report.hpp"
#include "report/sarif.hpp"
#include "support/error.hpp"
#include "tools/racer/commands.hpp"
#include "tools/racer/options.hpp"
#include "tools/racer/check_python.hpp"
#include "tools/racer/progress_line.hpp"

namespace racer::cli {
namespace {

struct CheckArgs {
  std::string path;
  bool json = false, quiet = false;
  std::string witness, sarif, html, hazard_witness;
  double seconds = 60;
  size_t memory_mb = 4096;
  unsigned self_check_points = 2;
  bool all_cells = false;
  bool no_shape_reduction = false;
  bool float_hazards = false, no_float_hazards = false, fail_on_hazard = false;
};

// Inputs the float hazard search runs at: a few by default, more with --float-hazards.
constexpr unsigned kDefaultHazardPoints = 3, kThoroughHazardPoints = 24;

check::CheckOptions options_from(const CheckArgs& a) {
  check::CheckOptions o;
  o.limits.max_seconds = a.seconds;
  o.limits.max_memory_mb = a.memory_mb;
  o.self_check_points = a.self_check_points;
  o.all_cells = a.all_cells;
  o.shape_reduction = !a.no_shape_reduction;
  o.hazard_points = a.no_float_hazards ? 0 : a.float_hazards ? kThoroughHazardPoints : kDefaultHazardPoints;
  o.fail_on_hazard = a.fail_on_hazard;
  if (a.float_hazards) o.hazard_instruction_budget = 0;  // searching harder: every input runs
  return o;
}

void write_file(const std::string& path, const char* what, const std::string& text) {
  std::ofstream out(path);
  if (!out || !(out << text)) throw Error(ExitCode::BadInput, path + ": cannot write the " + what);
}

// --sarif and --html for one checked instance (of several in a .py file: named after it).
void write_reports(const CheckArgs& a, const instance::Instance& inst, const check::CheckResult& r, bool several) {
  if (!a.sarif.empty())
    write_file(per_instance_path(a.sarif, inst.name, several), "SARIF report", report::sarif(r, inst).dump(2) + "\n");
  if (!a.html.empty()) {
    std::optional<check::Explanation> x;
    if (r.counterexample) x = check::explain_cell(inst, r.counterexample->cell, options_from(a));
    write_file(per_instance_path(a.html, inst.name, several), "HTML report", report::html(r, inst, x));
  }
}

int run_check(const CheckArgs& a) {
  ProgressLine progress(!a.quiet);
  check::CheckOptions options = options_from(a);
  options.progress = &progress;
  if (std::filesystem::path(a.path).extension() == ".py")
    return check_python_file(a.path, options, a.json, a.witness,
                             [&](const instance::Instance& inst, const check::CheckResult& r, bool several) {
                               write_reports(a, inst, r, several);
                             });
  instance::Instance inst = instance::load_instance(a.path);
  frontend::trace_reference(inst);  // [b] reference = "refs.py:fn": program b traced from Python
  check::CheckResult r = check::check_instance(inst, options);
  if (a.json) std::cout << report::json(r).dump(2) << "\n";
  else std::cout << report::text(r);
  if (!a.witness.empty()) {
    if (!r.counterexample) {
      std::cerr << "no witness to save: the verdict is " << check::verdict_name(r.verdict) << "\n";
    } else {
      write_file(a.witness, "witness file", report::witness_json(r, a.path, inst).dump(2) + "\n");
    }
  }
  if (!a.hazard_witness.empty()) {
    if (r.float_hazards.hazards.empty()) std::cerr << "no hazard witness to save: " << r.float_hazards.summary << "\n";
    else write_file(a.hazard_witness, "hazard witness file", report::hazard_witness_json(r, r.float_hazards.hazards.front(), a.path, inst).dump(2) + "\n");
  }
  write_reports(a, inst, r, false);
  return report::exit_code(r);
}

}  // namespace

void add_check_commands(CLI::App& app) {
  static CheckArgs args;
  auto* c = app.add_subcommand("check", "Decide whether program A and program B of an instance compute the same function");
  c->add_option("case", args.path, "checking instance (.toml, or .py written with the Python API)")
      ->required()
      ->check(input_file());
  c->add_flag("--json", args.json, "write the result as JSON");
  c->add_flag("--quiet", args.quiet, "no progress line on the terminal (it shows only on a terminal, after 2 s)");
  c->add_option("--witness", args.witness, "save the witness of an inequivalence to this file");
  c->add_option("--sarif", args.sarif, "also write the defects and refuted outputs as a SARIF 2.1.0 log to this file");
  c->add_option("--html", args.html, "also write an HTML report (cell map, witness, expressions, defects) to this file");
  c->add_option("--time-limit", args.seconds, "seconds before the case ends Unknown (default 60)")->check(non_negative());
  c->add_option("--memory-limit", args.memory_mb, "MiB of resident memory before the case ends Unknown (default 4096)")
      ->check(non_negative());
  c->add_option("--self-check-points", args.self_check_points,
                "points at which the symbolic run is checked against the bit-exact emulation (default 2; 0 skips)")
      ->check(non_negative());
  c->add_flag("--all-cells", args.all_cells,
              "decide every cell of an output after one is refuted (by default one witness per output is enough)");
  c->add_flag("--no-shape-reduction", args.no_shape_reduction,
              "decide every cell on its own, not once per class of cells equal up to a renaming of inputs "
              "(to measure what the reuse saves)");
  auto* harder = c->add_flag("--float-hazards", args.float_hazards,
              "search harder for float hazards: both programs on the emulator at " + std::to_string(kThoroughHazardPoints) +
                  " inputs chosen to provoke the formats (default " + std::to_string(kDefaultHazardPoints) + ")");
  c->add_flag("--no-float-hazards", args.no_float_hazards, "skip the float hazard search (precision changes are still listed)")
      ->excludes(harder);
  c->add_flag("--fail-on-hazard", args.fail_on_hazard,
              "exit 1 when a float hazard is found and the check would otherwise pass (0 or 5); without it hazards never change the exit code");
  c->add_option("--hazard-witness", args.hazard_witness, "save the first float hazard's input and cell as a witness file for racer replay");
  c->footer(
      "Float hazards (NaN, overflow, underflow to zero, precision loss in one program and not the other) are diagnostics beside "
      "the verdict: they never change it, and change the exit code only with --fail-on-hazard.");
  on_selected(c, [] { return run_check(args); });

}

}  // namespace racer::cli
