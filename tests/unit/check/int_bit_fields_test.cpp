// Shifts and masks of integer data from inputs (exec/symbolic_bit_views.cpp): shr by a
// constant is floor(e / 2^n) (a quotient where e is a multiple, else one step per quotient e's
// bounds allow), and with a contiguous mask a difference of remainders, or and xor of a 0/1
// flag with a constant exact. Refused where the steps would be too many, or the mask or
// operation has no such reading.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[tid] = f(code[tid]) over i32 tensors: `body` reads %r10 and leaves f in %r11.
std::string int_unary(std::string_view name, std::string_view body) {
  return kernel(name, 2, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r10, [%rd11];
)") + std::string(body) + R"(
  add.s64 %rd12, %rd1, %rd10;
  st.global.s32 [%rd12], %r11;
)");
}

// The number of k in 1..3 with code >= 16 k, in %r11 (code >> 4 for code in [0, 63]).
const std::string kSixteens = R"(
  setp.ge.s32 %p1, %r10, 16;
  selp.u32 %r20, 1, 0, %p1;
  setp.ge.s32 %p2, %r10, 32;
  selp.u32 %r21, 1, 0, %p2;
  setp.ge.s32 %p3, %r10, 48;
  selp.u32 %r22, 1, 0, %p3;
  add.s32 %r23, %r20, %r21;
  add.s32 %r11, %r23, %r22;)";

Spec spec(std::string_view range) {
  const std::string args = R"({ read = "code" }, { write = "out" })";
  return {.tensors = tensor("code", "[32]", "i32", "input", range) + tensor("out", "[32]", "i32", "empty"),
          .a = {{"bits", args}},
          .b = {{"ref", args}}};
}

TEST_F(MachineTest, AShiftRightIsAFloorQuotient) {
  auto r = run(int_unary("bits", "  shr.u32 %r11, %r10, 4;") + int_unary("ref", kSixteens), spec("range = [0, 63]"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // By 3 it is another function.
  auto wrong = run(int_unary("bits", "  shr.u32 %r11, %r10, 3;") + int_unary("ref", kSixteens), spec("range = [0, 63]"));
  EXPECT_EQ(wrong.verdict, Verdict::Inequivalent) << show(wrong);
}

TEST_F(MachineTest, AContiguousMaskIsARemainder) {
  // code & 15 = code - 16 (code >> 4); code & 0x30 = 16 (code >> 4).
  const std::string low_ref = kSixteens + "\n  mul.lo.s32 %r24, %r11, 16;\n  sub.s32 %r11, %r10, %r24;";
  auto low = run(int_unary("bits", "  and.b32 %r11, %r10, 15;") + int_unary("ref", low_ref), spec("range = [0, 63]"));
  EXPECT_EQ(low.verdict, Verdict::Equivalent) << show(low);
  const std::string mid_ref = kSixteens + "\n  mul.lo.s32 %r11, %r11, 16;";
  auto mid = run(int_unary("bits", "  and.b32 %r11, %r10, 48;") + int_unary("ref", mid_ref), spec("range = [0, 63]"));
  EXPECT_EQ(mid.verdict, Verdict::Equivalent) << show(mid);
  auto wrong = run(int_unary("bits", "  and.b32 %r11, %r10, 7;") + int_unary("ref", low_ref), spec("range = [0, 63]"));
  EXPECT_EQ(wrong.verdict, Verdict::Inequivalent) << show(wrong);
}

TEST_F(MachineTest, ASignShiftedDownLogicallyIsAFlag) {
  // x >= 0 as nvcc writes it: (x >> 31, logical) ^ 1, for negative x too.
  auto r = run(int_unary("bits", "  shr.u32 %r12, %r10, 31;\n  xor.b32 %r11, %r12, 1;") +
                   int_unary("ref", "  setp.ge.s32 %p1, %r10, 0;\n  selp.u32 %r11, 1, 0, %p1;"),
               spec("range = [-100, 100]"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // An arithmetic shift gives -1 for negative x, not 1.
  auto arith = run(int_unary("bits", "  shr.s32 %r11, %r10, 31;") +
                       int_unary("ref", "  setp.lt.s32 %p1, %r10, 0;\n  selp.u32 %r11, 1, 0, %p1;"),
                   spec("range = [-100, 100]"));
  EXPECT_EQ(arith.verdict, Verdict::Inequivalent) << show(arith);
}

TEST_F(MachineTest, AShiftOverManyQuotientsIsReadThroughTheResidue) {
  // 25,000 quotients by 4, too many steps: floor(x / 4) is (x - wrap_u2(x)) / 4. Masking the low
  // bits off first gives the same quotient; the value itself does not.
  const std::string masked_first = "  and.b32 %r12, %r10, 3;\n  sub.u32 %r13, %r10, %r12;\n  shr.u32 %r11, %r13, 2;";
  auto same = run(int_unary("bits", "  shr.u32 %r11, %r10, 2;") + int_unary("ref", masked_first), spec("range = [0, 100000]"));
  EXPECT_EQ(same.verdict, Verdict::Equivalent) << show(same);
  auto wide = run(int_unary("bits", "  shr.u32 %r11, %r10, 2;") + int_unary("ref", "  mov.u32 %r11, %r10;"),
                  spec("range = [0, 100000]"));
  EXPECT_EQ(wide.verdict, Verdict::Inequivalent) << show(wide);
  EXPECT_TRUE(wide.counterexample.has_value()) << show(wide);
}

TEST_F(MachineTest, ShiftsAndMasksWithoutAnExactReadingAreRefused) {
  // A mask with a gap, and xor with a value that is not a flag.
  auto gap = run(int_unary("bits", "  and.b32 %r11, %r10, 5;") + int_unary("ref", "  mov.u32 %r11, %r10;"), spec("range = [0, 63]"));
  EXPECT_EQ(gap.verdict, Verdict::Refused) << show(gap);
  auto x = run(int_unary("bits", "  xor.b32 %r11, %r10, 1;") + int_unary("ref", "  mov.u32 %r11, %r10;"), spec("range = [0, 2]"));
  EXPECT_EQ(x.verdict, Verdict::Refused) << show(x);
}

}  // namespace
}  // namespace racer::check::testing
