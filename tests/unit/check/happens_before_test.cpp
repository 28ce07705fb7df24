// Happens-before across chains of synchronization: an access is ordered before another
// thread's when a chain of barriers and release/acquire pairs leads from one to the other
// (bar.sync -> mbarrier, mbarrier -> mbarrier, barrier.cluster -> mbarrier, mbarrier ->
// barrier.cluster), and named barriers over part of a CTA (bar.arrive / bar.sync with a
// thread count, also chained to an mbarrier). Each correct kernel has a broken twin whose
// chain is cut: a race.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";

// out[t] = x[t]: the reference for every kernel here.
std::string copy_ref() { return copy_kernel("copy"); }

// %r11 lane, %r12 warp, %r16 &buf[lane].
const std::string kLanes = R"(
  and.b32 %r11, %r0, 31;
  shr.u32 %r12, %r0, 5;
  mov.u32 %r14, buf;
  shl.b32 %r15, %r11, 2;
  add.u32 %r16, %r14, %r15;

)";

// Cluster kernels' prologue: kLanes, %r13 cluster rank, %r20 &bar; thread 0 of each CTA
// initializes bar for 32 arrivals, and a cluster barrier publishes it.
const std::string kClusterPrologue = kLanes + R"(
  mov.u32 %r13, %cluster_ctarank;
  mov.u32 %r20, bar;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r20], 32;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  setp.ne.u32 %p2, %r13, 0;
  setp.ne.u32 %p3, %r12, 0;
)";
// buf (32 floats) and one mbarrier, bar.
const std::string kBufBarDecls = "  .shared .align 4 .f32 buf[32];\n  .shared .align 8 .b64 bar;\n";

// x[lane] into buf[lane] (the store every chain starts from).
const std::string kStage = R"(
  mul.wide.u32 %rd10, %r11, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  st.shared.f32 [%r16], %f1; // STORE
)";

// %f2 into out[lane].
const std::string kWriteOut = R"(
  mul.wide.u32 %rd12, %r11, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f2;
)";

// buf[lane] of cluster rank 0 into out[lane].
const std::string kReadRank0 = R"(
  mapa.shared::cluster.u32 %r22, %r16, 0;
  ld.shared::cluster.f32 %f2, [%r22]; // READ
)" + kWriteOut;

// out[tid] = x[tid], after whatever comes before.
const std::string kCopyByTid = R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
)";

class HappensBeforeTest : public MachineTest {
 protected:
  CheckResult check(const std::string& k, const std::string& entry, const std::string& block, unsigned outputs,
                    const std::string& grid = "[1]", const std::string& cluster = "") {
    const std::string n = "[" + std::to_string(outputs) + "]";
    return run(k + copy_ref(), {.tensors = tensor("x", n, "f32", "input") + tensor("out", n, "f32", "empty"),
                                .a = {{.entry = entry, .args = kArgs, .grid = grid, .block = block, .cluster = cluster}},
                                .b = {{.entry = "copy", .args = kArgs, .block = n}}});
  }
  CheckResult check_cluster(const std::string& k, const std::string& entry) {
    return check(k, entry, "[64]", 32, "[2]", "[2, 1, 1]");
  }
  void expect_clean(const CheckResult& r) {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
    EXPECT_TRUE(r.defects.empty()) << show(r);
  }
  // A race reported at the instruction marked `marker`.
  void expect_race_at(const CheckResult& r, std::string_view marker) {
    const exec::Defect* d = find(r, DefectKind::Race, 'a');
    ASSERT_NE(d, nullptr) << show(r);
    EXPECT_EQ(d->site.ptx_line, line_of(marker)) << show(r);
  }
};

