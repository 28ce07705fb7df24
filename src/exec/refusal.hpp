#pragma once
// Raised by instruction semantics when the engine cannot model something faithfully; the
// machine adds the instruction, the thread and the launch before reporting it.
#include <stdexcept>
#include <string>

namespace racer::exec {

class Refusal : public std::runtime_error {
 public:
  explicit Refusal(const std::string& reason) : std::runtime_error(reason) {}
};

// A refusal already located at an instruction, thread and launch.
class LocatedRefusal : public Refusal {
 public:
  explicit LocatedRefusal(const std::string& message) : Refusal(message) {}
};

// A resource limit (time, memory, steps) was reached: the case ends Unknown, not refused.
class LimitReached : public std::runtime_error {
 public:
  explicit LimitReached(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace racer::exec
