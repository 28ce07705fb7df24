// Warp collectives: shfl.sync in every mode with clamps and segments, vote.sync,
// bar.warp.sync ordering shared memory within (and only within) a warp, and member masks
// naming lanes that are gone.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kShared = "  .shared .align 4 .b8 sh[1024];\n";
const std::string kShflArgs = R"({ read = "x" }, { write = "out" }, { write = "ok" })";
const std::string kShflTensors =
    tensor("x", "[32]", "f32", "input") + tensor("out", "[32]", "f32", "empty") + tensor("ok", "[32]", "i32", "empty");

// v = x[tid]; `shfl` leaves the shuffled value in %f2 and its predicate in %p2;
// out[tid] = %f2, ok[tid] = %p2.
std::string shfl_kernel(std::string_view name, std::string_view shfl) {
  return kernel(name, 3, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
)") + std::string(shfl) + R"(
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
  selp.u32 %r20, 1, 0, %p2;
  add.s64 %rd13, %rd2, %rd10;
  st.global.u32 [%rd13], %r20;
)");
}

// `source` computes the source lane %r12 and the predicate %p2 from %r0 = tid;
// out[tid] = x[%r12], ok[tid] = %p2.
std::string shfl_ref(std::string_view name, std::string_view source) {
  return kernel(name, 3, std::string(source) + R"(
  mul.wide.u32 %rd10, %r12, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f2, [%rd11];
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f2;
  selp.u32 %r20, 1, 0, %p2;
  add.s64 %rd14, %rd2, %rd12;
  st.global.u32 [%rd14], %r20;
)");
}

class Warp : public MachineTest {
 protected:
  CheckResult shfl(std::string_view shfl, std::string_view source) {
    std::string mod = shfl_kernel("shfl_k", shfl) + shfl_ref("shfl_ref", source);
    return run(mod, {.tensors = kShflTensors,
                     .a = {{"shfl_k", kShflArgs, "[1]", "[32]"}},
                     .b = {{"shfl_ref", kShflArgs, "[1]", "[32]"}},
                     .outputs = R"("out", "ok")"});
  }
};

