#pragma once
// Runs a computation that may not stop when asked (a solver that ignores its timeout and its
// interrupt deep in one tactic) in a forked child process, which is killed at the time limit:
// the caller's limits then hold whatever the computation does. The child shares nothing with
// the caller after the fork; its only answer is the string it returns, sent through a pipe.
//
// Only the calling thread exists in the child: the body must not wait for anything another
// thread of the caller would do (a lock held at the fork stays held; a hang then ends at the
// time limit like any other). The body runs with its address space capped at what the caller
// had plus `memory_mb`, so that a runaway allocation ends the child, not the host.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace racer::support {

struct IsolatedResult {
  std::optional<std::string> answer;  // nullopt: killed at the limit, or the child failed
  std::string why;                    // when there is no answer: "time limit", "exited with ...", ...
};

IsolatedResult call_isolated(const std::function<std::string()>& body, std::chrono::milliseconds limit,
                             uint64_t memory_mb);

}  // namespace racer::support
