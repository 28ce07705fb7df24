#pragma once
// Validators shared by the commands' options: a wrong value is bad input (exit 3) naming the
// option, before any work starts.
#include <CLI/CLI.hpp>

namespace racer::cli {

// A finite number >= 0 (a limit: seconds, MiB, points). Rejects "-1", "nan", "inf".
const CLI::Validator& non_negative();
// An integer >= 1 (a count of parallel jobs).
const CLI::Validator& positive_count();
// Not a directory where a file is expected: "FILE is a directory; expected a file".
const CLI::Validator& input_file();

}  // namespace racer::cli
