// How decided cells and defects combine into the instance's verdict.
#include <gtest/gtest.h>

#include "check/result.hpp"

namespace racer::check {
namespace {

TEST(VerdictRule, ARefutedCellSettlesTheVerdictEvenWhenALimitStoppedDeciding) {
  VerdictAndReason v = combine_cells({false, true, true, "deciding stopped: time limit of 20 s reached"});
  EXPECT_EQ(v.verdict, Verdict::Inequivalent);
  EXPECT_NE(v.reason.find("time limit"), std::string::npos);
  EXPECT_EQ(combine_cells({false, true, false, ""}).verdict, Verdict::Inequivalent);
}

TEST(VerdictRule, ARaceOverridesEveryCell) {
  EXPECT_EQ(combine_cells({true, true, false, ""}).verdict, Verdict::Unknown);
  EXPECT_EQ(combine_cells({true, false, false, ""}).verdict, Verdict::Unknown);
}

TEST(VerdictRule, OnlyACompleteRunOfProvedCellsIsEquivalent) {
  EXPECT_EQ(combine_cells({false, false, false, ""}).verdict, Verdict::Equivalent);
  EXPECT_EQ(combine_cells({false, false, false, "deciding stopped: memory limit"}).verdict, Verdict::Unknown);
  EXPECT_EQ(combine_cells({false, false, true, ""}).verdict, Verdict::Unknown);
}

TEST(VerdictRule, CellsEqualUpToNegligibleTermsAreEqualUpToRoundingNeverEquivalent) {
  VerdictAndReason v = combine_cells({false, false, false, "", true});
  EXPECT_EQ(v.verdict, Verdict::EqualUpToRounding);
  EXPECT_NE(v.reason.find("e^-1000"), std::string::npos);
  // Anything else undecided, refuted or racing still speaks first.
  EXPECT_EQ(combine_cells({false, false, true, "", true}).verdict, Verdict::Unknown);
  EXPECT_EQ(combine_cells({false, true, false, "", true}).verdict, Verdict::Inequivalent);
  EXPECT_EQ(combine_cells({true, false, false, "", true}).verdict, Verdict::Unknown);
  EXPECT_EQ(combine_cells({false, false, false, "deciding stopped: memory limit", true}).verdict, Verdict::Unknown);
}

}  // namespace
}  // namespace racer::check