TEST_F(Warp, ShflIdxRotate) {
  const char* op = "  add.s32 %r13, %r0, 3;\n  shfl.sync.idx.b32 %f2|%p2, %f1, %r13, 0x1f, 0xffffffff;\n";
  auto r = shfl(op, "  add.s32 %r12, %r0, 3;\n  and.b32 %r12, %r12, 31;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  r = shfl(op, "  add.s32 %r12, %r0, 2;\n  and.b32 %r12, %r12, 31;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(Warp, ShflUpKeepsOwnValueBelowTheClamp) {
  const char* op = "  shfl.sync.up.b32 %f2|%p2, %f1, 1, 0, 0xffffffff;\n";
  auto r = shfl(op, "  setp.ge.u32 %p2, %r0, 1;\n  sub.s32 %r13, %r0, 1;\n  selp.b32 %r12, %r13, %r0, %p2;\n");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // Lane 0 must report an invalid source (p = false) and keep its own value.
  r = shfl(op, "  setp.ge.u32 %p2, %r0, 0;\n  sub.s32 %r13, %r0, 1;\n  setp.ge.u32 %p3, %r0, 1;\n  selp.b32 %r12, %r13, %r0, %p3;\n");
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "ok[0]");
}

TEST_F(Warp, ShflUpWithinSegmentsOfEight) {
  // width 8: c = (32 - 8) << 8 for .up. Lanes 0, 8, 16, 24 keep their own value.
  const char* op = "  shfl.sync.up.b32 %f2|%p2, %f1, 1, 0x1800, 0xffffffff;\n";
  auto r = shfl(op, "  and.b32 %r14, %r0, 7;\n  setp.ge.u32 %p2, %r14, 1;\n  sub.s32 %r13, %r0, 1;\n"
                    "  selp.b32 %r12, %r13, %r0, %p2;\n");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(Warp, ShflDownClampedToSegmentsOfEight) {
  // width 8: c = ((32 - 8) << 8) | 0x1f. Lane l reads l + 2 within its segment, else keeps its own.
  const char* op = "  shfl.sync.down.b32 %f2|%p2, %f1, 2, 0x181f, 0xffffffff;\n";
  auto r = shfl(op, "  and.b32 %r13, %r0, 7;\n  setp.le.u32 %p2, %r13, 5;\n  add.s32 %r14, %r0, 2;\n"
                    "  selp.b32 %r12, %r14, %r0, %p2;\n");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // Without the segment the upper lanes of each segment would read the next segment.
  r = shfl(op, "  setp.le.u32 %p2, %r0, 29;\n  add.s32 %r14, %r0, 2;\n  selp.b32 %r12, %r14, %r0, %p2;\n");
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(Warp, ShflBflyReadsEarlierSegmentOnly) {
  // width 16, lane mask 16: lanes 16..31 read lane - 16 (an earlier segment, allowed);
  // lanes 0..15 would read a later segment and keep their own value.
  const char* op = "  shfl.sync.bfly.b32 %f2|%p2, %f1, 16, 0x101f, 0xffffffff;\n";
  auto r = shfl(op, "  setp.ge.u32 %p2, %r0, 16;\n  sub.s32 %r13, %r0, 16;\n  selp.b32 %r12, %r13, %r0, %p2;\n");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // A plain butterfly over the whole warp is a different result.
  r = shfl(op, "  xor.b32 %r12, %r0, 16;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(Warp, ShflIdxWithinSegmentsOfEight) {
  // width 8, source lane 5: each lane reads lane 5 of its own segment.
  const char* op = "  shfl.sync.idx.b32 %f2|%p2, %f1, 5, 0x181f, 0xffffffff;\n";
  auto r = shfl(op, "  and.b32 %r13, %r0, 24;\n  or.b32 %r12, %r13, 5;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = shfl(op, "  mov.u32 %r12, 5;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(Warp, ShflOverAPartialMemberMask) {
  // Lanes 0..15 rotate among themselves with member mask 0xffff; lanes 16..31 skip the shfl.
  const char* op = R"(
  mov.f32 %f2, %f1;
  setp.eq.u32 %p2, %r0, %r0;
  setp.ge.u32 %p3, %r0, 16;
  @%p3 bra SKIP;
  add.s32 %r13, %r0, 1;
  and.b32 %r13, %r13, 15;
  shfl.sync.idx.b32 %f2|%p2, %f1, %r13, 0x1f, 0x0000ffff;
SKIP:
)";
  auto r = shfl(op, "  add.s32 %r13, %r0, 1;\n  and.b32 %r13, %r13, 15;\n  setp.lt.u32 %p3, %r0, 16;\n"
                    "  selp.b32 %r12, %r13, %r0, %p3;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(Warp, ShflFromALaneOutsideTheMemberMaskRefused) {
  // Lanes 0..15 (mask 0xffff) ask for lane 20, which does not take part.
  const char* op = R"(
  mov.f32 %f2, %f1;
  setp.eq.u32 %p2, %r0, %r0;
  setp.ge.u32 %p3, %r0, 16;
  @%p3 bra SKIP;
  shfl.sync.idx.b32 %f2|%p2, %f1, 20, 0x1f, 0x0000ffff;
SKIP:
)";
  auto r = shfl(op, "  mov.u32 %r12, %r0;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("lane 20"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("member mask"), std::string::npos) << r.reason;
}

TEST_F(Warp, ShflWhoseMemberMaskNamesAnExitedLaneRefused) {
  const char* op = R"(
  setp.eq.u32 %p3, %r0, 31;
  @%p3 ret;
  shfl.sync.idx.b32 %f2|%p2, %f1, 0, 0x1f, 0xffffffff;
)";
  auto r = shfl(op, "  mov.u32 %r12, 0;\n  setp.eq.u32 %p2, %r0, %r0;\n");
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("lane 31"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("exited"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("shfl.sync.idx.b32"), std::string::npos) << r.reason;
}

// Two warps; warp 0's predicate is (tid & 3) != 0, warp 1's is true everywhere.
// out[5 tid ..] = all, any, ballot, uni, any(!p).
const std::string kVote = kernel("vote_k", 1, R"(
  and.b32 %r10, %r0, 3;
  setp.ne.u32 %p1, %r10, 0;
  setp.ge.u32 %p2, %r0, 32;
  or.pred %p1, %p1, %p2;
  vote.sync.all.pred %p3, %p1, 0xffffffff;
  vote.sync.any.pred %p4, %p1, 0xffffffff;
  vote.sync.ballot.b32 %r11, %p1, 0xffffffff;
  vote.sync.uni.pred %p5, %p1, 0xffffffff;
  vote.sync.any.pred %p6, !%p1, 0xffffffff;
  selp.u32 %r12, 1, 0, %p3;
  selp.u32 %r13, 1, 0, %p4;
  selp.u32 %r14, 1, 0, %p5;
  selp.u32 %r15, 1, 0, %p6;
  mul.lo.s32 %r16, %r0, 5;
  mul.wide.u32 %rd10, %r16, 4;
  add.s64 %rd11, %rd0, %rd10;
  st.global.u32 [%rd11], %r12;
  st.global.u32 [%rd11+4], %r13;
  st.global.u32 [%rd11+8], %r11;
  st.global.u32 [%rd11+12], %r14;
  st.global.u32 [%rd11+16], %r15;
)");

const std::string kVoteRef = kernel("vote_ref", 1, R"(
  setp.ge.u32 %p2, %r0, 32;
  selp.u32 %r12, 1, 0, %p2;
  mov.u32 %r13, 1;
  selp.b32 %r11, 0xFFFFFFFF, 0xEEEEEEEE, %p2;
  selp.u32 %r14, 1, 0, %p2;
  selp.u32 %r15, 0, 1, %p2;
  mul.lo.s32 %r16, %r0, 5;
  mul.wide.u32 %rd10, %r16, 4;
  add.s64 %rd11, %rd0, %rd10;
  st.global.u32 [%rd11], %r12;
  st.global.u32 [%rd11+4], %r13;
  st.global.u32 [%rd11+8], %r11;
  st.global.u32 [%rd11+12], %r14;
  st.global.u32 [%rd11+16], %r15;
)");

TEST_F(Warp, VoteAllAnyBallotUniOnConcretePredicates) {
  std::string wrong = replace_all(replace_all(kVoteRef, "vote_ref", "vote_wrong"), "0xEEEEEEEE", "0xEEEEEEEF");
  std::string t = tensor("out", "[320]", "i32", "empty");
  const std::string args = R"({ write = "out" })";
  auto r = run(kVote + kVoteRef + wrong, {.tensors = t, .a = {{"vote_k", args, "[1]", "[64]"}}, .b = {{"vote_ref", args, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  r = run(kVote + kVoteRef + wrong, {.tensors = t, .a = {{"vote_k", args, "[1]", "[64]"}}, .b = {{"vote_wrong", args, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "out[2]");  // thread 0's ballot
}

// sh[tid] = x[tid]; `sync`; out[tid] = sh[j] with j computed by `index` from tid (in %r13).
std::string exchange(std::string_view name, std::string_view sync, std::string_view index) {
  return kernel(name, 2, std::string(R"(
  mov.u32 %r10, sh;
  shl.b32 %r11, %r0, 2;
  add.s32 %r12, %r10, %r11;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  st.shared.f32 [%r12], %f1;
)") + std::string(sync) + std::string(index) + R"(
  shl.b32 %r15, %r13, 2;
  add.s32 %r16, %r10, %r15;
  ld.shared.f32 %f2, [%r16];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)", kShared);
}

// The next lane of the same warp, and the same lane of the other warp.
const char* kNextLane = "  add.s32 %r13, %r0, 1;\n  and.b32 %r13, %r13, 31;\n  and.b32 %r14, %r0, -32;\n  or.b32 %r13, %r13, %r14;\n";
const char* kOtherWarp = "  xor.b32 %r13, %r0, 32;\n";
const char* kWarpSync = "  bar.warp.sync 0xffffffff;\n";
const std::string kXOut = R"({ read = "x" }, { write = "out" })";
const std::string kXOut64 = tensor("x", "[64]", "f32", "input") + tensor("out", "[64]", "f32", "empty");

TEST_F(Warp, BarWarpSyncOrdersSharedMemoryWithinAWarp) {
  auto r = run(exchange("ex", kWarpSync, kNextLane) + gather_ref("ex_ref", kNextLane),
               {.tensors = kXOut64, .a = {{"ex", kXOut, "[1]", "[64]"}}, .b = {{"ex_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(Warp, WithoutBarWarpSyncTheExchangeRaces) {
  auto r = run(exchange("ex", "", kNextLane) + gather_ref("ex_ref", kNextLane),
               {.tensors = kXOut64, .a = {{"ex", kXOut, "[1]", "[64]"}}, .b = {{"ex_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_NE(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_NE(find(r, DefectKind::Race, 'a'), nullptr) << show(r);
}

TEST_F(Warp, BarWarpSyncDoesNotOrderAcrossWarps) {
  auto r = run(exchange("ex", kWarpSync, kOtherWarp) + gather_ref("ex_ref", kOtherWarp),
               {.tensors = kXOut64, .a = {{"ex", kXOut, "[1]", "[64]"}}, .b = {{"ex_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_NE(r.verdict, Verdict::Equivalent) << show(r);
  const exec::Defect* d = find(r, DefectKind::Race, 'a');
  ASSERT_NE(d, nullptr) << show(r);
  EXPECT_NE(d->memory.find("shared"), std::string::npos) << d->memory;
  // ...while a CTA barrier does.
  r = run(exchange("ex", "  bar.sync 0;\n", kOtherWarp) + gather_ref("ex_ref", kOtherWarp),
          {.tensors = kXOut64, .a = {{"ex", kXOut, "[1]", "[64]"}}, .b = {{"ex_ref", kXOut, "[1]", "[64]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(Warp, LanesFollowTheLinearThreadOrderOf2DBlocks) {
  // block (8, 8): lane = 8 tid.y + tid.x mod 32, so lane + 8 is the thread one row down,
  // wrapping within each warp of four rows.
  std::string k = kernel("shfl_2d", 2, R"(
  mov.u32 %r20, %tid.y;
  mad.lo.s32 %r21, %r20, 8, %r0;
  mul.wide.u32 %rd10, %r21, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mov.u32 %r22, %laneid;
  add.s32 %r23, %r22, 8;
  and.b32 %r23, %r23, 31;
  shfl.sync.idx.b32 %f2, %f1, %r23, 0x1f, 0xffffffff;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)");
  auto ref = [](std::string_view name, std::string_view row) {
    return kernel(name, 2, std::string("  mov.u32 %r20, %tid.y;\n") + std::string(row) + R"(
  mad.lo.s32 %r26, %r24, 8, %r0;
  mul.wide.u32 %rd10, %r26, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mad.lo.s32 %r21, %r20, 8, %r0;
  mul.wide.u32 %rd12, %r21, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f1;
)");
  };
  // Source row: (y + 1) mod 4 within the warp's half, or (y + 1) mod 8 across warps (wrong).
  std::string mod = k + ref("shfl_2d_ref", "  add.s32 %r24, %r20, 1;\n  and.b32 %r24, %r24, 3;\n  and.b32 %r25, %r20, 4;\n  or.b32 %r24, %r24, %r25;\n") +
                    ref("shfl_2d_wrong", "  add.s32 %r24, %r20, 1;\n  and.b32 %r24, %r24, 7;\n");
  auto r = run(mod, {.tensors = kXOut64, .a = {{"shfl_2d", kXOut, "[1]", "[8, 8]"}}, .b = {{"shfl_2d_ref", kXOut, "[1]", "[8, 8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(mod, {.tensors = kXOut64, .a = {{"shfl_2d", kXOut, "[1]", "[8, 8]"}}, .b = {{"shfl_2d_wrong", kXOut, "[1]", "[8, 8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "out[24]");  // (0, 3): row 0 in the warp, row 4 across
}

TEST_F(Warp, VotesOfTwoBranchesWithComplementaryMasks) {
  // Even lanes vote with mask 0x55555555 in one branch, odd lanes with 0xAAAAAAAA in the
  // other; the predicate holds for lanes 0..7.
  std::string k = kernel("vote_split", 1, R"(
  and.b32 %r10, %r0, 1;
  setp.eq.u32 %p1, %r10, 0;
  setp.lt.u32 %p2, %r0, 8;
  @%p1 bra EVEN;
  vote.sync.ballot.b32 %r11, %p2, 0xAAAAAAAA;
  bra JOIN;
EVEN:
  vote.sync.ballot.b32 %r11, %p2, 0x55555555;
JOIN:
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  st.global.u32 [%rd11], %r11;
)");
  std::string ref = kernel("vote_split_ref", 1, R"(
  and.b32 %r10, %r0, 1;
  setp.eq.u32 %p1, %r10, 0;
  selp.b32 %r11, 0x55, 0xAA, %p1;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  st.global.u32 [%rd11], %r11;
)");
  const std::string args = R"({ write = "out" })";
  auto r = run(k + ref, {.tensors = tensor("out", "[32]", "i32", "empty"),
                         .a = {{"vote_split", args, "[1]", "[32]"}}, .b = {{"vote_split_ref", args, "[1]", "[32]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
