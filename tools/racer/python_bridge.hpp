#pragma once
// The commands whose work is Python (instances written with the Python API, GPU replay) are
// run by the interpreter from the CLI, with the package of this build on its path.
#include <string>
#include <vector>

namespace racer::cli {

// Replaces this process with `python3 ARGS...` (RACER_PYTHON overrides the interpreter), the
// racer package and its compiled core on the path. Returns only when the interpreter cannot
// be started (then with exit code 3, after saying why).
int exec_python(const std::vector<std::string>& args);

// Puts this build's racer package and compiled core on the path of Python processes the CLI
// starts (the Triton front end of kernel contracts, the Python instances).
void export_python_environment();

// The python/ directory of the source tree this CLI was built from (RACER_PYTHON_DIR overrides).
std::string python_dir();

}  // namespace racer::cli
