// st.async and red.async: values (or atomic updates) sent into another CTA's shared memory
// that complete_tx on its mbarrier. The consumer's wait for the phase orders them before its
// reads; without it the read meets them in flight; a wrong byte count never completes the
// phase; a store outside the buffer is out of bounds; red.async from several CTAs add up.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";

// Rank 1 sends x[32 + t] into rank 0's buf[t] with st.async completing on rank 0's mbarrier;
// thread 0 of rank 0 expects the 128 bytes, every thread of rank 0 waits and copies buf out.
std::string st_async_handoff() {
  return kernel("handoff", 2, cluster_handoff_prologue(1) + R"(  mapa.shared::cluster.u32 %r15, %r12, 0;
  mapa.shared::cluster.u32 %r21, %r20, 0;
  st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%r15], %f1, [%r21]; // SEND
  bra DONE;
CONSUME:
  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r20], 128; // EXPECT
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT
  @!%p4 bra WAIT;
  ld.shared.f32 %f2, [%r12]; // READ
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f2;
DONE:
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
)", "  .shared .align 16 .f32 buf[32];\n  .shared .align 8 .b64 bar;\n");
}

// out[t] = x[32 + t] in one CTA.
std::string upper_half() { return gather_ref("upper", "  add.u32 %r13, %r0, 32;"); }

class StoreAsyncTest : public MachineTest {
 protected:
  CheckResult check(const std::string& a, const std::string& reference) {
    return run(a + reference, {.tensors = tensor("x", "[64]", "f32", "input") + tensor("out", "[32]", "f32", "empty"),
                               .a = {{.entry = "handoff", .args = kArgs, .grid = "[2]", .cluster = "[2, 1, 1]"}},
                               .b = {{.entry = "upper", .args = kArgs}},
                               .version = "8.1"});
  }
  CheckResult check(const std::string& a) { return check(a, upper_half()); }
};

