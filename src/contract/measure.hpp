#pragma once
// Running a contract's measurement protocol on one implementation: the configurations its
// sweeps span, the samples, injections and repeated runs, the reference oracle, and a verdict:
// conforming, violation (with the observed signature), under-specified (the contract or the
// backend cannot decide), or refused (the kernel cannot be modelled faithfully).
#include <functional>
#include <string>
#include <vector>

#include "contract/backend.hpp"
#include "contract/lang_lint.hpp"

namespace racer::contract {

enum class Verdict : uint8_t { Conforming, Violation, UnderSpecified, Refused };
std::string verdict_name(Verdict v);

struct Finding {
  std::string config;  // the parameter values, "N=4096 BLOCK=256"
  uint64_t seed = 0;
  std::string observed;  // the signature: which cell, what it held, against what
};

// One (configuration, sample): what a trace record states.
struct Measurement {
  std::string config;
  uint64_t seed = 0;
  std::string input_digest;
  double residual = 0;  // the worst residual / bound seen (0 when nothing was judged)
  double worst_residual = 0, worst_bound = 0;
  bool pass = true;
};

struct CheckReport {
  std::string contract, impl, role, backend, profile;
  Verdict verdict = Verdict::Conforming;
  std::vector<Finding> findings;         // the first few violations
  uint64_t violations = 0;
  std::vector<std::string> unspecified;  // why parts could not be decided
  std::string refusal;
  uint64_t runs = 0, cells_judged = 0;
  std::vector<Measurement> measurements;
  bool visible = false;  // which protocol ran: the visible tests or the contract's measurement
};

struct CheckOptions {
  bool visible = false;  // run the visible smoke tests instead of the measurement protocol
  Backend* backend = nullptr;
  Env overrides;  // parameter values set on the command line (--set N=...); sweeps still apply
};

CheckReport check_contract(const LoadedContracts& file, const Contract& c, const Impl& impl, const CheckOptions& opts);

}  // namespace racer::contract
