// Addresses chosen by comparisons of float data (exec/indexed_address.hpp enumerate_choices): the
// index of the larger of two scores, an argmax's gather. Each path of the comparisons is a
// candidate cell read under its condition, so a gather by the winner's index meets the select of
// the two loaded values; a gather by the wrong index is refuted. Cells such an address may name
// are read only from tensors the launch cannot write and that hold values: anything else (a cell
// a path no input takes could name) is refused with the reason, as is a store at such an address.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[tid] = v[i], i = the index of the larger of s[2 tid], s[2 tid + 1] (`cmp` decides, `first`
// is taken where it holds); p0 = s, p1 = v, p2 = out.
std::string gather_winner(std::string_view name, std::string_view cmp, std::string_view store = "st.global.f32 [%rd14], %f3;") {
  return kernel(name, 3, std::string(R"(
  shl.b32 %r4, %r0, 1;
  add.s32 %r5, %r4, 1;
  mul.wide.u32 %rd10, %r4, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd11+4];
  setp.)") + std::string(cmp) + R"(.f32 %p1, %f1, %f2;
  selp.b32 %r6, %r4, %r5, %p1;
  mul.wide.s32 %rd12, %r6, 4;
  add.s64 %rd13, %rd1, %rd12;
  ld.global.f32 %f3, [%rd13];
  mul.wide.u32 %rd15, %r0, 4;
  add.s64 %rd14, %rd2, %rd15;
  )" + std::string(store) + "\n");
}

// The same choice made on the loaded values: both cells read, the larger score's value kept.
std::string select_values(std::string_view name) {
  return kernel(name, 3, R"(
  shl.b32 %r4, %r0, 1;
  mul.wide.u32 %rd10, %r4, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd11+4];
  add.s64 %rd13, %rd1, %rd10;
  ld.global.f32 %f4, [%rd13];
  ld.global.f32 %f5, [%rd13+4];
  setp.gt.f32 %p1, %f1, %f2;
  selp.f32 %f3, %f4, %f5, %p1;
  mul.wide.u32 %rd15, %r0, 4;
  add.s64 %rd14, %rd2, %rd15;
  st.global.f32 [%rd14], %f3;
)");
}

Spec winners(std::string_view v_access = R"({ read = "v" })") {
  const std::string args = std::string(R"({ read = "s" }, )") + std::string(v_access) + R"(, { write = "out" })";
  return {.tensors = tensor("s", "[8]", "f32", "input") + tensor("v", "[8]", "f32", "input") + tensor("out", "[4]", "f32", "empty"),
          .a = {{"a", args, "[1]", "[4]"}},
          .b = {{"b", args, "[1]", "[4]"}}};
}

TEST_F(MachineTest, AGatherByTheWinnersIndexMeetsTheSelectOfTheLoadedValues) {
  auto r = run(gather_winner("a", "gt") + select_values("b"), winners());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(MachineTest, AGatherByTheLosersIndexIsRefuted) {
  auto r = run(gather_winner("a", "le") + select_values("b"), winners());
  ASSERT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  EXPECT_TRUE(r.counterexample) << show(r);
}

TEST_F(MachineTest, AChosenAddressIntoATensorTheLaunchWritesIsRefused) {
  // v given for reading and writing: a path no input takes could name a cell another thread
  // writes, and a race reported there could be a false alarm.
  auto r = run(gather_winner("a", "gt") + select_values("b"), winners(R"({ readwrite = "v" })"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("reads at an address chosen by comparisons of data that may name"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("outside the tensors this launch only reads"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, AStoreAtAChosenAddressIsRefused) {
  // out[i] = v[i] at the winner's index: the store is refused, not guessed.
  auto r = run(gather_winner("a", "gt", "mul.wide.s32 %rd16, %r6, 4;\n  add.s64 %rd17, %rd2, %rd16;\n  st.global.f32 [%rd17], %f3;") +
                   select_values("b"),
               winners());
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("stores at an address chosen by comparisons of data"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
