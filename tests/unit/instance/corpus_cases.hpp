#pragma once
// The checking instances of the shared corpus, in name order.
#include <algorithm>
#include <filesystem>
#include <vector>

namespace racer::instance::testing {

inline std::vector<std::filesystem::path> corpus_cases() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(RACER_CORPUS_DIR) / "cases"))
    if (e.path().extension() == ".toml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace racer::instance::testing
