#pragma once
// Running a compiler (nvcc, Python for Triton) as a child process.
#include <string>
#include <vector>

namespace racer::frontend {

// Runs argv (argv[0] looked up on PATH unless it is a path) with its stdout written to
// `out` and its stderr to `err` (the same file for both is fine; an empty name leaves that
// stream this process's); returns the exit status (127: could not be started).
int run_process(const std::vector<std::string>& argv, const std::string& out, const std::string& err);

std::string read_file(const std::string& path);

}  // namespace racer::frontend
