// Integer tensors given by value drive addressing; ranges restrict the question; refusals
// and defects say where they happened.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kIdxArgs = R"({ read = "x" }, { read = "idx" }, { write = "out" })";

// out[g] = x[idx[g]] (idx read as signed 32-bit).
const std::string kGather = kernel("gather", 3, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd1, %rd10;
  ld.global.s32 %r10, [%rd11];
  mul.wide.s32 %rd12, %r10, 4;
  add.s64 %rd13, %rd0, %rd12;
  ld.global.f32 %f1, [%rd13];    // GATHER_LOAD
  add.s64 %rd14, %rd2, %rd10;
  st.global.f32 [%rd14], %f1;
)");

// out[tid] = x[ntid - 1 - tid].
const std::string kReverse = kernel("reverse", 3, R"(
  sub.s32 %r10, %r2, 1;
  sub.s32 %r10, %r10, %r0;
  mul.wide.u32 %rd12, %r10, 4;
  add.s64 %rd13, %rd0, %rd12;
  ld.global.f32 %f1, [%rd13];
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd14, %rd2, %rd10;
  st.global.f32 [%rd14], %f1;
)");

std::string gather_tensors(std::string_view idx_init, std::string_view idx_extra = {}) {
  return tensor("x", "[8]", "f32", "input") + tensor("idx", "[8]", "i32", idx_init, idx_extra) +
         tensor("out", "[8]", "f32", "empty");
}

