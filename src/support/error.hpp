#pragma once
// The one exception type of Racer: a message for the user and the exit code it maps to.
#include <stdexcept>
#include <string>

namespace racer {

// Process exit codes, shared by every command (see README).
enum class ExitCode : int {
  Equivalent = 0,
  Inequivalent = 1,  // also: any defect found
  Unknown = 2,
  BadInput = 3,      // malformed input, or a refusal
  Internal = 4,
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

}  // namespace racer
