#pragma once
// Work spread over child processes on this machine: each item runs in its own fork, so one
// item's memory limit, crash or leak is its own, and the engine needs no thread safety.
#include <cstddef>
#include <functional>
#include <string>

namespace racer::cli {

struct ChildOutcome {
  std::string output;  // what work(i) returned
  std::string died;    // "" when the child finished; else how it ended ("killed by signal 9")
};

// Runs work(i) for every i < n in at most `jobs` children at once, and calls done(i, outcome)
// in index order, each as soon as it and every item before it are finished.
void run_forked(size_t n, unsigned jobs, const std::function<std::string(size_t)>& work,
                const std::function<void(size_t, const ChildOutcome&)>& done);

}  // namespace racer::cli