TEST_F(MachineTest, IndexTensorByValueDrivesAGather) {
  auto r = run(kGather + kReverse, {.tensors = gather_tensors("{ values = [7, 6, 5, 4, 3, 2, 1, 0] }"),
                                    .a = {{"gather", kIdxArgs, "[2]", "[4]"}},
                                    .b = {{"reverse", kIdxArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // Two indices swapped: out[6] and out[7] differ.
  r = run(kGather + kReverse, {.tensors = gather_tensors("{ values = [7, 6, 5, 4, 3, 2, 0, 1] }"),
                               .a = {{"gather", kIdxArgs, "[2]", "[4]"}},
                               .b = {{"reverse", kIdxArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "out[6]");
}

TEST_F(MachineTest, NegativeIndicesThroughAnOffsetBase) {
  // x passed 4 elements in; idx = g - 4 reads x[g] again.
  std::string copy = kernel("copy3", 3, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd2, %rd10;
  st.global.f32 [%rd12], %f1;
)");
  auto r = run(kGather + copy, {.tensors = gather_tensors("{ values = [-4, -3, -2, -1, 0, 1, 2, 3] }"),
                                .a = {{"gather", R"({ read = "x", offset = 4 }, { read = "idx" }, { write = "out" })", "[1]", "[8]"}},
                                .b = {{"copy3", kIdxArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // One index too far: out[7] reads past the end of x.
  r = run(kGather + copy, {.tensors = gather_tensors("{ values = [-4, -3, -2, -1, 0, 1, 2, 4] }"),
                           .a = {{"gather", R"({ read = "x", offset = 4 }, { read = "idx" }, { write = "out" })", "[1]", "[8]"}},
                           .b = {{"copy3", kIdxArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  const exec::Defect* d = find(r, DefectKind::OobRead, 'a');
  ASSERT_NE(d, nullptr) << show(r);
  EXPECT_EQ(d->site.tid, (std::array<uint32_t, 3>{7, 0, 0}));
  EXPECT_EQ(d->site.ptx_line, line_of("GATHER_LOAD"));
}

TEST_F(MachineTest, AddressFromSymbolicIndexIsEnumeratedOverItsRange) {
  // A gather by an input index in [0, 7] is the select over x's cells (indexed_access_test.cpp):
  // not the reversal for every index, and refuted with an index in the range.
  auto r = run(kGather + kReverse, {.tensors = gather_tensors("input", "range = [0, 7]"),
                                    .a = {{"gather", kIdxArgs, "[1]", "[8]"}},
                                    .b = {{"reverse", kIdxArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // Without a range the index has 2^32 values: refused, naming the thread.
  r = run(kGather + kReverse, {.tensors = gather_tensors("input"),
                               .a = {{"gather", kIdxArgs, "[1]", "[8]"}},
                               .b = {{"reverse", kIdxArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("index values"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("thread (0,0,0)"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, RangeRestrictsTheQuestion) {
  // max(x, 0) equals x exactly when x >= 0.
  std::string relu = kernel("relu", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  max.f32 %f2, %f1, 0f00000000;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)");
  std::string copy = kernel("copy", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
)");
  const std::string args = R"({ read = "x" }, { write = "out" })";
  std::string out = tensor("out", "[4]", "f32", "empty");
  auto r = run(relu + copy, {.tensors = tensor("x", "[4]", "f32", "input", "range = [0, 4]") + out,
                             .a = {{"relu", args, "[1]", "[4]"}}, .b = {{"copy", args, "[1]", "[4]"}}});
  // Inside the box there is no witness. (The decider does not yet prove max(x, 0) = x from
  // the range, so Unknown is accepted here; Inequivalent would be wrong.)
  EXPECT_NE(r.verdict, Verdict::Inequivalent) << show(r);
  EXPECT_FALSE(r.counterexample.has_value()) << show(r);
  r = run(relu + copy, {.tensors = tensor("x", "[4]", "f32", "input", "range = [-1, 4]") + out,
                        .a = {{"relu", args, "[1]", "[4]"}}, .b = {{"copy", args, "[1]", "[4]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  ASSERT_FALSE(r.counterexample->values.empty());
  const WitnessValue& w = r.counterexample->values[0];
  EXPECT_EQ(w.kind, "input");
  EXPECT_LT(w.value, 0);
  EXPECT_GE(w.value, -1);
}

TEST_F(MachineTest, OutputCellOneProgramNeverWritesIsCompared) {
  // Program A skips the last cell; its unknown initial contents are not B's value.
  std::string copy_some = kernel("copy_some", 2, R"(
  sub.s32 %r10, %r2, 1;
  setp.eq.u32 %p1, %r0, %r10;
  @%p1 bra DONE;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
DONE:
)");
  std::string copy = kernel("copy", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
)");
  const std::string args = R"({ read = "x" }, { write = "out" })";
  std::string t = tensor("x", "[8]", "f32", "input") + tensor("out", "[8]", "f32", "empty");
  auto r = run(copy_some + copy, {.tensors = t, .a = {{"copy_some", args, "[1]", "[8]"}}, .b = {{"copy", args, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "out[7]");
  // Neither writing it leaves the same unknown contents on both sides.
  r = run(copy_some, {.tensors = t, .a = {{"copy_some", args, "[1]", "[8]"}}, .b = {{"copy_some", args, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

// Refusals and defect sites: launch label, CTA, thread, PTX line and instruction text.

// out[g] = x[g]; CTA 1's thread 3 also writes out[2 ntid], one past the end.
const std::string kOobAt = kernel("oob_at", 2, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
  setp.eq.u32 %p1, %r1, 1;
  setp.eq.u32 %p2, %r0, 3;
  and.pred %p3, %p1, %p2;
  @%p3 st.global.f32 [%rd1+64], %f1;    // OOB_SITE
)");
const std::string kCopyGrid = copy_kernel("copy_grid");
// CTA 1's thread 5 traps.
const std::string kTrapAt = kernel("trap_at", 2, R"(
  setp.eq.u32 %p1, %r1, 1;
  setp.eq.u32 %p2, %r0, 5;
  and.pred %p3, %p1, %p2;
  @%p3 trap;    // TRAP_SITE
)");

TEST_F(MachineTest, DefectSiteHasLaunchCtaThreadAndLine) {
  std::string t = tensor("x", "[16]", "f32", "input") + tensor("out", "[16]", "f32", "empty");
  const std::string args = R"({ read = "x" }, { write = "out" })";
  auto r = run(kOobAt + kCopyGrid, {.tensors = t,
                                    .a = {{"copy_grid", args, "[2]", "[8]"}, {"oob_at", args, "[2]", "[8]"}},
                                    .b = {{"copy_grid", args, "[2]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  ASSERT_EQ(r.defects.size(), 1u) << show(r);
  const exec::Defect& d = r.defects[0];
  EXPECT_EQ(d.kind, DefectKind::OobWrite);
  EXPECT_EQ(d.program, 'a');
  EXPECT_EQ(d.site.launch, 1u);
  EXPECT_EQ(d.site.ctaid, (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_EQ(d.site.tid, (std::array<uint32_t, 3>{3, 0, 0}));
  EXPECT_EQ(d.site.ptx_line, line_of("OOB_SITE"));
  EXPECT_NE(d.site.text.find("st.global.f32"), std::string::npos) << d.site.text;
  EXPECT_EQ(d.count, 1u);
  EXPECT_NE(d.memory.find("past the end of out"), std::string::npos) << d.memory;
}

TEST_F(MachineTest, RefusalNamesProgramLaunchCtaThreadLineAndInstruction) {
  std::string t = tensor("x", "[16]", "f32", "input") + tensor("out", "[16]", "f32", "empty");
  const std::string args = R"({ read = "x" }, { write = "out" })";
  auto r = run(kTrapAt + kCopyGrid, {.tensors = t,
                                     .a = {{"copy_grid", args, "[2]", "[8]"}, {"trap_at", args, "[2]", "[8]"}},
                                     .b = {{"copy_grid", args, "[2]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  for (const std::string& part : {std::string("program a"), std::string("launch 1 (trap_at)"), std::string("CTA (1,0,0)"),
                                  std::string("thread (5,0,0)"), "PTX line " + std::to_string(line_of("TRAP_SITE")),
                                  std::string("trap")})
    EXPECT_NE(r.reason.find(part), std::string::npos) << "'" << part << "' missing from: " << r.reason;
}

TEST_F(MachineTest, RefusalOfADeadlockNamesTheWaitingThreadAndBarrier) {
  std::string k = kernel("half_barrier", 2, R"(
  setp.lt.u32 %p1, %r0, 32;
  @%p1 bra FIRST;
  bar.sync 2;
  bra DONE;
FIRST:
  bar.sync 1;    // FIRST_BARRIER
DONE:
)");
  std::string t = tensor("x", "[64]", "f32", "input") + tensor("out", "[64]", "f32", "zeros");
  const std::string args = R"({ read = "x" }, { write = "out" })";
  auto r = run(k, {.tensors = t, .a = {{"half_barrier", args, "[1]", "[64]"}}, .b = {{"half_barrier", args, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  for (const std::string& part : {std::string("program a"), std::string("launch 0 (half_barrier)"), std::string("CTA (0,0,0)"),
                                  std::string("thread ("), "PTX line " + std::to_string(line_of("FIRST_BARRIER")),
                                  std::string("bar.sync 1")})
    EXPECT_NE(r.reason.find(part), std::string::npos) << "'" << part << "' missing from: " << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
