// An f16 value shuffled as 32 bits (sem/move.cpp): Triton's tl.sum over f16 widens each partial
// sum with cvt.u32.u16, shuffles the word and narrows it back with cvt.u16.u32. The half rides
// as the low lane of the word; a sign extension would read its sign bit and stays refused.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[i] = x[i ^ lanes] + y[i], x shuffled as a half widened to 32 bits by `widen`.
std::string half_shuffled(std::string_view name, std::string_view widen, int lanes) {
  std::string k = binary_kernel(name, "cvt.rn.f16.f32 %h1, %f1;\n  " + std::string(widen) +
                                          " %r10, %h1;\n  shfl.sync.bfly.b32 %r11, %r10, " + std::to_string(lanes) +
                                          ", 31, -1;\n  cvt.u16.u32 %h2, %r11;\n  cvt.f32.f16 %f4, %h2;\n  add.f32 %f3, %f4, %f2;");
  const std::string at = "  .reg .b64 %rd<64>;\n";
  return k.replace(k.find(at), at.size(), at + "  .reg .b16 %h<8>;\n");
}

std::string f32_shuffled(std::string_view name) {
  return binary_kernel(name, R"(mov.b32 %r10, %f1;
  shfl.sync.bfly.b32 %r11, %r10, 1, 31, -1;
  mov.b32 %f4, %r11;
  add.f32 %f3, %f4, %f2;)");
}

TEST_F(MachineTest, AHalfWidenedToAWordIsShuffledAndNarrowedBack) {
  auto r = run(half_shuffled("half", "cvt.u32.u16", 1) + f32_shuffled("ref"), binary_spec("half", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  auto wrong_lane = run(half_shuffled("half", "cvt.u32.u16", 2) + f32_shuffled("ref"), binary_spec("half", "ref"));
  EXPECT_EQ(wrong_lane.verdict, Verdict::Inequivalent) << show(wrong_lane);
}

TEST_F(MachineTest, AHalfSignExtendedToAWordIsRefused) {
  auto r = run(half_shuffled("half", "cvt.s32.s16", 1) + f32_shuffled("ref"), binary_spec("half", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
