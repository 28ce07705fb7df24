#include "instance/spelling.hpp"

#include <algorithm>
#include <vector>

namespace racer::instance {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string_view> closest(std::string_view word, std::span<const std::string_view> candidates) {
  std::optional<std::string_view> best;
  size_t best_distance = 0;
  for (std::string_view c : candidates) {
    size_t d = edit_distance(word, c);
    if (!best || d < best_distance) best = c, best_distance = d;
  }
  // Short words are all close to each other; demand the typo be small relative to the word.
  size_t limit = std::min<size_t>(2, std::max(word.size(), size_t{1}) / 3);
  if (!best || best_distance == 0 || best_distance > std::max<size_t>(limit, 1)) return std::nullopt;
  return best;
}

std::string suggestion(std::string_view word, std::span<const std::string_view> candidates, bool list_all) {
  if (auto c = closest(word, candidates)) return "; did you mean '" + std::string(*c) + "'?";
  if (!list_all || candidates.empty()) return "";
  std::string out = "; expected one of ";
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i) out += ", ";
    out += candidates[i];
  }
  return out;
}

}  // namespace racer::instance
