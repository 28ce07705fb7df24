// racer contract lint|check|calibrate|retest: kernel contracts.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "contract/calibrate.hpp"
#include "contract/compare.hpp"
#include "contract/lang_lint.hpp"
#include "contract/measure.hpp"
#include "contract/retest.hpp"
#include "contract/trace_records.hpp"
#include "support/error.hpp"
#include "tools/racer/commands.hpp"
#include "tools/racer/options.hpp"

namespace racer::cli {
namespace {

// Every file is linted, also after one with errors: all of them, located, in one pass.
int run_lint(const std::vector<std::string>& paths) {
  int bad_files = 0;
  for (const std::string& p : paths) {
    try {
      contract::LoadedContracts c = contract::load_contracts(p);
      for (const auto& k : c.file.contracts)
        std::cout << p << ": " << k.id.text << ": ok (" << k.impls.size() << " implementation" << (k.impls.size() == 1 ? "" : "s") << ")\n";
    } catch (const Error& e) {
      if (e.code() != ExitCode::BadInput) throw;
      std::cout.flush();
      std::cerr << e.what() << "\n";
      ++bad_files;
    }
  }
  if (bad_files) std::cerr << bad_files << " of " << paths.size() << " file" << (paths.size() == 1 ? "" : "s") << " with errors\n";
  return bad_files ? static_cast<int>(ExitCode::BadInput) : 0;
}

std::unique_ptr<contract::Backend> backend_named(const std::string& name) {
  if (name == "cpu") return contract::cpu_backend();
  std::string why;
  auto b = contract::gpu_backend(why);
  if (!b) throw Error(ExitCode::BadInput, "no GPU backend: " + why);
  return b;
}

void print_report(const contract::CheckReport& r) {
  std::cout << r.contract << " / " << r.impl << (r.role.empty() ? "" : " (" + r.role + ")") << " on " << r.backend << ": "
            << contract::verdict_name(r.verdict) << "\n";
  std::cout << "  " << r.measurements.size() << " measurements, " << r.runs << " runs, " << r.cells_judged << " cells judged";
  double worst = 0;
  for (const auto& m : r.measurements) worst = std::max(worst, m.residual);
  if (r.cells_judged) std::cout << ", worst residual/bound " << contract::show_double(worst);
  std::cout << "\n";
  if (!r.refusal.empty()) std::cout << "  refused: " << r.refusal << "\n";
  for (const auto& f : r.findings) std::cout << "  violation [" << f.config << ", seed " << f.seed << "]: " << f.observed << "\n";
  if (r.violations > r.findings.size()) std::cout << "  (" << r.violations << " violating cells in all)\n";
  for (const auto& u : r.unspecified) std::cout << "  under-specified: " << u << "\n";
}

// --set NAME=VALUE: a parameter value for this run (every contract that has the parameter).
contract::Env parse_sets(const std::vector<std::string>& sets) {
  contract::Env env;
  for (const std::string& s : sets) {
    size_t eq = s.find('=');
    char* end = nullptr;
    double v = eq == std::string::npos ? 0 : std::strtod(s.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq == 0 || !end || *end != 0 || end == s.c_str() + eq + 1)
      throw Error(ExitCode::BadInput, "--set takes NAME=NUMBER, not '" + s + "'");
    env[s.substr(0, eq)] = v;
  }
  return env;
}

// The overrides a contract has parameters for (others are for other contracts of the run).
contract::Env only_known(const contract::Contract& c, const contract::Env& over) {
  contract::Env out;
  for (const auto& [k, v] : over)
    if (c.find_param(k)) out[k] = v;
  return out;
}

struct TraceArgs {
  std::string path, key;
  std::optional<trace::Writer> open() const {
    std::optional<trace::Writer> w;
    if (path.empty()) return w;
    if (key.empty()) throw Error(ExitCode::BadInput, "--trace needs --key (a secret key file from racer trace keygen)");
    w.emplace(path, trace::Signer::load(key));
    return w;
  }
};

int run_check(const std::string& path, const std::string& impl_name, const std::string& backend_name, bool visible, const TraceArgs& ta,
              const std::vector<std::string>& sets) {
  contract::Env over = parse_sets(sets);
  contract::LoadedContracts f = contract::load_contracts(path);
  std::optional<trace::Writer> tw = ta.open();
  auto backend = backend_named(backend_name);
  int worst = 0;
  bool any = false;
  for (const auto& c : f.file.contracts)
    for (const auto& impl : c.impls) {
      if (!impl_name.empty() && impl.name.text != impl_name) continue;
      if (impl_name.empty() && impl.role && impl.role->text == "reference") continue;
      any = true;
      contract::CheckReport r = contract::check_contract(f, c, impl, {visible, backend.get(), only_known(c, over)});
      print_report(r);
      if (tw) contract::append_records(*tw, f, c, impl, r, visible ? "visible" : "measure");
      int code = r.verdict == contract::Verdict::Conforming ? 0 : r.verdict == contract::Verdict::Violation ? 1 : r.verdict == contract::Verdict::UnderSpecified ? 2 : 3;
      worst = std::max(worst, code);
    }
  if (!any) throw Error(ExitCode::BadInput, impl_name.empty() ? path + ": no implementation to check" : path + ": no implementation named '" + impl_name + "'");
  return worst;
}

int run_calibrate(const std::vector<std::string>& paths, const std::string& backend_name, const std::string& markdown, const TraceArgs& ta,
                  const std::vector<std::string>& sets) {
  contract::Env over = parse_sets(sets);
  auto backend = backend_named(backend_name);
  std::optional<trace::Writer> tw = ta.open();
  std::vector<contract::Calibration> rows;
  for (const std::string& p : paths) {
    contract::LoadedContracts f = contract::load_contracts(p);
    for (auto& c : contract::calibrate(f, std::filesystem::path(p).filename().string(), *backend, over)) {
      if (tw)
        for (const auto& r : c.reports)
          for (const auto& k : f.file.contracts)
            if (k.id.text == r.contract)
              if (const auto* impl = k.find_impl(r.impl)) contract::append_records(*tw, f, k, *impl, r, r.visible ? "visible" : "measure");
      std::cout << c.contract << ": baseline visible " << contract::verdict_name(c.baseline.visible) << "; bad visible "
                << contract::verdict_name(c.bad.visible) << ", contract " << contract::verdict_name(c.bad.contract) << "; good visible "
                << contract::verdict_name(c.good.visible) << ", contract " << contract::verdict_name(c.good.contract) << ": "
                << (c.separated ? "separated" : "NOT separated (" + c.problem + ")") << "\n";
      if (!c.bad.signature.empty()) std::cout << "  bad: " << c.bad.signature << "\n";
      rows.push_back(std::move(c));
    }
  }
  std::string command = "racer contract calibrate";
  for (const auto& p : paths) command += " " + p;
  command += " --backend " + backend_name;
  for (const auto& s : sets) command += " --set " + s;
  command += " --markdown FILE";
  std::string table = contract::calibration_markdown(rows, *backend, command);
  if (!markdown.empty()) {
    std::ofstream out(markdown);
    if (!out) throw Error(ExitCode::BadInput, "cannot write " + markdown);
    out << table;
  }
  for (const auto& r : rows)
    if (!r.separated) return 1;
  return 0;
}

int run_retest(const std::vector<std::string>& files, const std::vector<std::string>& changed, bool major) {
  std::vector<std::string> ids;
  for (const std::string& p : files)
    for (const auto& c : contract::load_contracts(p).file.contracts) ids.push_back(c.id.text);
  for (const auto& e : contract::retest_plan(ids, changed, major))
    std::cout << (e.retest ? "retest  " : "skip    ") << e.contract << "  " << e.reason << "\n";
  return 0;
}

}  // namespace

void add_contract_commands(CLI::App& app) {
  auto* c = app.add_subcommand("contract", "Kernel contracts: lint, check, calibrate, retest");
  c->require_subcommand(1);
  static std::vector<std::string> lint_paths;
  auto* lint = c->add_subcommand("lint", "Parse and validate .kc files; every error located (file:line:col)");
  lint->add_option("files", lint_paths, "contract files")->required()->check(input_file());
  on_selected(lint, [] { return run_lint(lint_paths); });

  static std::string check_path, check_impl, check_backend = "cpu";
  static bool check_visible = false;
  auto* chk = c->add_subcommand("check", "Run the measurement protocol: conforming | violation | under-specified (exit 0 | 1 | 2; 3 refused or bad input)");
  chk->add_option("file", check_path, "contract file")->required()->check(input_file());
  chk->add_option("--impl", check_impl, "only this implementation (default: all but reference ones)");
  chk->add_option("--backend", check_backend, "cpu (bit-exact emulation) or gpu (CUDA driver)")->check(CLI::IsMember({"cpu", "gpu"}));
  chk->add_flag("--visible", check_visible, "run the visible smoke tests instead of the measurement protocol");
  static TraceArgs check_trace;
  chk->add_option("--trace", check_trace.path, "append a signed trace record per measurement to this file");
  chk->add_option("--key", check_trace.key, "Ed25519 secret key file for --trace (racer trace keygen)");
  static std::vector<std::string> check_sets;
  chk->add_option("--set", check_sets, "NAME=VALUE: a parameter value for this run (sweeps still apply)");
  on_selected(chk, [] { return run_check(check_path, check_impl, check_backend, check_visible, check_trace, check_sets); });

  static std::vector<std::string> cal_paths;
  static std::string cal_backend = "cpu", cal_markdown;
  auto* cal = c->add_subcommand("calibrate", "Three-state calibration: the measurement must separate baseline, bad and good (exit 1 when it does not)");
  cal->add_option("files", cal_paths, "contract files")->required()->check(input_file());
  cal->add_option("--backend", cal_backend, "cpu or gpu")->check(CLI::IsMember({"cpu", "gpu"}));
  cal->add_option("--markdown", cal_markdown, "write the calibration table (Markdown) to this file");
  static TraceArgs cal_trace;
  cal->add_option("--trace", cal_trace.path, "append a signed trace record per measurement to this file");
  cal->add_option("--key", cal_trace.key, "Ed25519 secret key file for --trace (racer trace keygen)");
  static std::vector<std::string> cal_sets;
  cal->add_option("--set", cal_sets, "NAME=VALUE: a parameter value for this run (sweeps still apply)");
  on_selected(cal, [] { return run_calibrate(cal_paths, cal_backend, cal_markdown, cal_trace, cal_sets); });

  static std::vector<std::string> rt_files, rt_changed;
  static bool rt_major = false;
  auto* rt = c->add_subcommand("retest", "Which contracts a stack upgrade must re-run (the retest policy)");
  rt->add_option("files", rt_files, "contract files")->required()->check(input_file());
  rt->add_option("--changed", rt_changed, "subsystems the release changes: compiler, math_library, mixed_precision, fusion, collectives, scheduler, atomics, driver");
  rt->add_flag("--major", rt_major, "the upgrade is a major version");
  on_selected(rt, [] { return run_retest(rt_files, rt_changed, rt_major); });
}

}  // namespace racer::cli
