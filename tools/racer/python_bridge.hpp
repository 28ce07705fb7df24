#pragma once
// A command whose work is all Python (the GPU replay) hands the process over to the interpreter,
// with this build's package on its path (frontend/python_env.hpp).
#include <string>
#include <vector>

namespace racer::cli {

// Replaces this process with `python3 ARGS...` (RACER_PYTHON overrides the interpreter). Returns
// only when the interpreter cannot be started (then with exit code 3, after saying why).
int exec_python(const std::vector<std::string>& args);

}  // namespace racer::cli
