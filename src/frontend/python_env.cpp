#include "frontend/python_env.hpp"

#include <cstdlib>

namespace racer::frontend {

std::string python_interpreter() {
  if (const char* p = std::getenv("RACER_PYTHON"); p && *p) return p;
  return "python3";
}

std::string python_package_dir() {
  if (const char* d = std::getenv("RACER_PYTHON_DIR"); d && *d) return d;
  return RACER_FRONTEND_PYTHON_DIR;
}

void export_python_environment() {
  static bool done = false;
  if (done) return;
  done = true;
  std::string path = python_package_dir();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += std::string(":") + old;
  ::setenv("PYTHONPATH", path.c_str(), 1);
  ::setenv("RACER_CORE_DIR", RACER_FRONTEND_CORE_DIR, 0);
}

}  // namespace racer::frontend