// --- mbarrier -> mbarrier: warp 1 stores and arrives on A; warp 0 waits on A and arrives on
// B; warp 2 waits on B and reads what warp 1 stored. (The relay is warp 0 so that the engine
// runs its wait before the producer arrives: a wait for the wrong phase then passes at once.)
std::string relay() {
  return kernel("relay", 2, kLanes + R"(
  mov.u32 %r20, bar_a;
  mov.u32 %r21, bar_b;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r20], 32;
  @%p1 mbarrier.init.shared::cta.b64 [%r21], 32;
  bar.sync 0;
  setp.eq.u32 %p2, %r12, 1;
  @%p2 bra PRODUCE;
  setp.eq.u32 %p3, %r12, 0;
  @%p3 bra RELAY;
WAIT_B:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r21], 0;
  @!%p4 bra WAIT_B;
  ld.shared.f32 %f2, [%r16]; // READ
)" + kWriteOut + R"(
  bra DONE;
PRODUCE:
)" + kStage + R"(
  mbarrier.arrive.shared::cta.b64 %rd14, [%r20];
  bra DONE;
RELAY:
WAIT_A:
  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r20], 0; // RELAY_WAIT
  @!%p5 bra WAIT_A;
  mbarrier.arrive.shared::cta.b64 %rd15, [%r21]; // RELAY_ARRIVE
DONE:
)", "  .shared .align 4 .f32 buf[32];\n  .shared .align 8 .b64 bar_a;\n  .shared .align 8 .b64 bar_b;\n");
}

TEST_F(HappensBeforeTest, MbarrierToMbarrierChainOrders) {
  expect_clean(check(relay(), "relay", "[96]", 32));
}

TEST_F(HappensBeforeTest, RelayArrivingBeforeItsWaitBreaksTheChain) {
  std::string broken = replace_all(relay(), "  mbarrier.arrive.shared::cta.b64 %rd15, [%r21]; // RELAY_ARRIVE\n", "");
  broken = replace_all(broken, "WAIT_A:\n", "  mbarrier.arrive.shared::cta.b64 %rd15, [%r21];\nWAIT_A:\n");
  expect_race_at(check(broken, "relay", "[96]", 32), "// READ");
}

TEST_F(HappensBeforeTest, RelayWaitingForTheWrongPhaseBreaksTheChain) {
  // Parity 1 of a fresh barrier is the phase before the first: the wait passes at once.
  std::string broken = replace_all(relay(), "[%r20], 0; // RELAY_WAIT", "[%r20], 1;");
  expect_race_at(check(broken, "relay", "[96]", 32), "// READ");
}

// --- bar.sync -> mbarrier, across the CTAs of a cluster: rank 0's warp 0 stores; its CTA
// synchronizes; rank 0's warp 1 arrives on rank 1's mbarrier; rank 1's warp 0 waits and reads
// rank 0's buffer.
std::string sync_then_signal() {
  return kernel("sync_then_signal", 2, kClusterPrologue + R"(
  @%p2 bra RANK1;
  @%p3 bra SYNC0;
)" + kStage + R"(
SYNC0:
  bar.sync 0; // CTA_SYNC
  @!%p3 bra EXIT;
  mapa.shared::cluster.u32 %r21, %r20, 1;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21]; // SIGNAL
  bra EXIT;
RANK1:
  @%p3 bra EXIT;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r20], 0;
  @!%p5 bra WAIT;
)" + kReadRank0 + R"(
EXIT:
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
)", kBufBarDecls);
}

TEST_F(HappensBeforeTest, CtaBarrierThenMbarrierOrdersAnotherThreadsStore) {
  expect_clean(check_cluster(sync_then_signal(), "sync_then_signal"));
}

TEST_F(HappensBeforeTest, WithoutTheCtaBarrierTheSignalReleasesOnlyItsOwnAccesses) {
  auto r = check_cluster(replace_all(sync_then_signal(), "  bar.sync 0; // CTA_SYNC\n", ""), "sync_then_signal");
  expect_race_at(r, "// READ");
}

// --- barrier.cluster -> mbarrier: rank 0's warp 0 stores and arrives at the cluster barrier;
// rank 0's warp 1 waits for that phase and arrives on rank 1's mbarrier; rank 1's warp 0 has
// arrived at the cluster barrier but waits on the mbarrier, not the cluster barrier, before it
// reads.
std::string cluster_then_signal() {
  return kernel("cluster_then_signal", 2, kClusterPrologue + R"(
  or.pred %p6, %p2, %p3;
  @%p6 bra ARRIVE;
)" + kStage + R"(
ARRIVE:
  barrier.cluster.arrive.aligned; // PUBLISH
  @!%p2 bra RANK0;
  @%p3 bra WAIT_CLUSTER;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r20], 0;
  @!%p5 bra WAIT;
)" + kReadRank0 + R"(
  bra WAIT_CLUSTER;
RANK0:
  barrier.cluster.wait.aligned;
  @!%p3 bra EXIT;
  mapa.shared::cluster.u32 %r21, %r20, 1;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21];
  bra EXIT;
