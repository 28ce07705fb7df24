#pragma once
// Deciding output cells: each pair of expressions by the decider, once per shape class
// (decide/shape.hpp: pairs equal up to a renaming of input symbols of equal domains and
// kinds share one decision), with the refutation checks that belong to a single cell (a
// refutation resting only on an unrecognized approximation is withheld), and the outcome
// written into the output's counts and, for the first refuted cell, the counterexample.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check/execution.hpp"
#include "check/result.hpp"
#include "decide/decider.hpp"
#include "decide/shape.hpp"

namespace racer::check {

// The decider's options for a check: its last step (Z3) stops at the check's time limit.
decide::DeciderOptions decider_options(const exec::Session& session);

class CellDecisions {
 public:
  // shape_reduction false: every cell decided on its own (for measuring what reuse saves).
  CellDecisions(Execution& ex, uint64_t seed, bool shape_reduction = true);

  // Decides cell `cell` of output `output` (an index into prep.output_tensors()) and records
  // it in `stats` (that output's) and `res` (unknown cells, the counterexample, recognized
  // approximations).
  void decide(size_t output, uint64_t cell, OutputStats& stats, CheckResult& res);
  // The cell decided on its own (no class's decision reused): its counterexample where refuted.
  std::optional<Counterexample> refute_alone(size_t output, uint64_t cell, std::vector<std::string>& recognized);
  // Records the cell as not decided because its output is already refuted.
  static void skip(uint64_t cell, OutputStats& stats);

  // The classes so far, the `largest` biggest listed.
  ReuseStats reuse(size_t largest) const;
  // A counterexample at the representative of every refuted class, in the order decided.
  std::vector<Counterexample> refuted_representatives() const;

 private:
  struct Class {
    bool decided = false;
    decide::CellDecision decision;  // the representative's
    size_t output = 0;
    uint64_t cell = 0;
    std::string name;               // the representative's
    uint64_t members = 0;
  };
  decide::CellDecision decide_pair(expr::ExprId a, expr::ExprId b, std::vector<std::string>& recognized);
  Counterexample counterexample(size_t output, uint64_t cell, const decide::CellDecision& d) const;

  Execution& ex_;
  bool shape_reduction_;
  decide::Decider decider_;
  decide::ShapeClasses shapes_;
  std::vector<size_t> outputs_;  // prep.output_tensors()
  std::vector<Class> classes_;   // by shape class
  uint64_t identical_ = 0;
};

}  // namespace racer::check
