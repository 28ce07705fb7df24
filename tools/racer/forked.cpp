#include "tools/racer/forked.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <vector>

#include "support/error.hpp"

namespace racer::cli {
namespace {

struct Child {
  size_t index;
  pid_t pid;
  int fd;
  std::string output;
};

void write_all(int fd, const std::string& s) {
  for (size_t at = 0; at < s.size();) {
    ssize_t k = ::write(fd, s.data() + at, s.size() - at);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;
    at += static_cast<size_t>(k);
  }
}

Child start(size_t i, const std::function<std::string(size_t)>& work) {
  int fds[2];
  if (::pipe(fds) != 0) throw Error(ExitCode::Internal, std::string("cannot create a pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  pid_t pid = ::fork();
  if (pid < 0) throw Error(ExitCode::Internal, std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    std::string out;
    try {
      out = work(i);
    } catch (...) {
      out.clear();  // reported as a child that died
    }
    write_all(fds[1], out);
    ::close(fds[1]);
    std::cout.flush();
    ::_exit(out.empty() ? 1 : 0);  // no destructors or atexit handlers of the parent's state
  }
  ::close(fds[1]);
  return {i, pid, fds[0], {}};
}

std::string how_it_died(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return {};
}

}  // namespace

void run_forked(size_t n, unsigned jobs, const std::function<std::string(size_t)>& work,
                const std::function<void(size_t, const ChildOutcome&)>& done) {
  std::vector<Child> running;
  std::map<size_t, ChildOutcome> finished;
  size_t next = 0, reported = 0;
  while (reported < n) {
    while (running.size() < std::max(jobs, 1u) && next < n) running.push_back(start(next++, work));
    std::vector<pollfd> fds;
    for (const auto& c : running) fds.push_back({c.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
      throw Error(ExitCode::Internal, std::string("poll: ") + std::strerror(errno));
    for (size_t k = fds.size(); k-- > 0;) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Child& c = running[k];
      char buf[65536];
      ssize_t got = ::read(c.fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got > 0) {
        c.output.append(buf, static_cast<size_t>(got));
        continue;
      }
      ::close(c.fd);
      int status = 0;
      while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
      }
      finished[c.index] = {std::move(c.output), how_it_died(status)};
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
    for (auto it = finished.find(reported); it != finished.end(); it = finished.find(reported)) {
      done(reported, it->second);
      finished.erase(it);
      ++reported;
    }
  }
}

}  // namespace racer::cli
