// racer check CASE.toml
#include <filesystem>
#include <fstream>
#include <iostream>

#include "check/check.hpp"
#include "check/explain.hpp"
#include "instance/load.hpp"
#include "report/html.hpp"
#include "report/report.hpp"
#include "report/sarif.hpp"
#include "support/error.hpp"
#include "tools/racer/commands.hpp"
#include "tools/racer/options.hpp"
#include "tools/racer/python_bridge.hpp"

namespace racer::cli {
namespace {

struct CheckArgs {
  std::string path;
  bool json = false;
  std::string witness, sarif, html;
  double seconds = 60;
  size_t memory_mb = 4096;
  unsigned self_check_points = 2;
};

check::CheckOptions options_from(const CheckArgs& a) {
  check::CheckOptions o;
  o.limits.max_seconds = a.seconds;
  o.limits.max_memory_mb = a.memory_mb;
  o.self_check_points = a.self_check_points;
  return o;
}

// An instance written with the Python API: the Python side builds it into the same Instance
// and prints the same report, with the same exit code.
int run_python_check(const CheckArgs& a) {
  std::vector<std::string> args = {"-m", "racer.cli", "check", a.path, "--time-limit", std::to_string(a.seconds),
                                   "--memory-limit", std::to_string(a.memory_mb), "--self-check-points",
                                   std::to_string(a.self_check_points)};
  if (a.json) args.push_back("--json");
  if (!a.witness.empty()) args.insert(args.end(), {"--witness", a.witness});
  if (!a.sarif.empty()) args.insert(args.end(), {"--sarif", a.sarif});
  if (!a.html.empty()) args.insert(args.end(), {"--html", a.html});
  return exec_python(args);
}

void write_file(const std::string& path, const char* what, const std::string& text) {
  std::ofstream out(path);
  if (!out || !(out << text)) throw Error(ExitCode::BadInput, path + ": cannot write the " + what);
}

int run_check(const CheckArgs& a) {
  if (std::filesystem::path(a.path).extension() == ".py") return run_python_check(a);
  instance::Instance inst = instance::load_instance(a.path);
  check::CheckResult r = check::check_instance(inst, options_from(a));
  if (a.json) std::cout << report::json(r).dump(2) << "\n";
  else std::cout << report::text(r);
  if (!a.witness.empty()) {
    if (!r.counterexample) {
      std::cerr << "no witness to save: the verdict is " << check::verdict_name(r.verdict) << "\n";
    } else {
      write_file(a.witness, "witness file", report::witness_json(r, a.path, inst).dump(2) + "\n");
    }
  }
  if (!a.sarif.empty()) write_file(a.sarif, "SARIF report", report::sarif(r, inst).dump(2) + "\n");
  if (!a.html.empty()) {
    std::optional<check::Explanation> x;
    if (r.counterexample) x = check::explain_cell(inst, r.counterexample->cell, options_from(a));
    write_file(a.html, "HTML report", report::html(r, inst, x));
  }
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
  c->add_option("--witness", args.witness, "save the witness of an inequivalence to this file");
  c->add_option("--sarif", args.sarif, "also write the defects and refuted outputs as a SARIF 2.1.0 log to this file");
  c->add_option("--html", args.html, "also write an HTML report (cell map, witness, expressions, defects) to this file");
  c->add_option("--time-limit", args.seconds, "seconds before the case ends Unknown (default 60)")->check(non_negative());
  c->add_option("--memory-limit", args.memory_mb, "MiB of resident memory before the case ends Unknown (default 4096)")
      ->check(non_negative());
  c->add_option("--self-check-points", args.self_check_points,
                "points at which the symbolic run is checked against the bit-exact emulation (default 2; 0 skips)")
      ->check(non_negative());
  on_selected(c, [] { return run_check(args); });

}

}  // namespace racer::cli
