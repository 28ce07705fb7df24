#include "tools/racer/python_bridge.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "frontend/python_env.hpp"

namespace racer::cli {

int exec_python(const std::vector<std::string>& args) {
  std::string interpreter = frontend::python_interpreter();
  frontend::export_python_environment();
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
