#pragma once
// racer check FILE.py: the Python side describes the instances the file defines (python3 -m
// racer.cli describe, which loads only the front end) and this process checks and reports each
// one as it does a TOML instance: one checker, one report, one set of exit codes.
#include <string>

#include "check/check.hpp"

namespace racer::cli {

// Prints every instance's report (or, with `json`, one JSON report, a list when the file defines
// several), saves the witnesses (one file each, named after the instance, when there are several)
// and returns the most severe exit code (racer::most_severe).
int check_python_file(const std::string& path, const check::CheckOptions& options, bool json, const std::string& witness);

}  // namespace racer::cli
