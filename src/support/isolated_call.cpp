#include "support/isolated_call.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

namespace racer::support {
namespace {

uint64_t address_space_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

bool write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

[[noreturn]] void run_child(const std::function<std::string()>& body, int fd, uint64_t address_space) {
  rlimit cap{address_space, address_space};
  setrlimit(RLIMIT_AS, &cap);
  std::string answer;
  try {
    answer = body();
  } catch (...) {
    _exit(3);
  }
  // _exit: none of the caller's exit handlers or buffered output belong to the child.
  _exit(write_all(fd, answer) ? 0 : 4);
}

std::string status_text(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "ended by signal " + std::to_string(WTERMSIG(status));
  return "ended";
}

}  // namespace

IsolatedResult call_isolated(const std::function<std::string()>& body, std::chrono::milliseconds limit,
                             uint64_t memory_mb) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + limit;
  const uint64_t cap = address_space_bytes() + (memory_mb << 20);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {std::nullopt, "no pipe"};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {std::nullopt, "no child process"};
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(body, fds[1], cap);
  }
  close(fds[1]);
  std::string data;
  char buf[4096];
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of the answer
    data.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return {std::nullopt, "time limit"};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return {std::nullopt, status_text(status)};
  return {std::move(data), ""};
}

}  // namespace racer::support