WAIT_CLUSTER:
  barrier.cluster.wait.aligned;
EXIT:
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
)", kBufBarDecls);
}

TEST_F(HappensBeforeTest, ClusterBarrierThenMbarrierOrders) {
  expect_clean(check_cluster(cluster_then_signal(), "cluster_then_signal"));
}

TEST_F(HappensBeforeTest, ARelaxedClusterArriveBreaksTheChain) {
  auto r = check_cluster(replace_all(cluster_then_signal(), "barrier.cluster.arrive.aligned; // PUBLISH",
                                     "barrier.cluster.arrive.relaxed.aligned;"),
                         "cluster_then_signal");
  expect_race_at(r, "// READ");
}

// --- mbarrier -> barrier.cluster: rank 0's warp 1 arrives at the cluster barrier first, then
// stores and arrives on its CTA's mbarrier; rank 0's warp 0 waits on the mbarrier before it
// arrives at the cluster barrier; rank 1's warp 0 reads after the cluster barrier. The store
// follows warp 1's own arrive: only the chain through warp 0 orders it.
std::string signal_then_cluster() {
  return kernel("signal_then_cluster", 2, kClusterPrologue + R"(
  @%p2 bra OTHERS;
  @!%p3 bra RELAY;
  barrier.cluster.arrive.aligned;
)" + kStage + R"(
  mbarrier.arrive.release.cta.shared::cta.b64 _, [%r20];
  barrier.cluster.wait.aligned;
  bra EXIT;
RELAY:
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r20], 0; // RELAY_WAIT
  @!%p5 bra WAIT;
OTHERS:
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  @!%p2 bra EXIT;
  @%p3 bra EXIT;
)" + kReadRank0 + R"(
EXIT:
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
)", kBufBarDecls);
}

TEST_F(HappensBeforeTest, MbarrierThenClusterBarrierOrders) {
  expect_clean(check_cluster(signal_then_cluster(), "signal_then_cluster"));
}

TEST_F(HappensBeforeTest, MbarrierThenClusterBarrierBrokenByTheWrongPhase) {
  auto r = check_cluster(replace_all(signal_then_cluster(), "[%r20], 0; // RELAY_WAIT", "[%r20], 1;"), "signal_then_cluster");
  expect_race_at(r, "// READ");
}

// --- Named barriers: warps 0 and 1 stage x into shared memory and bar.arrive; warps 2 and 3
// bar.sync on the same barrier and copy the buffer out.
std::string producer_consumer() {
  return kernel("prodcons", 2, R"(
  shr.u32 %r12, %r0, 5;
  mov.u32 %r14, buf;
  setp.lt.u32 %p1, %r12, 2;
  @!%p1 bra CONSUME;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  shl.b32 %r15, %r0, 2;
  add.u32 %r16, %r14, %r15;
  st.shared.f32 [%r16], %f1;
  bar.arrive 1, 128; // ARRIVE
  bra DONE;
CONSUME:
  sub.u32 %r17, %r0, 64;
  shl.b32 %r15, %r17, 2;
  add.u32 %r16, %r14, %r15;
  bar.sync 1, 128; // SYNC
  ld.shared.f32 %f2, [%r16]; // READ
  mul.wide.u32 %rd12, %r17, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f2;
DONE:
)", "  .shared .align 4 .f32 buf[64];\n");
}

TEST_F(HappensBeforeTest, NamedBarrierOrdersProducersBeforeConsumers) {
  expect_clean(check(producer_consumer(), "prodcons", "[128]", 64));
}

TEST_F(HappensBeforeTest, ConsumerReadingBeforeTheNamedBarrierRaces) {
  std::string early = replace_all(producer_consumer(), "  bar.sync 1, 128; // SYNC\n  ld.shared.f32 %f2, [%r16]; // READ\n",
                                  "  ld.shared.f32 %f2, [%r16]; // READ\n  bar.sync 1, 128;\n");
  expect_race_at(check(early, "prodcons", "[128]", 64), "// READ");
}

