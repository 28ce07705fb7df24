#include "frontend/process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/error.hpp"

namespace racer::frontend {

int run_process(const std::vector<std::string>& argv, const std::string& out, const std::string& err) {
  pid_t pid = ::fork();
  if (pid < 0) throw Error(ExitCode::Internal, "cannot start " + argv.at(0) + ": fork failed");
  if (pid == 0) {
    auto open_out = [](const std::string& path) { return path.empty() ? -1 : ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644); };
    int fo = open_out(out);
    int fe = err == out ? fo : open_out(err);
    if (fo >= 0) ::dup2(fo, 1);
    if (fe >= 0) ::dup2(fe, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace racer::frontend
