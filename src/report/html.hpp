#pragma once
// A check as one self-contained HTML page: the verdict, a coloured map of every output cell
// (proved / refuted / unknown), the witness with its differing cell, both programs' expressions
// for that cell side by side with their difference, and every defect with its access site and
// source line.
#include <optional>
#include <string>

#include "check/explain.hpp"
#include "check/result.hpp"
#include "instance/instance.hpp"

namespace racer::report {

// `witness` explains the counterexample's cell (check::explain_cell), when there is one.
std::string html(const check::CheckResult& r, const instance::Instance& inst, const std::optional<check::Explanation>& witness);

}  // namespace racer::report
