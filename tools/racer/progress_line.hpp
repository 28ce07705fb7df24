#pragma once
// The progress of a long check on a terminal: one line on stderr, rewritten in place, once the
// command has run for two seconds (a quick check prints nothing). Only when stderr is a
// terminal and --quiet was not given: piped or redirected output never sees it.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "check/progress.hpp"

namespace racer::cli {

class ProgressLine : public check::ProgressObserver {
 public:
  // Draws only when `wanted` and stderr is a terminal; the phase starts as loading.
  explicit ProgressLine(bool wanted);
  ~ProgressLine() override;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void update(const check::Progress& p) override;
  // Erases the line and draws nothing until the next update: call before printing a report.
  void finished() override;

 private:
  void draw_loop();
  void erase();  // with mutex_ held
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  check::Progress now_;
  std::string shown_;  // the line on screen, not drawn again while unchanged
  bool active_ = true, drawn_ = false, stop_ = false;
  std::thread drawer_;
};

// "deciding: 1200 of 4096 cells, 14 s" (the text of the line).
std::string progress_text(const check::Progress& p, double seconds);

}  // namespace racer::cli