TEST_F(HappensBeforeTest, ANonParticipantOfTheNamedBarrierIsNotOrdered) {
  // The barrier counts warps 0 to 2; warp 3 reads without it.
  std::string partial = replace_all(producer_consumer(), "bar.arrive 1, 128;", "bar.arrive 1, 96;");
  partial = replace_all(partial, "  bar.sync 1, 128; // SYNC\n",
                        "  setp.eq.u32 %p2, %r12, 3;\n  @!%p2 bar.sync 1, 96;\n");
  expect_race_at(check(partial, "prodcons", "[128]", 64), "// READ");
}

TEST_F(HappensBeforeTest, AnArriveDoesNotWait) {
  // Consumers store into shared memory before their bar.sync; producers read it after their
  // bar.arrive (and let it steer a branch, so the race can matter): nothing orders the store
  // before the read.
  std::string back = replace_all(producer_consumer(), "  bar.arrive 1, 128; // ARRIVE\n",
                                 "  bar.arrive 1, 128;\n  ld.shared.f32 %f3, [flag]; // BACK\n"
                                 "  setp.eq.f32 %p4, %f3, 0f3F800000;\n  @%p4 bra DONE;\n");
  back = replace_all(back, "  bar.sync 1, 128; // SYNC\n", "  mov.f32 %f5, 0f3F800000;\n  st.shared.f32 [flag], %f5;\n  bar.sync 1, 128;\n");
  back = replace_all(back, ".f32 buf[64];\n", ".f32 buf[64];\n  .shared .align 4 .f32 flag;\n");
  auto r = check(back, "prodcons", "[128]", 64);
  ASSERT_NE(find(r, DefectKind::Race, 'a'), nullptr) << show(r);
}

TEST_F(HappensBeforeTest, NamedBarrierPhasesRepeatInALoop) {
  // Two rounds through one buffer: full (barrier 1) and empty (barrier 2) barriers, each a
  // bar.arrive on one side and a bar.sync on the other. Each round adds x to the consumer's sum.
  std::string loop = kernel("pingpong", 2, R"(
  shr.u32 %r12, %r0, 5;
  mov.u32 %r14, buf;
  and.b32 %r17, %r0, 63;
  shl.b32 %r15, %r17, 2;
  add.u32 %r16, %r14, %r15;
  mul.wide.u32 %rd10, %r17, 4;
  mov.u32 %r18, 0;
  mov.f32 %f4, 0f00000000;
  setp.lt.u32 %p1, %r12, 2;
  @!%p1 bra CONSUME;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
PRODUCE:
  setp.eq.u32 %p2, %r18, 0;
  @!%p2 bar.sync 2, 128; // EMPTY_WAIT
  st.shared.f32 [%r16], %f1;
  bar.arrive 1, 128;
  add.u32 %r18, %r18, 1;
  setp.lt.u32 %p3, %r18, 2;
  @%p3 bra PRODUCE;
  bra DONE;
CONSUME:
  bar.sync 1, 128;
  ld.shared.f32 %f2, [%r16];
  add.f32 %f4, %f4, %f2;
  add.u32 %r18, %r18, 1;
  setp.lt.u32 %p3, %r18, 2;
  @%p3 bar.arrive 2, 128;
  @%p3 bra CONSUME;
  add.f32 %f4, %f4, %f4;
  mul.f32 %f4, %f4, 0f3F000000;
  mul.f32 %f4, %f4, 0f3F000000;
  add.s64 %rd13, %rd1, %rd10;
  st.global.f32 [%rd13], %f4;
DONE:
)", "  .shared .align 4 .f32 buf[64];\n");
  // ((x + x) * 2) / 4 = x
  expect_clean(check(loop, "pingpong", "[128]", 64));
  // Without the empty barrier the producers arrive at the full barrier again before the
  // consumers took the first round: whether that arrival completes a phase depends on the
  // schedule.
  auto r = check(replace_all(loop, "  @!%p2 bar.sync 2, 128; // EMPTY_WAIT\n", ""), "pingpong", "[128]", 64);
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("a second time before its phase completes"), std::string::npos) << r.reason;
}

