#include "tools/racer/python_bridge.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace racer::cli {

std::string python_dir() {
  if (const char* d = std::getenv("RACER_PYTHON_DIR"); d && *d) return d;
  return RACER_SOURCE_PYTHON_DIR;
}

void export_python_environment() {
  static bool done = false;
  if (done) return;
  done = true;
  std::string path = python_dir();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += std::string(":") + old;
  ::setenv("PYTHONPATH", path.c_str(), 1);
  // The compiled core of this very build, not whichever an installed package would find.
  ::setenv("RACER_CORE_DIR", RACER_BUILD_CORE_DIR, 0);
}

int exec_python(const std::vector<std::string>& args) {
  std::string interpreter = "python3";
  if (const char* p = std::getenv("RACER_PYTHON"); p && *p) interpreter = p;
  export_python_environment();
  std::vector<char*> argv;
  argv.push_back(interpreter.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  ::execvp(interpreter.c_str(), argv.data());
  std::cerr << "racer: cannot run " << interpreter << ": " << std::strerror(errno)
            << " (set RACER_PYTHON to a Python 3 interpreter)\n";
  return 3;
}

}  // namespace racer::cli
