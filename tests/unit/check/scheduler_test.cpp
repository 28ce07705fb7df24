// The CTA scheduler: barriers order shared memory, a missing barrier is a race, barriers
// meet across code paths, and participants that can never meet are refused.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kShared = "  .shared .align 4 .b8 sh[1024];\n";
const std::string kXOut = R"({ read = "x" }, { write = "out" })";

// sh[tid] = x[tid]; barrier; out[tid] = sh[(tid + 1) % ntid].
std::string rotate_shared(std::string_view name) {
  return kernel(name, 2, R"(
  mov.u32 %r10, sh;
  shl.b32 %r11, %r0, 2;
  add.s32 %r12, %r10, %r11;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  st.shared.f32 [%r12], %f1;    // WRITE_SH
  bar.sync 0;
  add.s32 %r13, %r0, 1;
  rem.u32 %r13, %r13, %r2;
  shl.b32 %r14, %r13, 2;
  add.s32 %r15, %r10, %r14;
  ld.shared.f32 %f2, [%r15];    // READ_SH
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)", kShared);
}

// out[tid] = x[(tid + 1) % ntid], directly.
const std::string kRotateRef = gather_ref("rotate_ref", "\n  add.s32 %r13, %r0, 1;\n  rem.u32 %r13, %r13, %r2;");

std::string rotate_racy() { return replace_all(rotate_shared("rotate_racy"), "bar.sync 0;", ""); }

const std::string kXOut64 = tensor("x", "[64]", "f32", "input") + tensor("out", "[64]", "f32", "empty");

