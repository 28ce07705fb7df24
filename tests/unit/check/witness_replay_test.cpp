// Every witness the checker produces is real and replayed: the exact outputs differ there,
// and replaying both programs concretely (bit-exact IEEE emulation) classifies it.
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

// Every refutation is replayed before it is reported and carries what the replay showed; a
// manifest one's witness makes the emulated outputs differ beyond rounding, and the rest
// differ at rounding level at most.
TEST(WitnessReplay, EveryWitnessIsClassifiedByItsReplay) {
  size_t replayed = 0, manifest = 0;
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
    if (r.verdict != Verdict::Inequivalent && r.verdict != Verdict::EqualUpToRounding) continue;
    SCOPED_TRACE(f.stem().string());
    if (r.verdict == Verdict::EqualUpToRounding && !r.counterexample) {
      // Equal up to rounding with no witness: cells equal once negligible terms are dropped,
      // and none refuted.
      uint64_t negligible = 0, refuted = 0;
      for (const OutputStats& o : r.outputs) negligible += o.negligible, refuted += o.refuted;
      EXPECT_GT(negligible, 0u);
      EXPECT_EQ(refuted, 0u);
      continue;
    }
    ASSERT_TRUE(r.counterexample.has_value());
    const Counterexample& cx = *r.counterexample;
    ASSERT_TRUE(cx.value_a && cx.value_b);
    EXPECT_NE(*cx.value_a, *cx.value_b) << "a witness must separate the exact outputs";
    ASSERT_FALSE(cx.replay_kind.empty()) << "every refutation carries its replay classification";
    EXPECT_EQ(r.verdict == Verdict::EqualUpToRounding, cx.replay_kind == "rounding") << cx.replay;
    ReplayResult rep = replay(inst, cx.cell, cx.values);
    ASSERT_TRUE(rep.refusal.empty()) << rep.refusal;
    ASSERT_TRUE(rep.at_witness.has_value());
    if (cx.replay_kind == "not_replayed") {
      EXPECT_NE(cx.replay.find("not replayed"), std::string::npos) << cx.replay;  // limits or a refusal, said so
    } else if (cx.replay_kind == "manifest") {
      EXPECT_GT(rep.differing_count, 0u) << "a manifest witness replays to different outputs: " << cx.replay;
      ++manifest;
    } else if (rep.at_witness->bits_a != rep.at_witness->bits_b) {
      double a = rep.at_witness->a, b = rep.at_witness->b;
      EXPECT_LT(std::fabs(a - b), 1e-5 * std::max({std::fabs(a), std::fabs(b), 1.0}))
          << "not manifest, yet the replay differs beyond rounding: " << cx.replay;
    }
    ++replayed;
  }
  EXPECT_GE(replayed, 40u);
  EXPECT_GE(manifest, 40u);
}

}  // namespace
}  // namespace racer::check
