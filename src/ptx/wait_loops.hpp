#pragma once
// mbarrier.try_wait / test_wait tell whether a phase has completed. The engine runs a wait as
// the schedule in which the thread is delayed until the phase completes, which is faithful
// only when the program cannot tell that schedule from others: the outcome is read by
// nothing but branches that send "not yet" straight back to the wait, through instructions
// that touch only registers. This is the check.
#include <optional>
#include <string>

#include "ptx/ir.hpp"

namespace racer::ptx {

// nullopt when the wait at instrs[wait_index] is only ever retried; otherwise why not.
std::optional<std::string> wait_outcome_observed(const Function& f, uint32_t wait_index);

}  // namespace racer::ptx
