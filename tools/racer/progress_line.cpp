#include "tools/racer/progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace racer::cli {
namespace {

constexpr double kQuietSeconds = 2.0;  // checks shorter than this print no progress at all
constexpr auto kRedraw = std::chrono::milliseconds(250);

std::string with_unit(uint64_t n) {
  char buf[32];
  if (n >= 10'000'000) std::snprintf(buf, sizeof buf, "%.0fM", static_cast<double>(n) / 1e6);
  else if (n >= 10'000) std::snprintf(buf, sizeof buf, "%.0fk", static_cast<double>(n) / 1e3);
  else std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n));
  return buf;
}

}  // namespace

std::string progress_text(const check::Progress& p, double seconds) {
  std::string s(check::phase_name(p.phase));
  switch (p.phase) {
    case check::Phase::Loading: s += " the instance and compiling its kernels"; break;
    case check::Phase::Executing:
      s += " program " + std::string(1, p.program) + ": " + with_unit(p.thread_instructions) + " thread-instructions";
      break;
    case check::Phase::Deciding:
      s += ": " + std::to_string(p.cells_decided) + " of " + std::to_string(p.cells_total) + " cells";
      break;
    case check::Phase::SelfCheck: s += " against the emulator"; break;
    case check::Phase::Replaying: s += " the witness on the emulator"; break;
    case check::Phase::Corpus:
      s += ": " + std::to_string(p.instances_done) + " of " + std::to_string(p.instances_total) + " instances checked";
      break;
  }
  char t[32];
  std::snprintf(t, sizeof t, ", %.0f s", seconds);
  return s + t;
}

ProgressLine::ProgressLine(bool wanted)
    : enabled_(wanted && ::isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()) {
  if (enabled_) drawer_ = std::thread([this] { draw_loop(); });
}

ProgressLine::~ProgressLine() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    erase();
  }
  wake_.notify_one();
  drawer_.join();
}

void ProgressLine::update(const check::Progress& p) {
  std::lock_guard lock(mutex_);
  now_ = p;
  active_ = true;
}

void ProgressLine::finished() {
  std::lock_guard lock(mutex_);
  erase();
  active_ = false;
}

void ProgressLine::erase() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

// Draws from its own thread, so the seconds go on while one cell takes long; the check's
// thread only hands over its counts.
void ProgressLine::draw_loop() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, kRedraw, [this] { return stop_; });
    if (stop_ || !active_) continue;
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (seconds < kQuietSeconds) continue;
    std::string line = "racer: " + progress_text(now_, seconds);
    winsize ws{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && line.size() >= ws.ws_col)
      line.resize(ws.ws_col - 1u);  // a wrapped line could not be rewritten in place
    if (drawn_ && line == shown_) continue;
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    drawn_ = true;
    shown_ = line;
  }
}

}  // namespace racer::cli
