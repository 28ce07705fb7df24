// popc of flags packed into a word (exec/bit_count_cases.cpp): Triton counts a thread's
// booleans by or'ing selp'd masks that share bits (-1 shifted) and masking the word; the count
// is taken per outcome of the flags, exact. A count of data itself stays refused.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out = popc of (x > 0) in bit 0 and (y > 0) in bits 1 and up (-1 << 1), masked by `mask`.
std::string packed_count(std::string_view name, std::string_view mask) {
  return binary_kernel(name, std::string(R"(
  setp.gt.f32 %p1, %f1, 0f00000000;
  setp.gt.f32 %p2, %f2, 0f00000000;
  selp.b32 %r10, 1, 0, %p1;
  selp.b32 %r11, -1, 0, %p2;
  shl.b32 %r12, %r11, 1;
  or.b32 %r13, %r10, %r12;
  and.b32 %r14, %r13, )") + std::string(mask) + R"(;
  popc.b32 %r15, %r14;
  cvt.rn.f32.u32 %f3, %r15;)");
}

// out = [x > 0] + [y > 0].
const std::string kFlagSum = binary_kernel("flag_sum", R"(
  setp.gt.f32 %p1, %f1, 0f00000000;
  setp.gt.f32 %p2, %f2, 0f00000000;
  selp.f32 %f4, 0f3F800000, 0f00000000, %p1;
  selp.f32 %f5, 0f3F800000, 0f00000000, %p2;
  add.f32 %f3, %f4, %f5;)");

TEST_F(MachineTest, APopcOfFlagsWhoseMasksShareBitsCountsTheFlags) {
  auto r = run(packed_count("packed", "3") + kFlagSum, binary_spec("packed", "flag_sum"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // Masked with 15, y's flag counts three bits.
  r = run(packed_count("packed", "15") + kFlagSum, binary_spec("packed", "flag_sum"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, APopcOfDataStaysRefused) {
  auto data = binary_kernel("data", R"(
  cvt.rzi.u32.f32 %r10, %f1;
  popc.b32 %r15, %r10;
  cvt.rn.f32.u32 %f3, %r15;)");
  auto r = run(data + kFlagSum, binary_spec("data", "flag_sum"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("popc"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