TEST_F(StoreAsyncTest, WaitingForThePhaseMakesStAsyncAPlainCopy) {
  auto r = check(st_async_handoff());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(StoreAsyncTest, TheConsumersWaitKeepsItAliveUntilTheValuesLand) {
  // No cluster barrier at the end: the consumer cannot exit before what it waited for landed.
  std::string no_exit_barrier = replace_all(st_async_handoff(), "DONE:\n  barrier.cluster.arrive.aligned;\n  barrier.cluster.wait.aligned;\n", "DONE:\n");
  auto r = check(no_exit_barrier);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // A consumer that neither waits nor reads: nothing keeps rank 0 alive until the values land.
  std::string gone = replace_all(no_exit_barrier, "  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT\n  @!%p4 bra WAIT;\n", "");
  r = check(replace_all(gone, "  ld.shared.f32 %f2, [%r12]; // READ", "  mov.f32 %f2, 0f00000000;"));
  if (const exec::Defect* d = expect_defect(r, DefectKind::Race, "may have exited")) {
    EXPECT_EQ(d->site.ptx_line, line_of("// SEND")) << show(r);
  }
}

TEST_F(StoreAsyncTest, VectorFormsSendEveryElement) {
  // Threads 0..15 of rank 1 each send two values (x[32 + 2t], x[33 + 2t]) as one v2.
  std::string v2 = replace_all(st_async_handoff(), "  @%p2 bra CONSUME;\n", "  @%p2 bra CONSUME;\n  setp.ge.u32 %p5, %r0, 16;\n  @%p5 bra DONE;\n");
  v2 = replace_all(v2, "  add.u32 %r14, %r0, 32;\n", "  shl.b32 %r16, %r0, 1;\n  add.u32 %r14, %r16, 32;\n  shl.b32 %r17, %r0, 3;\n  add.u32 %r12, %r10, %r17;\n");
  v2 = replace_all(v2, "  ld.global.f32 %f1, [%rd11];\n  mapa", "  ld.global.f32 %f1, [%rd11];\n  ld.global.f32 %f3, [%rd11+4];\n  mapa");
  v2 = replace_all(v2, "bytes.f32 [%r15], %f1, [%r21];", "bytes.v2.f32 [%r15], {%f1, %f3}, [%r21];");
  auto r = check(v2);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(StoreAsyncTest, ReadingWithoutTheWaitIsARace) {
  // Whichever CTA the engine runs first, the read and the st.async are unordered.
  auto r = check(replace_all(st_async_handoff(), "  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT\n  @!%p4 bra WAIT;\n", ""));
  const exec::Defect* d = find(r, DefectKind::Race, 'a');
  ASSERT_NE(d, nullptr) << show(r);
  EXPECT_TRUE(d->site.ptx_line == line_of("// READ") || d->site.ptx_line == line_of("// SEND")) << show(r);
  // A consumer that reads after the producer sent, without the wait, meets the value in flight.
  std::string late = replace_all(st_async_handoff(), "  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT\n  @!%p4 bra WAIT;\n",
                                 "  barrier.cluster.arrive.aligned;\n  barrier.cluster.wait.aligned;\n");
  late = replace_all(late, "  bra DONE;\nCONSUME:", "  barrier.cluster.arrive.aligned;\n  barrier.cluster.wait.aligned;\n  bra DONE;\nCONSUME:");
  r = check(late);
  if (const exec::Defect* e = expect_defect(r, DefectKind::Race, "st.async's mbarrier")) {
    EXPECT_EQ(e->site.ptx_line, line_of("// READ")) << show(r);
  }
}

// Blocks of 64: rank 1's warp 0 sends as above; in rank 0, thread 0 expects the bytes and waits,
// and warp 1 (after a barrier of its own, which the engine releases in the same round as the
// wait, so after the landing) reads buf and writes out. Warp 1 never waited for the phase.
std::string reader_without_the_wait() {
  std::string k = replace_all(st_async_handoff(), "  @%p2 bra CONSUME;\n", "  setp.ge.u32 %p9, %r0, 32;\n  @%p2 bra CONSUME;\n  @%p9 bra DONE;\n");
  k = replace_all(k, "CONSUME:\n  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r20], 128; // EXPECT\n",
                  "CONSUME:\n  @%p9 bra READER;\n  @!%p1 bra DONE;\n  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r20], 128; // EXPECT\n");
  k = replace_all(k, "  @!%p4 bra WAIT;\n  ld.shared.f32 %f2, [%r12]; // READ\n  mul.wide.u32 %rd12, %r0, 4;\n",
                  "  @!%p4 bra WAIT;\n  bra DONE;\nREADER:\n  bar.sync 1, 32;\n  sub.u32 %r19, %r0, 32;\n  shl.b32 %r22, %r19, 2;\n"
                  "  add.u32 %r23, %r10, %r22;\n  ld.shared.f32 %f2, [%r23]; // READ\n  mul.wide.u32 %rd12, %r19, 4;\n");
  return k;
}

TEST_F(StoreAsyncTest, OnlyThreadsThatAcquiredThePhaseReadTheLandedBytesInOrder) {
  auto run64 = [&](const std::string& a) {
    return run(a + upper_half(), {.tensors = tensor("x", "[64]", "f32", "input") + tensor("out", "[32]", "f32", "empty"),
                                  .a = {{.entry = "handoff", .args = kArgs, .grid = "[2]", .block = "[64]", .cluster = "[2, 1, 1]"}},
                                  .b = {{.entry = "upper", .args = kArgs}},
                                  .version = "8.1"});
  };
  // The bytes landed (at thread 0's wait) before warp 1 read them in the engine's run, but on
  // the GPU warp 1 may read before they land: a race with the copy.
  auto r = run64(reader_without_the_wait());
  if (const exec::Defect* d = expect_defect(r, DefectKind::Race, "asynchronous copy that landed")) {
    EXPECT_EQ(d->site.ptx_line, line_of("// READ")) << show(r);
  }
  // Warp 1 waiting for the phase too: ordered, and the copy it makes is the reference's.
  r = run64(replace_all(reader_without_the_wait(), "READER:\n  bar.sync 1, 32;\n",
                        "READER:\n  bar.sync 1, 32;\nWAIT1:\n  mbarrier.try_wait.parity.shared::cta.b64 %p6, [%r20], 0;\n  @!%p6 bra WAIT1;\n"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(StoreAsyncTest, AWrongExpectedByteCountNeverCompletesThePhase) {
  for (const char* bytes : {"64", "256"}) {
    auto r = check(replace_all(st_async_handoff(), "[%r20], 128; // EXPECT", std::string("[%r20], ") + bytes + ";"));
    EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
    EXPECT_NE(r.reason.find("mbarrier phase that never completes"), std::string::npos) << r.reason;
  }
}

TEST_F(StoreAsyncTest, AStoreOutsideTheBufferIsOutOfBounds) {
  auto r = check(replace_all(st_async_handoff(), "mapa.shared::cluster.u32 %r15, %r12, 0;",
                             "add.u32 %r18, %r12, 65536;\n  mapa.shared::cluster.u32 %r15, %r18, 0;"));
  if (const exec::Defect* d = expect_defect(r, DefectKind::OobWrite, "")) {
    EXPECT_EQ(d->site.ptx_line, line_of("// SEND")) << show(r);
  }
  // A rank outside the cluster.
  r = check(replace_all(st_async_handoff(), "mapa.shared::cluster.u32 %r15, %r12, 0;", "mapa.shared::cluster.u32 %r15, %r12, 2;"));
  expect_defect(r, DefectKind::OobWrite, "cluster rank 2 (the cluster has 2 CTAs)");
}

TEST_F(StoreAsyncTest, UnmodelledFormsAreRefusedWithTheReason) {
  auto r = check(replace_all(st_async_handoff(), "mapa.shared::cluster.u32 %r21, %r20, 0;", "mapa.shared::cluster.u32 %r21, %r20, 1;"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("mbarrier is not in the CTA of its destination"), std::string::npos) << r.reason;
}

// Both CTAs red.async.add (t + 1) * (rank + 1) into rank 0's counter, completing on rank 0's
// mbarrier (64 threads, 4 bytes each); rank 0 waits and thread 0 writes the sum as a float.
std::string red_async_sum() {
  return kernel("handoff", 2, R"(
  mov.u32 %r13, %cluster_ctarank;
  mov.u32 %r10, counter;
  mov.u32 %r20, bar;
  setp.eq.u32 %p1, %r0, 0;
  setp.eq.u32 %p2, %r13, 0;
  and.pred %p3, %p1, %p2;
  @%p3 mbarrier.init.shared::cta.b64 [%r20], 1;
  mov.u32 %r30, 0;
  @%p3 st.shared.u32 [%r10], %r30;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  @%p3 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r20], 256;
  add.u32 %r14, %r0, 1;
  add.u32 %r16, %r13, 1;
  mul.lo.u32 %r17, %r14, %r16;
  mapa.shared::cluster.u32 %r15, %r10, 0;
  mapa.shared::cluster.u32 %r21, %r20, 0;
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r15], %r17, [%r21]; // RED
  @!%p2 bra DONE;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT
  @!%p4 bra WAIT;
  @!%p1 bra DONE;
  ld.shared.u32 %r18, [%r10]; // READ
  cvt.rn.f32.u32 %f2, %r18;
  st.global.f32 [%rd1], %f2;
DONE:
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
)", "  .shared .align 4 .u32 counter;\n  .shared .align 8 .b64 bar;\n");
}

// out[0] = the float `bits` (thread 0 only).
std::string constant_out(const std::string& bits) {
  return kernel("upper", 2, "  setp.ne.u32 %p1, %r0, 0;\n  @%p1 bra END;\n  mov.f32 %f1, " + bits +
                                 ";\n  st.global.f32 [%rd1], %f1;\nEND:\n");
}

TEST_F(StoreAsyncTest, RedAsyncFromTwoCtasAddsUp) {
  // 528 * 1 + 528 * 2 = 1584 = 0f44C60000.
  auto r = check(red_async_sum(), constant_out("0f44C60000"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  r = check(red_async_sum(), constant_out("0f44C5E000"));  // 1583: the check sees the difference
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(StoreAsyncTest, RedAsyncMaxAndIncForms) {
  // max over (t + 1) * (rank + 1): 64.
  auto r = check(replace_all(red_async_sum(), "bytes.add.u32", "bytes.max.u32"), constant_out("0f42800000"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // inc wraps at its operand: 64 increments of 0 with bound 40 leave 23.
  r = check(replace_all(replace_all(red_async_sum(), "bytes.add.u32 [%r15], %r17,", "bytes.inc.u32 [%r15], %r31,"),
                        "  mov.u32 %r30, 0;\n", "  mov.u32 %r30, 0;\n  mov.u32 %r31, 40;\n"),
            constant_out("0f41B80000"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(StoreAsyncTest, APlainAtomicOfTheSameOperationCombinesWithRedAsyncInFlight) {
  // Rank 0's threads also red.shared.add (t + 1) while the red.async are in flight: 2112.
  std::string both = replace_all(red_async_sum(), "  @!%p2 bra DONE;\nWAIT:", "  @!%p2 bra DONE;\n  red.shared.add.u32 [%r10], %r17;\nWAIT:");
  both = replace_all(both, "  @!%p1 bra DONE;\n  ld.shared.u32", "  bar.sync 0;\n  @!%p1 bra DONE;\n  ld.shared.u32");
  auto r = check(both, constant_out("0f45040000"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // Another operation on the same bytes: the result would depend on the order.
  r = check(replace_all(both, "red.shared.add.u32", "red.shared.max.u32"), constant_out("0f45040000"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("would depend on their order"), std::string::npos) << r.reason;
}

TEST_F(StoreAsyncTest, WhatCannotBeCombinedAtLandingIsRefusedAtTheRedAsync) {
  // An uninitialized counter: symbolic u32 additions that may wrap around.
  auto r = check(replace_all(red_async_sum(), "  @%p3 st.shared.u32 [%r10], %r30;\n", ""), constant_out("0f44C60000"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("PTX line " + std::to_string(line_of("// RED"))), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("when it lands"), std::string::npos) << r.reason;
}

TEST_F(StoreAsyncTest, APlainReadOfARedAsyncTargetWithoutTheWaitIsARace) {
  auto r = check(replace_all(red_async_sum(), "  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT\n  @!%p4 bra WAIT;\n", ""),
                 constant_out("0f44C60000"));
  if (const exec::Defect* d = expect_defect(r, DefectKind::Race, "red.async's mbarrier")) {
    EXPECT_EQ(d->site.ptx_line, line_of("// READ")) << show(r);
  }
}

}  // namespace
}  // namespace racer::check::testing
