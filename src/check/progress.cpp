#include "check/progress.hpp"

#include "exec/session.hpp"

namespace racer::check {

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::Loading: return "loading";
    case Phase::Executing: return "executing";
    case Phase::SelfCheck: return "self-check";
    case Phase::Deciding: return "deciding";
    case Phase::Replaying: return "replaying";
    case Phase::Corpus: return "corpus";
  }
  return "?";
}

ProgressTicker::ProgressTicker(ProgressObserver* observer, const exec::Session& session, std::function<uint64_t()> steps)
    : observer_(observer), session_(session), steps_(std::move(steps)) {}

ProgressTicker::~ProgressTicker() {
  if (observer_) observer_->finished();
}

void ProgressTicker::enter(Phase phase, char program) {
  now_.phase = phase;
  now_.program = program;
  tell();
}

void ProgressTicker::deciding(uint64_t cells_total) {
  now_.cells_total = cells_total;
  now_.cells_decided = 0;
  enter(Phase::Deciding);
}

void ProgressTicker::poll() {
  if (observer_ && session_.elapsed_seconds() - last_told_ >= 0.1) tell();
}

void ProgressTicker::tell() {
  if (!observer_) return;
  last_told_ = session_.elapsed_seconds();
  now_.thread_instructions = steps_ ? steps_() : 0;
  observer_->update(now_);
}

}  // namespace racer::check
