// Integer data from int32 inputs: symbolic integer arithmetic is exact where the declared
// input ranges prove that no partial result leaves the type (exec/int_bounds.cpp), and wraps
// around elsewhere (exec/symbolic_wrap.cpp). redux.sync add/min/max fold symbolic lanes exactly,
// and/or of 0/1 flags as their min/max (sem/warp.cpp).
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// Lane tid of CTA r holds x[r * 32 + tid] in %r11; `reduce` leaves the row's result in %r12,
// which lane 0 stores to out[r].
std::string per_lane(std::string_view name, std::string_view reduce) {
  return kernel(name, 2, std::string(R"(
  mul.lo.u32 %r10, %r1, 32;
  add.u32 %r10, %r10, %r0;
  mul.wide.u32 %rd10, %r10, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r11, [%rd11];
)") + std::string(reduce) + R"(
  setp.ne.u32 %p1, %r0, 0;
  @%p1 bra DONE;
  mul.wide.u32 %rd12, %r1, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.s32 [%rd13], %r12;
DONE:
)");
}

// One thread per row: out[r] = fold of x[r * 32 + j] for j < `count` with `step` (reads the
// accumulator %r11 and the element %r14).
std::string row_loop(std::string_view name, std::string_view step, std::string_view count = "32") {
  return kernel(name, 2, std::string(R"(
  mul.lo.u32 %r10, %r1, 32;
  mul.wide.u32 %rd10, %r10, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r11, [%rd11];
  mov.u32 %r12, 1;
LOOP:
  add.u32 %r13, %r10, %r12;
  mul.wide.u32 %rd10, %r13, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r14, [%rd11];
  )") + std::string(step) + R"(
  add.u32 %r12, %r12, 1;
  setp.lt.u32 %p1, %r12, )" + std::string(count) + R"(;
  @%p1 bra LOOP;
  mul.wide.u32 %rd12, %r1, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.s32 [%rd13], %r11;
)");
}

Spec rows(std::string_view range) {
  return {.tensors = tensor("x", "[2, 32]", "i32", "input", range) + tensor("out", "[2]", "i32", "empty"),
          .a = {{"warp", R"({ read = "x" }, { write = "out" })", "[2]", "[32]"}},
          .b = {{"loop", R"({ read = "x" }, { write = "out" })", "[2]", "[1]"}}};
}

const std::string kReduxSum = per_lane("warp", "  redux.sync.add.s32 %r12, %r11, -1;");
const std::string kLoopSum = row_loop("loop", "add.s32 %r11, %r11, %r14;");

TEST_F(MachineTest, AnIntegerSumIsProvedWhereTheRangesKeepItInside) {
  // 32 terms of at most 2^26 - 1: every partial sum stays below 2^31.
  auto r = run(kReduxSum + kLoopSum, rows("range = [-67108863, 67108863]"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, AnIntegerSumThatMayOverflowWrapsAroundInBothPrograms) {
  // One more and 32 terms reach 2^31, which .s32 cannot hold: both programs wrap around
  // (exec/symbolic_wrap.cpp), the shuffle tree and the loop alike, and meet as one node.
  auto r = run(kReduxSum + kLoopSum, rows("range = [0, 67108864]"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // No declared range: the full int32 range.
  auto full = run(kReduxSum + kLoopSum, rows(""));
  EXPECT_EQ(full.verdict, Verdict::Equivalent) << show(full);
  // A loop that misses a term is refuted, at a witness the replay confirms.
  auto missing = run(kReduxSum + row_loop("loop", "add.s32 %r11, %r11, %r14;", "31"), rows(""));
  EXPECT_EQ(missing.verdict, Verdict::Inequivalent) << show(missing);
  EXPECT_TRUE(missing.counterexample.has_value()) << show(missing);
}

TEST_F(MachineTest, SaturatingAndHighHalfArithmeticOnSymbolicIntegersStayRefused) {
  // What is not a residue mod 2^w (clamping, the high half of a product) is not modelled.
  auto sat = run(kReduxSum + row_loop("loop", "add.sat.s32 %r11, %r11, %r14;"), rows(""));
  EXPECT_EQ(sat.verdict, Verdict::Refused) << show(sat);
  EXPECT_NE(sat.reason.find("add.sat.s32"), std::string::npos) << sat.reason;
  auto hi = run(kReduxSum + row_loop("loop", "mul.hi.s32 %r11, %r11, %r14;"), rows(""));
  EXPECT_EQ(hi.verdict, Verdict::Refused) << show(hi);
  EXPECT_NE(hi.reason.find("mul.hi"), std::string::npos) << hi.reason;
}

TEST_F(MachineTest, AnIntegerSumMissingATermIsRefutedWithAWitness) {
  auto r = run(kReduxSum + row_loop("loop", "add.s32 %r11, %r11, %r14;", "31"), rows("range = [-1000, 1000]"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  EXPECT_TRUE(r.counterexample.has_value()) << show(r);
}

TEST_F(MachineTest, MinAndMaxOfFullRangeIntegersNeverOverflow) {
  // No range declared: min and max stay within their operands' range whatever they are.
  auto mx = run(per_lane("warp", "  redux.sync.max.s32 %r12, %r11, -1;") + row_loop("loop", "max.s32 %r11, %r11, %r14;"),
                rows(""));
  EXPECT_EQ(mx.verdict, Verdict::Equivalent) << show(mx);
  auto mn = run(per_lane("warp", "  redux.sync.min.s32 %r12, %r11, -1;") + row_loop("loop", "min.s32 %r11, %r11, %r14;"),
                rows(""));
  EXPECT_EQ(mn.verdict, Verdict::Equivalent) << show(mn);
  // min against max is refuted.
  auto wrong = run(per_lane("warp", "  redux.sync.min.s32 %r12, %r11, -1;") + row_loop("loop", "max.s32 %r11, %r11, %r14;"),
                   rows(""));
  EXPECT_EQ(wrong.verdict, Verdict::Inequivalent) << show(wrong);
}

TEST_F(MachineTest, BitwiseReductionsOfSymbolicIntegersAreRefused) {
  auto r = run(per_lane("warp", "  redux.sync.or.b32 %r12, %r11, -1;") + row_loop("loop", "or.b32 %r11, %r11, %r14;"),
               rows("range = [0, 7]"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
}

TEST_F(MachineTest, BitwiseReductionsOfFlagsAreTheirMinimumAndMaximum) {
  // Lanes that are 0 or 1 (a block's comparisons, Triton's all/any): and is the minimum, or the maximum.
  auto all = run(per_lane("warp", "  redux.sync.and.b32 %r12, %r11, -1;") + row_loop("loop", "min.s32 %r11, %r11, %r14;"),
                 rows("range = [0, 1]"));
  EXPECT_EQ(all.verdict, Verdict::Equivalent) << show(all);
  auto any = run(per_lane("warp", "  redux.sync.or.b32 %r12, %r11, -1;") + row_loop("loop", "max.s32 %r11, %r11, %r14;"),
                 rows("range = [0, 1]"));
  EXPECT_EQ(any.verdict, Verdict::Equivalent) << show(any);
  auto swapped = run(per_lane("warp", "  redux.sync.and.b32 %r12, %r11, -1;") + row_loop("loop", "max.s32 %r11, %r11, %r14;"),
                     rows("range = [0, 1]"));
  EXPECT_EQ(swapped.verdict, Verdict::Inequivalent) << show(swapped);
  auto x = run(per_lane("warp", "  redux.sync.xor.b32 %r12, %r11, -1;") + row_loop("loop", "xor.b32 %r11, %r11, %r14;"),
               rows("range = [0, 1]"));
  EXPECT_EQ(x.verdict, Verdict::Refused) << show(x);
}

// out[tid] = f(x[tid]) for an i8 input x: `body` reads %r10 and leaves f in %r11.
std::string from_i8(std::string_view name, std::string_view body) {
  return kernel(name, 2, std::string(R"(
  cvt.u64.u32 %rd10, %r0;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s8 %r10, [%rd11];
)") + std::string(body) + R"(
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.s32 [%rd13], %r11;
)");
}

TEST_F(MachineTest, WitnessesOfIntegerInputsStayInTheirDtype) {
  // An i8 with no declared range is at most 127: min(x, 127) is x. The decider once looked
  // for witnesses among all integers and refuted this with x = 348, which no i8 holds (the
  // shift and mask encodings are exact only within the dtype as well).
  const std::string args = R"({ read = "x" }, { write = "out" })";
  Spec s{.tensors = tensor("x", "[32]", "i8", "input") + tensor("out", "[32]", "i32", "empty"),
         .a = {{"plain", args}},
         .b = {{"clamped", args}}};
  auto r = run(from_i8("plain", "  mov.u32 %r11, %r10;") + from_i8("clamped", "  min.s32 %r11, %r10, 127;"), s);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  auto lower = run(from_i8("plain", "  mov.u32 %r11, %r10;") + from_i8("clamped", "  min.s32 %r11, %r10, 100;"), s);
  EXPECT_EQ(lower.verdict, Verdict::Inequivalent) << show(lower);
  EXPECT_TRUE(lower.counterexample.has_value()) << show(lower);
}

}  // namespace
}  // namespace racer::check::testing
