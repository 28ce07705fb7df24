// The retest policy: always / if a named subsystem changed / once per major version, and an
// unknown class re-run to be safe.
#include <gtest/gtest.h>

#include "contract/retest.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

bool retested(const std::vector<RetestEntry>& plan, const std::string& id) {
  for (const auto& e : plan)
    if (e.contract == id) return e.retest;
  ADD_FAILURE() << id << " missing from the plan";
  return false;
}

const std::vector<std::string> kAll = {"C-PRC-01", "C-PRC-02", "C-PRC-03", "C-PRC-04", "C-ORD-01", "C-ORD-02",
                                       "C-ORD-03", "C-CMP-01", "C-CMP-02", "C-CMP-03", "C-EXC-01", "C-EXC-02"};

TEST(ContractRetest, MinorUpgradeWithoutNamedSubsystems) {
  auto plan = retest_plan(kAll, {}, false);
  for (const char* id : {"C-PRC-01", "C-PRC-03", "C-ORD-01", "C-CMP-02", "C-EXC-01", "C-EXC-02"}) EXPECT_TRUE(retested(plan, id)) << id;
  for (const char* id : {"C-PRC-02", "C-PRC-04", "C-CMP-01", "C-ORD-02", "C-ORD-03", "C-CMP-03"}) EXPECT_FALSE(retested(plan, id)) << id;
}

TEST(ContractRetest, NamedSubsystemPullsInItsClasses) {
  auto plan = retest_plan(kAll, {"math_library"}, false);
  EXPECT_TRUE(retested(plan, "C-PRC-02"));
  EXPECT_FALSE(retested(plan, "C-PRC-04"));
  plan = retest_plan(kAll, {"fusion"}, false);
  EXPECT_TRUE(retested(plan, "C-CMP-01"));
  EXPECT_FALSE(retested(plan, "C-PRC-02"));
}

TEST(ContractRetest, MajorVersionRetestsEverything) {
  for (const auto& e : retest_plan(kAll, {}, true)) EXPECT_TRUE(e.retest) << e.contract;
}

TEST(ContractRetest, UnknownClassIsAlwaysRetestedAndSuffixesKeepTheirClass) {
  auto plan = retest_plan({"C-ATT-NUM", "C-ORD-02-ATOMIC"}, {}, false);
  EXPECT_TRUE(plan[0].retest);
  EXPECT_FALSE(plan[1].retest);  // C-ORD-02's rule: once per major version
}

TEST(ContractRetest, UnknownSubsystemIsBadInput) {
  try {
    retest_plan(kAll, {"kernel_fusion"}, false);
    FAIL() << "accepted an unknown subsystem";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_NE(std::string(e.what()).find("unknown subsystem 'kernel_fusion'"), std::string::npos);
  }
}

}  // namespace
}  // namespace racer::contract
