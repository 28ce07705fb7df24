// Integer choices made by comparisons of float data under bit-level instructions
// (exec/choice_paths.hpp): nvcc's `x > 0 ? 2i : 2i + 1` inserts the comparison's bit with bfi, a
// binary search takes its midpoint as (lo & hi) + ((lo ^ hi) >> 1). Each instruction runs once per
// path of its operands' decisions, so these meet the same choices written with selp and add; a
// wrong comparison is refuted. Operands that are symbolic other than as choices stay refused.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kTensors = R"(x = { shape = [8], dtype = "f32", init = "input", range = [-1, 1] }
out = { shape = [8], dtype = "i32", init = "empty" }
)";
const std::string kArgs = R"({ read = "x" }, { write = "out" })";

// out[tid] = `pick`, computed from %f1 = x[tid] and %r4 = 2 tid into %r6; p0 = x, p1 = out.
std::string pick_kernel(std::string_view name, std::string_view pick) {
  return kernel(name, 2, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  shl.b32 %r4, %r0, 1;
)") + std::string(pick) + R"(
  add.s64 %rd12, %rd1, %rd10;
  st.global.u32 [%rd12], %r6;
)");
}

// nvcc's form: the comparison's outcome as a 0/1 integer, inserted as bit 0 of 2 tid.
const char* kBfi = R"(
  setp.gtu.f32 %p1, %f1, 0f00000000;
  selp.u32 %r5, 0, 1, %p1;
  bfi.b32 %r6, %r5, %r4, 0, 1;)";
const char* kAdd = R"(
  setp.le.f32 %p1, %f1, 0f00000000;
  selp.u32 %r5, 1, 0, %p1;
  add.s32 %r6, %r4, %r5;)";
const char* kAddStrict = R"(
  setp.lt.f32 %p1, %f1, 0f00000000;
  selp.u32 %r5, 1, 0, %p1;
  add.s32 %r6, %r4, %r5;)";

TEST_F(MachineTest, ABitInsertedFromAComparisonMeetsTheSameChoiceAdded) {
  auto r = run(pick_kernel("pick_bfi", kBfi) + pick_kernel("pick_add", kAdd),
               {.tensors = kTensors, .a = {{"pick_bfi", kArgs}}, .b = {{"pick_add", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, ABitInsertedFromTheWrongComparisonIsRefutedAtZero) {
  auto r = run(pick_kernel("pick_bfi", kBfi) + pick_kernel("pick_strict", kAddStrict),
               {.tensors = kTensors, .a = {{"pick_bfi", kArgs}}, .b = {{"pick_strict", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

// Three steps of a binary search over [0, 16) for x * 16: the midpoint of two choices taken with
// and/xor/shr (`and`) or with add and a signed halving (`div`).
std::string search(std::string_view name, bool bits) {
  std::string body = "  mov.u32 %r10, 0;\n  mov.u32 %r11, 16;\n  mul.f32 %f2, %f1, 0f41800000;\n";
  for (int s = 0; s < 3; ++s) {
    body += bits ? "  and.b32 %r12, %r10, %r11;\n  xor.b32 %r13, %r10, %r11;\n  shr.u32 %r14, %r13, 1;\n  add.s32 %r15, %r12, %r14;\n"
                 : "  add.s32 %r12, %r10, %r11;\n  shr.u32 %r13, %r12, 31;\n  add.s32 %r14, %r12, %r13;\n  shr.s32 %r15, %r14, 1;\n";
    body += "  cvt.rn.f32.s32 %f3, %r15;\n  setp.lt.f32 %p1, %f2, %f3;\n  selp.b32 %r11, %r15, %r11, %p1;\n  selp.b32 %r10, %r10, %r15, %p1;\n";
  }
  body += "  mov.u32 %r6, %r10;";
  return pick_kernel(name, body);
}

TEST_F(MachineTest, ABinarySearchsMidpointsTakenWithAndAndXorMeetTheHalvedSums) {
  auto r = run(search("search_bits", true) + search("search_div", false),
               {.tensors = kTensors, .a = {{"search_bits", kArgs}}, .b = {{"search_div", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, BitsOfIntegerDataThatIsNoChoiceStayRefused) {
  // The bits of an integer converted from the float itself: not a choice among constants.
  const char* converted = R"(
  cvt.rzi.s32.f32 %r5, %f1;
  xor.b32 %r6, %r5, %r4;)";
  auto r = run(pick_kernel("xor_converted", converted) + pick_kernel("pick_add", kAdd),
               {.tensors = kTensors, .a = {{"xor_converted", kArgs}}, .b = {{"pick_add", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("xor.b32"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
