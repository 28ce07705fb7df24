// racer check CASE.toml   and   racer corpus DIR
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "check/check.hpp"
#include "check/expect.hpp"
#include "frontend/reference_trace.hpp"
#include "instance/load.hpp"
#include "report/report.hpp"
#include "support/error.hpp"
#include "tools/racer/check_python.hpp"
#include "tools/racer/commands.hpp"

namespace racer::cli {
namespace {

struct CheckArgs {
  std::string path;
  bool json = false;
  std::string witness;
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

int run_check(const CheckArgs& a) {
  if (std::filesystem::path(a.path).extension() == ".py") return check_python_file(a.path, options_from(a), a.json, a.witness);
  instance::Instance inst = instance::load_instance(a.path);
  frontend::trace_reference(inst);  // [b] reference = "refs.py:fn": program b traced from Python
  check::CheckResult r = check::check_instance(inst, options_from(a));
  if (a.json) std::cout << report::json(r).dump(2) << "\n";
  else std::cout << report::text(r);
  if (!a.witness.empty()) {
    if (!r.counterexample) {
      std::cerr << "no witness to save: the verdict is " << check::verdict_name(r.verdict) << "\n";
    } else {
      std::ofstream out(a.witness);
      if (!out) throw Error(ExitCode::BadInput, a.witness + ": cannot write the witness file");
      out << report::witness_json(r, a.path, inst).dump(2) << "\n";
    }
  }
  return report::exit_code(r);
}

int run_corpus(const std::string& dir, double seconds, bool json) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  if (ec) throw Error(ExitCode::BadInput, dir + ": cannot read directory: " + ec.message());
  std::sort(files.begin(), files.end());
  size_t passed = 0, failed = 0;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& f : files) {
    std::string name = f.stem().string(), expected = "?", got, why, replay;
    double secs = 0;
    try {
      instance::Instance inst = instance::load_instance(f.string());
      frontend::trace_reference(inst);
      if (inst.expect) expected = std::string(instance::verdict_name(inst.expect->verdict));
      check::CheckOptions o;
      o.limits.max_seconds = seconds;
      check::CheckResult r = check::check_instance(inst, o);
      got = std::string(check::verdict_name(r.verdict));
      secs = r.seconds;
      why = check::expectation_mismatch(inst, r);
      if (r.counterexample) replay = r.counterexample->replay_kind;
    } catch (const Error& e) {
      got = "error";
      why = e.what();
      if (auto nl = why.find('\n'); nl != std::string::npos) why = why.substr(0, nl);
    }
    bool ok = why.empty();
    (ok ? passed : failed)++;
    char line[288];
    std::snprintf(line, sizeof line, "%-44s %-20s %-20s %-9s %7.2f %s", name.c_str(), expected.c_str(), got.c_str(),
                  replay.c_str(), secs, ok ? "PASS" : "FAIL");
    std::cout << line << (ok ? "" : "  " + why.substr(0, why.find('\n'))) << "\n" << std::flush;
    rows.push_back({{"case", name}, {"expected", expected}, {"got", got}, {"replay", replay}, {"seconds", secs}, {"pass", ok}, {"why", why}});
  }
  if (json) std::cerr << rows.dump(2) << "\n";
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace

void add_check_commands(CLI::App& app) {
  static CheckArgs args;
  auto* c = app.add_subcommand("check", "Decide whether program A and program B of an instance compute the same function");
  c->add_option("case", args.path, "checking instance (.toml, or .py written with the Python API)")->required();
  c->add_flag("--json", args.json, "write the result as JSON");
  c->add_option("--witness", args.witness, "save the witness of an inequivalence to this file");
  c->add_option("--time-limit", args.seconds, "seconds before the case ends Unknown (default 60)");
  c->add_option("--memory-limit", args.memory_mb, "MiB of resident memory before the case ends Unknown (default 4096)");
  c->add_option("--self-check-points", args.self_check_points,
                "points at which the symbolic run is checked against the bit-exact emulation (default 2; 0 skips)");
  on_selected(c, [] { return run_check(args); });

  static std::string dir;
  static double seconds = 60;
  static bool json = false;
  auto* k = app.add_subcommand("corpus", "Run every instance in a directory against its [expect]; print a scoreboard");
  k->add_option("dir", dir, "directory of .toml instances")->required();
  k->add_option("--time-limit", seconds, "seconds per case (default 60)");
  k->add_flag("--json", json, "also write the rows as JSON to stderr");
  on_selected(k, [] { return run_corpus(dir, seconds, json); });
}

}  // namespace racer::cli
