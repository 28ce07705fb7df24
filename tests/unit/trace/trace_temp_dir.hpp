#pragma once
// A scratch directory per test; removed afterwards.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace racer::trace::testing {

class TraceTempDir {
 public:
  TraceTempDir() {
    static std::atomic<int> counter{0};
    root_ = std::filesystem::temp_directory_path() /
            ("racer_trace_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(root_);
  }
  ~TraceTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TraceTempDir(const TraceTempDir&) = delete;
  TraceTempDir& operator=(const TraceTempDir&) = delete;
  std::string path(const std::string& name) const { return (root_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(root_ / name, std::ios::binary) << text;
    return path(name);
  }

 private:
  std::filesystem::path root_;
};

}  // namespace racer::trace::testing
