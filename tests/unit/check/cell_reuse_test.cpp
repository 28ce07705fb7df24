// Deciding cells at the instance level: one decision per shape class, one refuted cell per
// output unless all_cells, and the skipped cells reported as such (never as proved).
#include <gtest/gtest.h>

#include <algorithm>

#include "check/check.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

instance::Instance load_case(const std::string& name) {
  return instance::load_instance(std::string(RACER_CORPUS_DIR) + "/cases/" + name + ".toml");
}

uint64_t count(const OutputStats& o, CellOutcome k) {
  return static_cast<uint64_t>(std::count(o.outcomes.begin(), o.outcomes.end(), k));
}

TEST(CellReuse, EveryCellOfACorrectSoftmaxIsOneDecision) {
  // 4 rows of 64: each cell reads its whole row, its own input in its own place of the sums.
  CheckResult r = check_instance(load_case("r06_softmax_triton_vs_naive"));
  ASSERT_EQ(r.verdict, Verdict::Equivalent) << r.reason;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].proved, 256u);
  EXPECT_EQ(r.reuse.cells + r.reuse.identical, 256u);
  EXPECT_EQ(r.reuse.classes, 1u);
  ASSERT_FALSE(r.reuse.largest.empty());
  EXPECT_EQ(r.reuse.largest[0].cells, 256u);
  EXPECT_EQ(r.reuse.largest[0].outcome, "proved");
}

TEST(CellReuse, ARefutedOutputStopsAtItsFirstRefutedCell) {
  CheckResult r = check_instance(load_case("r07_softmax_wrong_axis"));
  ASSERT_EQ(r.verdict, Verdict::Inequivalent) << r.reason;
  const OutputStats& o = r.outputs.at(0);
  EXPECT_EQ(o.refuted, 1u);
  EXPECT_EQ(o.proved, 0u);
  EXPECT_EQ(o.skipped, 255u);
  EXPECT_EQ(count(o, CellOutcome::Skipped), 255u);
  EXPECT_EQ(o.proved + o.refuted + o.unknown + o.skipped, o.cells);
  ASSERT_TRUE(r.counterexample);
  EXPECT_EQ(r.counterexample->replay_kind, "manifest");
}

TEST(CellReuse, AllCellsDecidesTheRestOfARefutedOutput) {
  CheckOptions options;
  options.all_cells = true;
  CheckResult r = check_instance(load_case("r07_softmax_wrong_axis"), options);
  ASSERT_EQ(r.verdict, Verdict::Inequivalent) << r.reason;
  const OutputStats& o = r.outputs.at(0);
  EXPECT_EQ(o.refuted, 256u);
  EXPECT_EQ(o.skipped, 0u);
  EXPECT_EQ(count(o, CellOutcome::Skipped), 0u);
  // Every cell is a column's softmax against a row's: one shape, one decision.
  EXPECT_EQ(r.reuse.classes, 1u);
  EXPECT_EQ(r.reuse.cells, 256u);
}

TEST(CellReuse, WithoutShapeReductionEveryCellIsDecidedAndTheResultIsTheSame) {
  CheckOptions off;
  off.shape_reduction = false;
  CheckResult r = check_instance(load_case("r06_softmax_triton_vs_naive"), off);
  ASSERT_EQ(r.verdict, Verdict::Equivalent) << r.reason;
  EXPECT_EQ(r.outputs.at(0).proved, 256u);
  EXPECT_EQ(r.reuse.classes, 0u);
  EXPECT_EQ(r.reuse.cells, 0u);
}

TEST(CellReuse, ARoundingLevelRefutationDecidesTheSkippedCellsAfterAll) {
  // Equal up to rounding speaks for every cell, so no cell may stay skipped behind it; the
  // result is the one all_cells gives.
  instance::Instance inst = instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/cases/t_flt_06_mul_tenth_vs_div_ten.toml");
  CheckOptions all;
  all.all_cells = true;
  for (const CheckResult& r : {check_instance(inst), check_instance(inst, all)}) {
    ASSERT_EQ(r.verdict, Verdict::EqualUpToRounding) << r.reason;
    const OutputStats& o = r.outputs.at(0);
    EXPECT_EQ(o.skipped, 0u);
    EXPECT_EQ(count(o, CellOutcome::Skipped), 0u);
    EXPECT_EQ(o.refuted, o.cells);
  }
}

}  // namespace
}  // namespace racer::check
