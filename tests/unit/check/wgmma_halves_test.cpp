// Triton's f16 accumulators (exec/async_registers.cpp): a wgmma accumulator split into its
// 16-bit halves before wgmma.wait_group is read as ptxas compiles it (the halves stay pending
// with it); using a half before the wait is a race, and a second wgmma writing the accumulator
// while its halves wait is refused. The kernels are tests/cases/kernels/tc/tc.cu's
// wgmma_tile_f16acc, cases t_tc_22 and t_tc_23.
#include <gtest/gtest.h>

#include "check/check.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

instance::Instance with_entry(const std::string& entry) {
  instance::Instance inst =
      instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/cases/t_tc_22_wgmma_f16_acc_unpacked_before_wait.toml");
  inst.a.launches.at(0).entry = entry;
  return inst;
}

bool has_race(const CheckResult& r) {
  for (const exec::Defect& d : r.defects)
    if (d.kind == exec::DefectKind::Race) return true;
  return false;
}

TEST(WgmmaHalves, HalvesUnpackedBeforeTheWaitAreTheAccumulatorsAfterIt) {
  CheckResult r = check_instance(with_entry("mm_wgmma_f16acc"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.reason;
  EXPECT_FALSE(has_race(r));
  bool noted = false;
  for (const exec::Note& n : r.notes) noted |= n.message.find("read as ptxas compiles it") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(WgmmaHalves, AHalfUsedBeforeTheWaitIsARace) {
  CheckResult r = check_instance(with_entry("mm_wgmma_f16acc_early_use"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << r.reason;
  EXPECT_TRUE(has_race(r));
}

TEST(WgmmaHalves, AWgmmaWritingTheAccumulatorWhileItsHalvesWaitIsRefused) {
  CheckResult r = check_instance(with_entry("mm_wgmma_f16acc_rewritten"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << r.reason;
  EXPECT_NE(r.reason.find("halves were unpacked before the wgmma.wait_group"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check
