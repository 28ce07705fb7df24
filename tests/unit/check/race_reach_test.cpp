// A race leaves the cells it reaches to the schedule, not the others: a refuted cell no race
// reaches (through registers or through memory, in any launch) settles the verdict as
// inequivalent; one a race reaches leaves it Unknown.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// Eight threads: y[t] = factor * x[t], and thread `stray` also stores x[stray] into y[cell]
// (racing with the thread that owns that cell).
std::string stray_store(std::string_view name, std::string_view factor, unsigned stray, unsigned cell) {
  return kernel(name, 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mul.f32 %f2, %f1, )" + std::string(factor) + R"(;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
  setp.eq.u32 %p1, %r0, )" + std::to_string(stray) + R"(;
  @%p1 st.global.f32 [%rd1+)" + std::to_string(4 * cell) + R"(], %f1;
)");
}

constexpr const char* kTwice = "0f40000000", *kThrice = "0f40400000";

Spec one_launch(std::string_view a) {
  const std::string args = R"({ read = "x" }, { write = "y" })";
  return {.tensors = tensor("x", "[8]", "f32", "input", "range = [-4, 4]") + tensor("y", "[8]", "f32", "empty"),
          .a = {{std::string(a), args, "[1]", "[8]"}},
          .b = {{"twice", args, "[1]", "[8]"}},
          .outputs = R"("y")"};
}

bool has_race(const CheckResult& r) {
  for (const exec::Defect& d : r.defects)
    if (d.kind == exec::DefectKind::Race) return true;
  return false;
}

const std::string kReference = stray_store("twice", kTwice, 99, 0);  // (no thread 99: no stray store)

TEST_F(MachineTest, ARefutedCellNoRaceReachesSettlesTheVerdict) {
  // y[0] = 3 x[0] against 2 x[0]; the race is at y[7].
  auto r = run(stray_store("wrong", kThrice, 0, 7) + kReference, one_launch("wrong"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  EXPECT_TRUE(has_race(r)) << "the race is still reported: " << show(r);
  EXPECT_NE(r.reason.find("no race reaches y[0]"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, ARefutedCellARaceWroteStaysUnknown) {
  // Right factor, but thread 7 stores x[7] over y[0] (after thread 0 in the engine's order).
  auto r = run(stray_store("stray", kTwice, 7, 0) + kReference, one_launch("stray"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
}

TEST_F(MachineTest, WhereARaceReachesTheFirstRefutedCellALaterOneNoRaceReachesIsFound) {
  // y = 3 x against 2 x, and thread 7 stores x[7] over y[0]: y[0] is refuted first but raced;
  // y[1] differs whatever the schedule and carries the witness.
  auto r = run(stray_store("wrong", kThrice, 7, 0) + kReference, one_launch("wrong"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample) << show(r);
  EXPECT_EQ(r.counterexample->cell, "y[1]") << show(r);
  EXPECT_NE(r.reason.find("no race reaches y[1]"), std::string::npos) << r.reason;
}

// Launch 1 copies x into tmp (thread 7 also stores x[7] over tmp[0]); launch 2 scales tmp into y.
TEST_F(MachineTest, ARaceReachesACellThroughMemoryInALaterLaunch) {
  auto scale = [](std::string_view factor) {
    return kernel("scale", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mul.f32 %f2, %f1, )" + std::string(factor) + R"(;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)");
  };
  const std::string copy = stray_store("copy", "0f3F800000", 7, 0);
  auto spec_with = [](std::string stage_args) {
    const std::string args = R"({ read = "x" }, { write = "y" })";
    return Spec{.tensors = tensor("x", "[8]", "f32", "input", "range = [-4, 4]") + tensor("tmp", "[8]", "f32", "zeros") +
                           tensor("y", "[8]", "f32", "empty"),
                .a = {{"copy", stage_args, "[1]", "[8]"}, {"scale", R"({ read = "tmp" }, { write = "y" })", "[1]", "[8]"}},
                .b = {{"twice", args, "[1]", "[8]"}},
                .outputs = R"("y")"};
  };
  // y = 2 tmp, right but at y[0]: tmp[0] holds x[0] or x[7] as the schedule goes.
  auto r = run(copy + scale(kTwice) + kReference, spec_with(R"({ read = "x" }, { write = "tmp" })"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
  // y = 3 tmp: y[1] = 3 x[1] whatever the schedule.
  auto clean = run(copy + scale(kThrice) + kReference, spec_with(R"({ read = "x" }, { write = "tmp" })"));
  EXPECT_EQ(clean.verdict, Verdict::Inequivalent) << show(clean);
  EXPECT_NE(clean.reason.find("no race reaches y[1]"), std::string::npos) << clean.reason;
}

// Through shared memory: s[t] = x[t], and thread 1 also stores x[1] into s[0] (racing with thread 0),
// then a barrier and y[t] = factor * s[t]. y[0] reads the raced word; y[1] does not.
std::string staged_in_shared(std::string_view factor) {
  return kernel("staged", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mov.u32 %r10, sh;
  shl.b32 %r11, %r0, 2;
  add.s32 %r12, %r10, %r11;
  st.shared.f32 [%r12], %f1;
  setp.eq.u32 %p1, %r0, 1;
  @%p1 st.shared.f32 [%r10], %f1;
  bar.sync 0;
  ld.shared.f32 %f2, [%r12];
  mul.f32 %f3, %f2, )" + std::string(factor) + R"(;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f3;
)", "  .shared .align 4 .b8 sh[32];\n");
}

TEST_F(MachineTest, ARaceInSharedMemoryReachesTheCellsThatReadItAfterTheBarrier) {
  // Right factor: only y[0] differs, and it reads the raced word: Unknown.
  auto r = run(staged_in_shared(kTwice) + kReference, one_launch("staged"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
  // y = 3 s: y[1] differs whatever the schedule.
  auto wrong = run(staged_in_shared(kThrice) + kReference, one_launch("staged"));
  EXPECT_EQ(wrong.verdict, Verdict::Inequivalent) << show(wrong);
  EXPECT_NE(wrong.reason.find("no race reaches y[1]"), std::string::npos) << wrong.reason;
}

// y[t] = factor * z[t ^ 1]; with `store_back`, thread t then overwrites z[t] with it, racing with
// the load of its neighbour.
std::string neighbour(std::string_view name, std::string_view factor, bool store_back) {
  return kernel(name, 2, R"(
  xor.b32 %r4, %r0, 1;
  mul.wide.u32 %rd13, %r4, 4;
  add.s64 %rd14, %rd0, %rd13;
  ld.global.f32 %f1, [%rd14];
  mul.f32 %f2, %f1, )" + std::string(factor) + R"(;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)" + (store_back ? "  add.s64 %rd11, %rd0, %rd10;\n  st.global.f32 [%rd11], %f2;\n" : ""));
}

// A load racing with a store reaches every cell: Unknown.
TEST_F(MachineTest, ARacingLoadThatReachesTheRefutedCellStaysUnknown) {
  const std::string kernels = neighbour("neighbour", kThrice, true) + neighbour("twice_neighbour", kTwice, false);
  const std::string args = R"({ readwrite = "z" }, { write = "y" })";
  Spec s{.tensors = tensor("z", "[8]", "f32", "input", "range = [-4, 4]") + tensor("y", "[8]", "f32", "empty"),
         .a = {{"neighbour", args, "[1]", "[8]"}},
         .b = {{"twice_neighbour", R"({ read = "z" }, { write = "y" })", "[1]", "[8]"}},
         .outputs = R"("y")"};
  auto r = run(kernels, s);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
