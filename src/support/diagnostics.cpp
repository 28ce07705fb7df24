#include "support/diagnostics.hpp"

#include <algorithm>

#include "support/error.hpp"

namespace racer {

std::string Diagnostic::render() const {
  std::string out = path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + message;
  if (!source_line.empty()) {
    out += "\n  " + source_line + "\n  ";
    // Keep tabs so the caret lines up under tab-indented PTX.
    for (uint32_t i = 0; i + 1 < col && i < source_line.size(); ++i) out += source_line[i] == '\t' ? '\t' : ' ';
    out += '^';
    if (width > 1) out += std::string(width - 1, '~');
  }
  return out;
}

void Diagnostics::error(const SourceText& src, size_t offset, size_t width, std::string message) {
  if (full()) return;
  LineCol lc = src.locate(std::min(offset, src.text().size()));
  std::string line(src.line(lc.line));
  uint32_t w = static_cast<uint32_t>(std::max<size_t>(1, std::min<size_t>(width, line.size() >= lc.col ? line.size() - lc.col + 1 : 1)));
  items_.push_back({src.path(), lc.line, lc.col, w, std::move(message), std::move(line)});
}

std::string Diagnostics::render() const {
  std::string out;
  for (const auto& d : items_) {
    if (!out.empty()) out += '\n';
    out += d.render();
  }
  if (full()) out += "\n(too many errors; stopped after " + std::to_string(kMaxErrors) + ")";
  return out;
}

void Diagnostics::throw_if_any() const {
  if (!items_.empty()) throw Error(ExitCode::BadInput, render());
}

}  // namespace racer
