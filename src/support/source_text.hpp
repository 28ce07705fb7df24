#pragma once
// A loaded text file with its line table, so any byte offset can be named as file:line:col.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace racer {

struct LineCol {
  uint32_t line = 0;  // 1-based
  uint32_t col = 0;   // 1-based, in bytes
};

class SourceText {
 public:
  SourceText(std::string path, std::string text);
  // Reads a file; throws racer::Error (bad input) naming the path when it cannot be read.
  static SourceText load(const std::string& path);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  LineCol locate(size_t offset) const;
  std::string_view line(uint32_t line_number) const;  // without the newline

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

}  // namespace racer
