// Every checking instance of the shared corpus and of tests/cases against its [expect].
// Failures are shown, not hidden: the test prints the whole scoreboard and fails if fewer
// cases pass than the floor below (raise it as capabilities land, never lower it silently).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "check/check.hpp"
#include "check/expect.hpp"
#include "instance/load.hpp"
#include "support/error.hpp"

namespace racer::check {
namespace {

struct Tally {
  size_t passed = 0, failed = 0;
};

Tally run_directory(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Tally t;
  for (const auto& f : files) {
    std::string why;
    try {
      instance::Instance inst = instance::load_instance(f.string());
      CheckOptions options;
      options.limits.max_seconds = 30;  // a case that needs longer ends Unknown and shows as failing
      why = expectation_mismatch(inst, check_instance(inst, options));
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
    (why.empty() ? t.passed : t.failed)++;
    std::cout << (why.empty() ? "PASS " : "FAIL ") << f.stem().string() << (why.empty() ? "" : "  " + why.substr(0, 200)) << "\n";
  }
  std::cout << dir << ": " << t.passed << " of " << files.size() << " cases pass\n";
  return t;
}

TEST(Scoreboard, SharedCorpus) {
  Tally t = run_directory(std::string(RACER_CORPUS_DIR) + "/cases");
  EXPECT_GE(t.passed, 47u);
}

TEST(Scoreboard, OwnCases) {
  Tally t = run_directory(std::string(RACER_SOURCE_DIR) + "/tests/cases");
  EXPECT_GE(t.passed, 416u);
}

}  // namespace
}  // namespace racer::check
