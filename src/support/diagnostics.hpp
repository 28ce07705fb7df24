#pragma once
// Located error messages, collected so a file reports all its errors, each with the
// offending line and a caret under the token.
#include <string>
#include <vector>

#include "support/source_text.hpp"

namespace racer {

struct Diagnostic {
  std::string path;
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t width = 1;
  std::string message;
  std::string source_line;

  // "path:line:col: error: message" then the line and a caret marker.
  std::string render() const;
};

class Diagnostics {
 public:
  // Past this many errors a file is hopeless; stop collecting to bound time and output.
  static constexpr size_t kMaxErrors = 100;

  void error(const SourceText& src, size_t offset, size_t width, std::string message);
  bool empty() const { return items_.empty(); }
  bool full() const { return items_.size() >= kMaxErrors; }
  const std::vector<Diagnostic>& items() const { return items_; }
  std::string render() const;
  // Throws racer::Error(BadInput) with every message when any error was recorded.
  void throw_if_any() const;

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace racer
