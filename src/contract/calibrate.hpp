#pragma once
// Three-state calibration: every contract ships a baseline (fails the visible tests), a bad
// implementation (passes the visible tests, violates the contract) and a good one (passes
// both). The measurement must separate them; a contract whose protocol does not is
// mis-specified.
#include <string>
#include <vector>

#include "contract/measure.hpp"

namespace racer::contract {

struct StateResult {
  std::string impl;
  Verdict visible = Verdict::UnderSpecified, contract = Verdict::UnderSpecified;
  double worst_ratio = 0;  // worst residual / bound over the contract measurement
  std::string signature;   // the first violation observed by the contract measurement
  std::string visible_signature;
};

struct Calibration {
  std::string contract;
  std::string file;
  StateResult baseline, bad, good;
  bool separated = false;
  std::string problem;  // why not, when not
  std::vector<CheckReport> reports;  // all six runs, for trace records
};

// Calibrates every contract of the file. Throws racer::Error(BadInput) for a contract that
// lacks one of the three roles.
std::vector<Calibration> calibrate(const LoadedContracts& f, const std::string& file_label, Backend& backend, const Env& overrides = {});

// The calibration table as Markdown (one row per contract), with the backend's profile and
// the command that produced it.
std::string calibration_markdown(const std::vector<Calibration>& rows, const Backend& backend, const std::string& command);

}  // namespace racer::contract
