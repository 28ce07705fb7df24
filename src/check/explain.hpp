#pragma once
// One output cell, explained: both programs' expressions, their difference, and which step
// of the decider decided it (or why none did).
#include <string>

#include "check/check.hpp"

namespace racer::check {

struct Explanation {
  std::string cell;
  std::string expr_a, expr_b, difference;
  std::string status, step, reason;
  std::string stopped;  // non-empty when the programs could not be run to the end
  std::vector<std::string> recognized;
};

// `cell` is "name[i,j,...]" with one index per dimension of an output tensor. Throws
// racer::Error(BadInput) for a cell that names no output cell.
Explanation explain_cell(const instance::Instance& inst, const std::string& cell, const CheckOptions& options = {});

}  // namespace racer::check
