#include "support/source_text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "support/error.hpp"

namespace racer {

SourceText::SourceText(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(static_cast<uint32_t>(i + 1));
}

SourceText SourceText::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ExitCode::BadInput, path + ": cannot read file: " + std::strerror(errno));
  std::ostringstream buf;
  buf << in.rdbuf();
  return SourceText(path, buf.str());
}

LineCol SourceText::locate(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t index = static_cast<uint32_t>(it - line_starts_.begin()) - 1;
  return {index + 1, static_cast<uint32_t>(offset - line_starts_[index]) + 1};
}

std::string_view SourceText::line(uint32_t line_number) const {
  if (line_number == 0 || line_number > line_starts_.size()) return {};
  size_t begin = line_starts_[line_number - 1];
  size_t end = line_number < line_starts_.size() ? line_starts_[line_number] - 1 : text_.size();
  std::string_view v(text_.data() + begin, end - begin);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

}  // namespace racer