TEST_F(MachineTest, BarrierOrdersSharedProducerConsumer) {
  auto r = run(rotate_shared("rotate_shared") + kRotateRef, {.tensors = kXOut64,
                                 .a = {{"rotate_shared", kXOut, "[2]", "[64]"}},
                                 .b = {{"rotate_ref", kXOut, "[2]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].proved, 64u);
}

TEST_F(MachineTest, MissingBarrierIsARace) {
  auto r = run(rotate_racy() + kRotateRef, {.tensors = kXOut64,
                                            .a = {{"rotate_racy", kXOut, "[1]", "[64]"}},
                                            .b = {{"rotate_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_NE(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_NE(r.verdict, Verdict::Inequivalent) << "a verdict resting on the engine's interleaving\n" << show(r);
  const exec::Defect* d = find(r, DefectKind::Race, 'a');
  ASSERT_NE(d, nullptr) << show(r);
  EXPECT_EQ(find(r, DefectKind::Race, 'b'), nullptr) << show(r);
  EXPECT_NE(d->memory.find("shared"), std::string::npos) << d->memory;
  // The reads of not-yet-written neighbours only raced the writes: no uninitialized read stands.
  EXPECT_EQ(count(r, DefectKind::UninitRead), 0u) << show(r);
}

TEST_F(MachineTest, RaceInProgramBIsReportedAsB) {
  auto r = run(rotate_racy() + kRotateRef, {.tensors = kXOut64,
                                            .a = {{"rotate_ref", kXOut, "[1]", "[64]"}},
                                            .b = {{"rotate_racy", kXOut, "[1]", "[64]"}}});
  EXPECT_NE(r.verdict, Verdict::Equivalent) << show(r);
  ASSERT_NE(find(r, DefectKind::Race, 'b'), nullptr) << show(r);
  EXPECT_EQ(find(r, DefectKind::Race, 'a'), nullptr) << show(r);
}

TEST_F(MachineTest, RaceDefectSiteIsTheSecondAccess) {
  auto r = run(rotate_racy() + kRotateRef, {.tensors = kXOut64,
                                 .a = {{"rotate_racy", kXOut, "[1]", "[64]"}},
                                 .b = {{"rotate_ref", kXOut, "[1]", "[64]"}}});
  const exec::Defect* d = find(r, DefectKind::Race, 'a');
  ASSERT_NE(d, nullptr) << show(r);
  // Threads run in order until they block: thread 0 reads sh[1] first, thread 1's write
  // then conflicts with it; the defect is reported at the write, by thread 1.
  EXPECT_EQ(d->site.ptx_line, line_of("WRITE_SH")) << show(r);
  EXPECT_EQ(d->site.tid, (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_EQ(d->site.ctaid, (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_NE(d->detail.find("thread 0"), std::string::npos) << d->detail;
}

// Even and odd threads reach `bar.sync 0` at two different instructions; they must still meet.
const std::string kPathsBarrier = kernel("paths_barrier", 2, R"(
  mov.u32 %r10, sh;
  shl.b32 %r11, %r0, 2;
  add.s32 %r12, %r10, %r11;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  st.shared.f32 [%r12], %f1;
  xor.b32 %r13, %r0, 1;
  shl.b32 %r14, %r13, 2;
  add.s32 %r15, %r10, %r14;
  and.b32 %r16, %r0, 1;
  setp.eq.u32 %p1, %r16, 0;
  @%p1 bra EVEN;
  bar.sync 0;
  ld.shared.f32 %f2, [%r15];
  bra DONE;
EVEN:
  bar.sync 0;
  ld.shared.f32 %f3, [%r15];
  add.f32 %f2, %f3, %f3;
DONE:
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)", kShared);

// out[tid] = x[tid ^ 1] * (tid even ? 2 : 1).
const std::string kPathsRef = kernel("paths_ref", 2, R"(
  xor.b32 %r13, %r0, 1;
  mul.wide.u32 %rd10, %r13, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.f32 %f2, %f1, %f1;
  and.b32 %r16, %r0, 1;
  setp.eq.u32 %p1, %r16, 0;
  selp.f32 %f3, %f2, %f1, %p1;
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f3;
)");

TEST_F(MachineTest, BarriersFromDifferentPathsWithOneIdMeet) {
  auto r = run(kPathsBarrier + kPathsRef, {.tensors = kXOut64,
                                           .a = {{"paths_barrier", kXOut, "[1]", "[64]"}},
                                           .b = {{"paths_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

// The second warp returns early while the first waits at bar.sync.
const std::string kExitThenBarrier = kernel("exit_then_barrier", 2, R"(
  setp.ge.u32 %p1, %r0, 32;
  @%p1 ret;
  bar.sync 0;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
)");

TEST_F(MachineTest, ExitedThreadsWhileOthersWaitAtBarrierRefused) {
  auto r = run(kExitThenBarrier + kRotateRef, {.tensors = kXOut64,
                                               .a = {{"exit_then_barrier", kXOut, "[1]", "[64]"}},
                                               .b = {{"rotate_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("exited"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("32 threads"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("bar.sync 0"), std::string::npos) << r.reason;
}

// Warp 0 waits at barrier 1, warp 1 at barrier 2: a deadlock.
const std::string kTwoBarriers = kernel("two_barriers", 2, R"(
  setp.lt.u32 %p1, %r0, 32;
  @%p1 bra FIRST;
  bar.sync 2;
  bra DONE;
FIRST:
  bar.sync 1;
DONE:
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
)");

TEST_F(MachineTest, WarpsAtDifferentBarrierIdsDeadlockRefused) {
  auto r = run(kTwoBarriers + kRotateRef, {.tensors = kXOut64,
                                           .a = {{"two_barriers", kXOut, "[1]", "[64]"}},
                                           .b = {{"rotate_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("never meet"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("bar.sync"), std::string::npos) << r.reason;
  EXPECT_EQ(r.reason.find("exited"), std::string::npos) << r.reason;
}

// if/else on tid parity, reconverging before a barrier; the neighbour's branch result is read.
const std::string kParity = kernel("parity_branches", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  and.b32 %r10, %r0, 1;
  setp.eq.u32 %p1, %r10, 0;
  @!%p1 bra ODD;
  add.f32 %f2, %f1, %f1;
  bra JOIN;
ODD:
  add.f32 %f2, %f1, 0f3F800000;
JOIN:
  mov.u32 %r11, sh;
  shl.b32 %r12, %r0, 2;
  add.s32 %r13, %r11, %r12;
  st.shared.f32 [%r13], %f2;
  bar.sync 0;
  xor.b32 %r14, %r0, 1;
  shl.b32 %r15, %r14, 2;
  add.s32 %r16, %r11, %r15;
  ld.shared.f32 %f3, [%r16];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f3;
)", kShared);

// j = tid ^ 1; out[tid] = j even ? 2 x[j] : x[j] + 1.
const std::string kParityRef = kernel("parity_ref", 2, R"(
  xor.b32 %r14, %r0, 1;
  mul.wide.u32 %rd10, %r14, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.f32 %f2, %f1, %f1;
  add.f32 %f3, %f1, 0f3F800000;
  and.b32 %r10, %r14, 1;
  setp.eq.u32 %p1, %r10, 0;
  selp.f32 %f4, %f2, %f3, %p1;
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f4;
)");

TEST_F(MachineTest, DivergentIfElseReconverges) {
  std::string wrong = replace_all(replace_all(kParityRef, "parity_ref", "parity_wrong"), "%f2, %f3, %p1", "%f3, %f2, %p1");
  auto r = run(kParity + kParityRef + wrong, {.tensors = kXOut64,
                                               .a = {{"parity_branches", kXOut, "[1]", "[64]"}},
                                               .b = {{"parity_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  r = run(kParity + kParityRef + wrong, {.tensors = kXOut64,
                                          .a = {{"parity_branches", kXOut, "[1]", "[64]"}},
                                          .b = {{"parity_wrong", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "out[0]");
}

// out[tid] = x[0] + ... + x[tid]: a loop of tid + 1 trips, then a barrier all threads reach
// after different trip counts.
const std::string kPrefixUp = kernel("prefix_up", 2, R"(
  mov.f32 %f1, 0f00000000;
  mov.u32 %r10, 0;
LOOP:
  mul.wide.u32 %rd10, %r10, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f2, [%rd11];
  add.f32 %f1, %f1, %f2;
  add.s32 %r10, %r10, 1;
  setp.le.u32 %p1, %r10, %r0;
  @%p1 bra LOOP;
  bar.sync 0;
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f1;
)");

// The same sums, accumulated from x[tid] down to x[0].
const std::string kPrefixDown = kernel("prefix_down", 2, R"(
  mov.f32 %f1, 0f00000000;
  mov.u32 %r10, %r0;
LOOP:
  mul.wide.u32 %rd10, %r10, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f2, [%rd11];
  add.f32 %f1, %f2, %f1;
  setp.ne.u32 %p1, %r10, 0;
  sub.s32 %r10, %r10, 1;
  @%p1 bra LOOP;
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f1;
)");

TEST_F(MachineTest, LoopsWithTidDependentTripCounts) {
  std::string wrong = replace_all(replace_all(kPrefixUp, "prefix_up", "prefix_short"), "setp.le.u32", "setp.lt.u32");
  std::string mod = kPrefixUp + kPrefixDown + wrong;
  std::string t = tensor("x", "[16]", "f32", "input") + tensor("out", "[16]", "f32", "empty");
  auto r = run(mod, {.tensors = t, .a = {{"prefix_up", kXOut, "[1]", "[16]"}}, .b = {{"prefix_down", kXOut, "[1]", "[16]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // 16 threads, 1..16 trips of 7 instructions each, plus the straight-line code.
  EXPECT_GT(r.thread_instructions, 2u * 7u * 136u);
  r = run(mod, {.tensors = t, .a = {{"prefix_short", kXOut, "[1]", "[16]"}}, .b = {{"prefix_down", kXOut, "[1]", "[16]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "out[1]");
}

TEST_F(MachineTest, BarrierInsideALoopWithTidDependentTripsRefused) {
  // Odd threads take one more trip, so they wait at the barrier after the even ones exited.
  std::string k = kernel("loop_barrier", 2, R"(
  and.b32 %r10, %r0, 1;
  add.s32 %r10, %r10, 1;
  mov.u32 %r11, 0;
LOOP:
  bar.sync 0;
  add.s32 %r11, %r11, 1;
  setp.lt.u32 %p1, %r11, %r10;
  @%p1 bra LOOP;
)");
  auto r = run(k + kRotateRef, {.tensors = kXOut64, .a = {{"loop_barrier", kXOut, "[1]", "[64]"}},
                                .b = {{"rotate_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("32 threads of the CTA exited"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("thread (1,0,0)"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