// --- named barrier -> mbarrier: warp 0 stores and bar.arrives; warp 1 bar.syncs and arrives
// on an mbarrier; warp 2 waits on the mbarrier and reads what warp 0 stored.
std::string named_then_mbarrier() {
  return kernel("named_then_mbarrier", 2, kLanes + R"(
  mov.u32 %r20, bar;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r20], 32;
  bar.sync 0;
  setp.eq.u32 %p2, %r12, 0;
  @%p2 bra PRODUCE;
  setp.eq.u32 %p3, %r12, 1;
  @%p3 bra RELAY;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0;
  @!%p4 bra WAIT;
  ld.shared.f32 %f2, [%r16]; // READ
)" + kWriteOut + R"(
  bra DONE;
PRODUCE:
)" + kStage + R"(
  bar.arrive 1, 64;
  bra DONE;
RELAY:
  bar.sync 1, 64; // RELAY_SYNC
  mbarrier.arrive.shared::cta.b64 %rd15, [%r20]; // RELAY_ARRIVE
DONE:
)", kBufBarDecls);
}

TEST_F(HappensBeforeTest, NamedBarrierThenMbarrierOrders) {
  expect_clean(check(named_then_mbarrier(), "named_then_mbarrier", "[96]", 32));
  // The relay signals before its bar.sync: the mbarrier carries nothing of warp 0's.
  std::string broken = replace_all(named_then_mbarrier(), "  bar.sync 1, 64; // RELAY_SYNC\n  mbarrier.arrive.shared::cta.b64 %rd15, [%r20]; // RELAY_ARRIVE\n",
                                   "  mbarrier.arrive.shared::cta.b64 %rd15, [%r20];\n  bar.sync 1, 64;\n");
  expect_race_at(check(broken, "named_then_mbarrier", "[96]", 32), "// READ");
}

// --- bar.warp.sync -> mbarrier: every lane of warp 0 stores, the warp synchronizes, and lane
// 0 alone arrives on an mbarrier of one arrival; warp 1 waits on it and reads every lane's store.
std::string elected_signal() {
  return kernel("elected_signal", 2, kLanes + R"(
  mov.u32 %r20, bar;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r20], 1;
  bar.sync 0;
  setp.eq.u32 %p2, %r12, 0;
  @%p2 bra PRODUCE;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0;
  @!%p4 bra WAIT;
  ld.shared.f32 %f2, [%r16]; // READ
)" + kWriteOut + R"(
  bra DONE;
PRODUCE:
)" + kStage + R"(
  bar.warp.sync -1; // WARP_SYNC
  setp.eq.u32 %p3, %r11, 0;
  @%p3 mbarrier.arrive.shared::cta.b64 %rd15, [%r20];
DONE:
)", kBufBarDecls);
}

TEST_F(HappensBeforeTest, WarpSyncThenAnElectedLanesArriveOrdersTheWholeWarp) {
  expect_clean(check(elected_signal(), "elected_signal", "[64]", 32));
  // Without the warp sync the arrive releases lane 0's store only.
  auto r = check(replace_all(elected_signal(), "  bar.warp.sync -1; // WARP_SYNC\n", ""), "elected_signal", "[64]", 32);
  expect_race_at(r, "// READ");
}

TEST_F(HappensBeforeTest, UnfaithfulNamedBarriersAreRefusedWithTheReason) {
  // Different counts in one phase.
  auto r = check(replace_all(producer_consumer(), "bar.sync 1, 128;", "bar.sync 1, 96;"), "prodcons", "[128]", 64);
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("different counts in one phase"), std::string::npos) << r.reason;
  // A phase completed by half-warps.
  std::string halves = kernel("halves", 2, R"(
  and.b32 %r11, %r0, 31;
  setp.lt.u32 %p1, %r11, 16;
  @%p1 barrier.sync 1, 32;
)" + kCopyByTid);
  r = check(halves, "halves", "[64]", 64);
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("part of warp"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("barrier.sync"), std::string::npos) << r.reason;
  // Four warps at a barrier of 64 threads: which two form the first phase depends on the
  // schedule (the engine's second phase is not ordered after its first).
  std::string pairs = kernel("pairs", 2, "  bar.sync 1, 64;\n" + kCopyByTid);
  r = check(pairs, "pairs", "[128]", 128);
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("which arrivals form a phase would depend on the schedule"), std::string::npos) << r.reason;
  // A thread count that is not a multiple of the warp size.
  r = check(replace_all(producer_consumer(), "bar.arrive 1, 128;", "mov.u32 %r30, 100;\n  bar.arrive 1, %r30;"), "prodcons",
            "[128]", 64);
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("multiple of 32"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
