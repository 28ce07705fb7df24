#pragma once
// The corpus PTX files the tests run over.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace racer::test {

inline std::vector<std::string> corpus_ptx_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(RACER_CORPUS_DIR) + "/ptx"))
    if (e.path().extension() == ".ptx") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace racer::test
