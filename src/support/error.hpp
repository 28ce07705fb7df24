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
  EqualUpToRounding = 5,  // equal except for rounding (README: equal_up_to_rounding)
};

// The code of a run that produced several results (every instance of a Python file): the most
// severe, in the order Internal, BadInput, Inequivalent, Unknown, EqualUpToRounding, Equivalent.
constexpr ExitCode most_severe(ExitCode a, ExitCode b) {
  constexpr auto rank = [](ExitCode c) {
    switch (c) {
      case ExitCode::Equivalent: return 0;
      case ExitCode::EqualUpToRounding: return 1;
      case ExitCode::Unknown: return 2;
      case ExitCode::Inequivalent: return 3;
      case ExitCode::BadInput: return 4;
      case ExitCode::Internal: return 5;
    }
    return 5;
  };
  return rank(a) >= rank(b) ? a : b;
}

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

}  // namespace racer
