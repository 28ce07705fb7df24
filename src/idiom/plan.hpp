#pragma once
// From a routine's probe runs to a plan for stepping over it: which register holds a family
// function of the input (and where), what the thread steps over, and what a plan reused
// elsewhere must find unchanged. Accepted only where nothing else the routine computed is
// read afterwards.
#include <cmath>
#include <functional>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "idiom/functions.hpp"
#include "idiom/probe_run.hpp"
#include "ptx/liveness.hpp"

namespace racer::idiom {

// A result of a routine split across a loop (split_plan.hpp): at every visit of `instr` the
// register it writes gets fit(t).
struct PlacedFit {
  uint32_t instr = 0, reg = 0;
  Fit fit;
};

// The values a routine's input can take, where its symbols' ranges bound it: probe points
// outside do not count against a fit (see PlanSearch::input_range). Or, for an input the ranges
// keep away from 0 (a range too narrow to probe, a masked lane's constant), every value but 0.
struct InputRange {
  long double lo = -HUGE_VALL, hi = HUGE_VALL;
  bool all_but_zero = false;
  bool contains(long double t) const { return all_but_zero ? t != 0 : t >= lo && t <= hi; }
  // Whether a fit over this range serves an input whose values lie in `input`.
  bool admits(const InputRange& input) const {
    return all_but_zero ? input.lo > 0 || input.hi < 0 : input.lo >= lo && input.hi <= hi;
  }
};

struct RoutinePlan {
  std::vector<uint32_t> skip;
  uint32_t commit = 0, reg = 0;
  bool before = false;  // set the result just before `commit` (a merge point) runs
  uint32_t addend_reg = UINT32_MAX;
  bool addend_negated = false;
  ptx::Type addend_type = ptx::Type::F32;
  Fit fit;
  std::vector<std::pair<uint32_t, uint64_t>> fixed_inputs;  // concrete registers the routine read
  // The registers that held the input where the plan was made (the probes set every one of
  // them to the sample): another visit may use the plan only where the same registers, and no
  // others, hold its input. Two values equal in one thread (a cumulative sum's first row and
  // the term it adds) are different values in the next.
  std::vector<uint32_t> input_registers;
  std::vector<std::pair<uint64_t, unsigned>> clobber_local;  // local scratch its stores wrote
  std::vector<std::pair<uint32_t, Fit>> extra;  // further results of one routine (sin and cos)
  std::vector<std::pair<uint32_t, uint32_t>> jumps;  // see exec::AbsorbPlan::jumps
  // A routine split across a loop: its results (then `commit` and `reg` are unused), and the
  // instruction where the plan ends (see exec::AbsorbPlan::placed).
  std::vector<PlacedFit> placed;
  uint32_t end = 0;
  // Fitted on the probes inside this range only (PlanSearch::input_range): serves only an
  // input the range admits.
  std::optional<InputRange> input_range;
};

struct PlanSearch {
  const ptx::Function& fn;
  const ptx::Liveness& live;
  const std::vector<Run>& runs;  // one per probe point, all from `at`
  uint32_t at;
  // A selection is read as a routine only where the selected value itself (written at `at`)
  // is the function: nothing after it is stepped over.
  bool selection;
  Tolerance tol;
  bool debug;
  // The input's range, where its symbols' ranges bound it: a probe outside does not count
  // against a fit. Compilers specialize a routine to what they know of its input (erff(fabsf(x))
  // drops erff's own |x| and sign), and move its special cases past the steps that follow it
  // (max(logf(x), -2) selects -2 at x == 0 after the max), so the routine computes the function
  // only where the input can be.
  std::optional<InputRange> input_range;
  // Where the paths of the data-dependent branch the thread is on meet (none: UINT32_MAX). The
  // thread merges its paths there before running that instruction, so a result written by it
  // (min(acc, erff(x)) at the meeting point of where(x > c, erff(x), ...)) would come too late.
  uint32_t path_join = UINT32_MAX;
  // The session's limits, checked as the search goes (a search over a long probe takes long).
  std::function<void()> check_limits;
};

// Where control goes at each branch of `skip` (see exec::AbsorbPlan::jumps).
std::vector<std::pair<uint32_t, uint32_t>> jumps_of(const ptx::Function& fn, const std::vector<uint32_t>& skip,
                                                    const std::vector<Run>& runs);
// The instructions a skipped branch's jump carries the thread past (between the branch and
// where its paths meet) that `skip` does not list: paths no probe took, and steps on other data
// that only some paths took. The thread never runs them.
std::set<uint32_t> jumped_over(const ptx::Function& fn, const std::vector<std::pair<uint32_t, uint32_t>>& jumps,
                               const std::set<uint32_t>& skip);
// What the runs read of the thread's registers before writing them (a plan serves another
// visit only where these are the same), in each run's first ends[i] events.
std::vector<std::pair<uint32_t, uint64_t>> fixed_inputs_of(const ptx::Function& fn, const std::vector<Run>& runs,
                                                           const std::vector<size_t>& ends);

// The first result that fits: a register one instruction writes on every run, else (not for
// a selection) a register holding the function where the routine's paths merge.
std::optional<RoutinePlan> plan_from_runs(const PlanSearch& s);

}  // namespace racer::idiom
