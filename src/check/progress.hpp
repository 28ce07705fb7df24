#pragma once
// Progress of a running check, for a display: which phase it is in and how far it got. The
// check tells its observer from the thread doing the work, at its limit checks (every 65536
// thread-instructions, every decided cell), at once when a phase begins and otherwise at most
// ten times a second. Drawing it (or not) is the observer's business.
#include <cstdint>
#include <functional>
#include <string_view>

namespace racer::exec {
class Session;
}

namespace racer::check {

// Loading is the caller's (parsing, compiling kernels) before check_instance begins.
// Corpus is racer corpus's: instances checked of a directory's.
enum class Phase : uint8_t { Loading, Executing, SelfCheck, Deciding, Replaying, Corpus };
// "loading", "executing", "self-check", "deciding", "replaying", "corpus"
std::string_view phase_name(Phase p);

struct Progress {
  Phase phase = Phase::Loading;
  char program = 0;                  // 'a' or 'b' while executing
  uint64_t thread_instructions = 0;  // both programs, so far
  uint64_t cells_decided = 0, cells_total = 0;
  uint64_t instances_done = 0, instances_total = 0;  // Corpus
};

class ProgressObserver {
 public:
  virtual ~ProgressObserver() = default;
  virtual void update(const Progress& p) = 0;
  virtual void finished() {}  // the check has ended (its report comes next)
};

// What check_instance keeps of the progress and when it tells the observer (none: nothing).
class ProgressTicker {
 public:
  ProgressTicker(ProgressObserver* observer, const exec::Session& session, std::function<uint64_t()> steps);
  ~ProgressTicker();  // tells the observer the check has finished
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;
  void enter(Phase phase, char program = 0);
  void deciding(uint64_t cells_total);
  void cell_decided() { ++now_.cells_decided; }
  // From the session's limit checks: tells the observer if a tenth of a second has passed.
  void poll();

 private:
  void tell();
  ProgressObserver* observer_;
  const exec::Session& session_;
  std::function<uint64_t()> steps_;
  Progress now_;
  double last_told_ = -1;
};

}  // namespace racer::check
