#include "tools/racer/check_python.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "frontend/process.hpp"
#include "frontend/python_env.hpp"
#include "instance/json.hpp"
#include "report/report.hpp"
#include "support/error.hpp"

namespace racer::cli {
namespace {

namespace fs = std::filesystem;

// The descriptions the Python side wrote: [{"instance": {...}} | {"error": "...", "code": N}, ...].
// Returns nullopt, having said why, when it wrote none (it names the file's own problem itself).
std::optional<nlohmann::json> describe(const std::string& path, int& status) {
  frontend::export_python_environment();
  std::string python = frontend::python_interpreter();
  fs::path out = fs::temp_directory_path() / ("racer-describe-" + std::to_string(::getpid()) + ".json");
  std::cout.flush();
  status = frontend::run_process({python, "-m", "racer.cli", "describe", path, "--out", out.string()}, "", "");
  if (status == 127) {
    std::cerr << "racer: cannot run " << python << " (set RACER_PYTHON to a Python 3 interpreter)\n";
    status = static_cast<int>(ExitCode::BadInput);
  }
  std::string text = frontend::read_file(out.string());
  std::error_code ec;
  fs::remove(out, ec);
  if (status != 0) return std::nullopt;
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ExitCode::Internal, std::string("the Python side described ") + path + " unreadably: " + e.what());
  }
}

struct Checked {
  instance::Instance inst;
  check::CheckResult result;
};

}  // namespace

instance::Instance python_instance(const std::string& path, const std::string& name) {
  int status = 0;
  std::optional<nlohmann::json> entries = describe(path, status);
  if (!entries) throw Error(static_cast<ExitCode>(status), path + ": its instances could not be described");
  std::vector<instance::Instance> found;
  std::string names;
  for (const nlohmann::json& entry : *entries) {
    if (entry.contains("error")) throw Error(static_cast<ExitCode>(entry.value("code", 3)), entry["error"].get<std::string>());
    found.push_back(instance::instance_from_json(entry.at("instance")));
    names += (names.empty() ? "" : ", ") + found.back().name;
  }
  for (instance::Instance& inst : found)
    if (inst.name == name || (name.empty() && found.size() == 1)) return std::move(inst);
  if (name.empty())
    throw Error(ExitCode::BadInput, path + " defines " + std::to_string(found.size()) + " instances (" + names +
                                        "): name one with --instance");
  throw Error(ExitCode::BadInput, path + " defines no instance named '" + name + "' (it defines: " + names + ")");
}

std::string per_instance_path(const std::string& base, const std::string& name, bool several) {
  if (!several) return base;
  std::string ext = fs::path(base).extension().string();
  return base.substr(0, base.size() - ext.size()) + "." + name + (ext.empty() ? ".json" : ext);
}

int check_python_file(const std::string& path, const check::CheckOptions& options, bool json, const std::string& witness,
                      const AlsoReport& also) {
  int status = 0;
  std::optional<nlohmann::json> entries = describe(path, status);
  if (!entries) return status;
  ExitCode worst = ExitCode::Equivalent;
  nlohmann::json reports = nlohmann::json::array();
  std::vector<Checked> with_witness;
  for (const nlohmann::json& entry : *entries) {
    try {
      if (entry.contains("error")) throw Error(static_cast<ExitCode>(entry.value("code", 3)), entry["error"].get<std::string>());
      Checked c{instance::instance_from_json(entry.at("instance")), {}};
      c.result = check::check_instance(c.inst, options);
      worst = most_severe(worst, static_cast<ExitCode>(report::exit_code(c.result)));
      if (json) reports.push_back(report::json(c.result));
      else std::cout << report::text(c.result) << std::flush;
      if (also) also(c.inst, c.result, entries->size() > 1);
      if (c.result.counterexample) with_witness.push_back(std::move(c));
    } catch (const Error& e) {
      std::cerr << e.what() << "\n";
      worst = most_severe(worst, e.code());
    }
  }
  if (json) std::cout << (entries->size() == 1 && !reports.empty() ? reports[0] : reports).dump(2) << "\n";
  if (!witness.empty()) {
    if (with_witness.empty()) std::cerr << "no witness to save: no instance is inequivalent\n";
    for (const Checked& c : with_witness) {
      std::string file = per_instance_path(witness, c.inst.name, with_witness.size() > 1);
      std::ofstream out(file);
      if (!out) throw Error(ExitCode::BadInput, file + ": cannot write the witness file");
      out << report::witness_json(c.result, c.inst.source_path, c.inst).dump(2) << "\n";
    }
  }
  return static_cast<int>(worst);
}

}  // namespace racer::cli
