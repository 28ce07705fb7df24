#pragma once
// Rendering a check result for people (text) and programs (JSON), and the exit code.
#include <string>

#include <nlohmann/json.hpp>

#include "check/result.hpp"
#include "instance/instance.hpp"

namespace racer::report {

std::string text(const check::CheckResult& r);
nlohmann::json json(const check::CheckResult& r);
// The process exit code of a check (racer::ExitCode): Equivalent only without defects; any
// defect makes it Inequivalent; a refusal is BadInput.
int exit_code(const check::CheckResult& r);
// A witness file: the counterexample's input values, enough to replay both programs.
nlohmann::json witness_json(const check::CheckResult& r, const std::string& instance_path);

// The same with the whole instance under "replay" (instance_to_json: PTX text, entry
// parameter types, tensors with strides), so both programs can run where the instance's files
// are not: on a GPU machine through python/racer/gpu_replay.py, or for an instance written in
// Python, whose .py file cannot be loaded as TOML.
nlohmann::json witness_json(const check::CheckResult& r, const std::string& instance_path, const instance::Instance& inst);

struct WitnessFile {
  std::string instance;  // path of the checking instance
  std::string cell;
  std::vector<check::WitnessValue> values;
  nlohmann::json replay;  // the embedded instance, null in witnesses without one
};
// The instance a witness is about: the embedded one when present, else the file it names
// (relative to the working directory, or else to the witness file's directory).
instance::Instance witness_instance(const WitnessFile& w, const std::string& witness_path);
// Reads a witness file; throws racer::Error(BadInput) naming the file and what is wrong.
WitnessFile read_witness(const std::string& path);

// One input value of a witness or a hazard, as witness files hold it.
nlohmann::json witness_value_json(const check::WitnessValue& v);

std::string rational_text(const mpq_class& q);  // "3/4", "-2"
double rational_double(const mpq_class& q);

}  // namespace racer::report
