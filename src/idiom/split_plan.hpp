#pragma once
// A routine split across a loop. nvcc hoists a loop-invariant logf's polynomial out of the
// loop and keeps the routine's special cases (zero, negative, infinite, NaN input) inside it,
// repeated in each unrolled iteration, each copy reading the hoisted registers. No single
// instruction holds the function before the loop, so the plan is read from probes that follow
// the thread on to where the routine's registers are dead (ProbeSite::through): every
// instruction that computes from the routine's data is stepped over wherever the thread
// meets it, and each copy's result instruction gives its register the function, checked at
// every visit on every probe. A copy that does not compute the function, or any use of the
// routine's data by other instructions, and there is no plan: the refusal stands.
#include <optional>

#include "idiom/plan.hpp"

namespace racer::idiom {

// `s.runs` come from probes with ProbeSite::through set.
std::optional<RoutinePlan> split_plan_from_runs(const PlanSearch& s);

}  // namespace racer::idiom
