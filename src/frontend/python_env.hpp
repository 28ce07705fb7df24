#pragma once
// Python child processes (the Triton front end, the instances of a Python file, the GPU replay)
// run this source tree's racer package with this build's compiled core, ahead of any installed
// copy: the one place that says how.
#include <string>

namespace racer::frontend {

// The interpreter: $RACER_PYTHON, else python3 (looked up on PATH).
std::string python_interpreter();

// The racer package's directory: $RACER_PYTHON_DIR, else the python/ of the source tree this
// build was made from.
std::string python_package_dir();

// Puts python_package_dir() first on PYTHONPATH and this build's core in RACER_CORE_DIR (unless
// already set), for every child this process starts; once per process.
void export_python_environment();

}  // namespace racer::frontend
