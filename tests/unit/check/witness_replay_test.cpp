// Every witness the checker produces is real: replaying both programs concretely at the
// witness (bit-exact IEEE emulation) shows the outputs differ at the witness cell, unless
// the exact difference is below f32 resolution (then the exact values still differ).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "check/check.hpp"
#include "check/replay.hpp"
#include "instance/load.hpp"
#include "support/error.hpp"

namespace racer::check {
namespace {

std::vector<std::filesystem::path> all_cases() {
  std::vector<std::filesystem::path> files;
  for (std::string dir : {std::string(RACER_CORPUS_DIR) + "/cases", std::string(RACER_SOURCE_DIR) + "/tests/cases"})
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(WitnessReplay, EveryWitnessShowsTheOutputsDiffer) {
  size_t replayed = 0;
  for (const auto& f : all_cases()) {
    instance::Instance inst;
    try {
      inst = instance::load_instance(f.string());
    } catch (const Error&) {
      continue;
    }
    CheckOptions options;
    options.limits.max_seconds = 20;  // witnesses, not hard cases, are what this test is about
    CheckResult r = check_instance(inst, options);
    if (r.verdict != Verdict::Inequivalent) continue;
    SCOPED_TRACE(f.stem().string());
    ASSERT_TRUE(r.counterexample.has_value());
    const Counterexample& cx = *r.counterexample;
    ASSERT_TRUE(cx.value_a && cx.value_b);
    EXPECT_NE(*cx.value_a, *cx.value_b) << "a witness must separate the exact outputs";
    ReplayResult rep = replay(inst, cx.cell, cx.values);
    ASSERT_TRUE(rep.refusal.empty()) << rep.refusal;
    ASSERT_TRUE(rep.at_witness.has_value());
    if (rep.at_witness->bits_a == rep.at_witness->bits_b) {
      // Only a difference below float resolution may round away (relative to the outputs'
      // magnitude, or to 1 for outputs near zero such as log(1 + 1e-8) against log(1)).
      double a = cx.value_a->get_d(), b = cx.value_b->get_d();
      EXPECT_LT(std::fabs(a - b), 1e-6 * std::max({std::fabs(a), std::fabs(b), 1.0}))
          << "replay shows equal bits although the exact outputs differ by more than rounding";
    }
    ++replayed;
  }
  EXPECT_GE(replayed, 40u);
}

}  // namespace
}  // namespace racer::check
