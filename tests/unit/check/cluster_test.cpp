// Thread-block clusters at the edges the t_cl_* cases do not reach: which barrier.cluster
// forms order what (a relaxed arrive releases nothing; accesses between a thread's arrive
// and its wait are unordered), the misuses that are refused with the instruction and the
// reason, and launches whose cluster shape contradicts the entry.
#include "fixture.hpp"
#include "support/error.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";
const std::string kTensors = tensor("x", "[64]", "f32", "input") + tensor("out", "[64]", "f32", "empty");

// Two CTAs of a cluster swap their halves through distributed shared memory: each stages
// x[gid] in shared memory, and after a cluster barrier reads the other rank's copy.
std::string exchange() {
  return kernel("xchg", 2, R"(
  barrier.cluster.arrive.relaxed.aligned; // START
  barrier.cluster.wait.aligned;
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mov.u32 %r10, buf;
  shl.b32 %r11, %r0, 2;
  add.u32 %r12, %r10, %r11;
  st.shared.f32 [%r12], %f1; // STAGE
  barrier.cluster.arrive.aligned; // RELEASE
  barrier.cluster.wait.aligned; // ACQUIRE
  mov.u32 %r13, %cluster_ctarank;
  xor.b32 %r14, %r13, 1;
  mapa.shared::cluster.u32 %r15, %r12, %r14;
  ld.shared::cluster.f32 %f2, [%r15]; // REMOTE
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
  barrier.cluster.arrive.aligned; // EXIT
  barrier.cluster.wait.aligned;
)", "  .shared .align 4 .f32 buf[32];\n");
}

// out[gid] = x[gid ^ 32]: the same swap without clusters.
std::string swap_ref() {
  return kernel("swap", 2, R"(
  xor.b32 %r10, %r3, 32;
  mul.wide.u32 %rd10, %r10, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mul.wide.u32 %rd12, %r3, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f1;
)");
}

class ClusterTest : public MachineTest {
 protected:
  CheckResult check(const std::string& xchg, std::string cluster = "[2, 1, 1]") {
    return run(xchg + swap_ref(), {.tensors = kTensors,
                                   .a = {{.entry = "xchg", .args = kArgs, .grid = "[2]", .cluster = cluster}},
                                   .b = {{.entry = "swap", .args = kArgs, .grid = "[2]"}}});
  }
};

TEST_F(ClusterTest, ExchangeThroughDistributedSharedMemoryIsEquivalent) {
  auto r = check(exchange());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(ClusterTest, ARelaxedArriveReleasesNothing) {
  auto r = check(replace_all(exchange(), "barrier.cluster.arrive.aligned; // RELEASE", "barrier.cluster.arrive.relaxed.aligned;"));
  expect_defect(r, DefectKind::Race, "not ordered");
}

TEST_F(ClusterTest, AccessesBetweenArriveAndWaitAreUnordered) {
  // The store moves after the arrive: the other CTA's wait does not wait for it.
  std::string moved = replace_all(exchange(), "  st.shared.f32 [%r12], %f1; // STAGE\n", "");
  moved = replace_all(moved, "barrier.cluster.wait.aligned; // ACQUIRE", "st.shared.f32 [%r12], %f1;\n  barrier.cluster.wait.aligned;");
  auto r = check(moved);
  ASSERT_NE(find(r, DefectKind::Race, 'a'), nullptr) << show(r);
}

TEST_F(ClusterTest, ReadingAnotherCtaBeforeAnyClusterBarrierIsARace) {
  std::string early = replace_all(exchange(), "  barrier.cluster.arrive.relaxed.aligned; // START\n  barrier.cluster.wait.aligned;\n", "");
  early = replace_all(early, "  barrier.cluster.arrive.aligned; // RELEASE\n  barrier.cluster.wait.aligned; // ACQUIRE\n", "");
  auto r = check(early);
  if (const exec::Defect* d = expect_defect(r, DefectKind::Race, "may not have started")) {
    EXPECT_EQ(d->site.ptx_line, line_of("// REMOTE")) << show(r);
  }
}

TEST_F(ClusterTest, ExitingWithoutAClusterBarrierTheOthersWaitAtIsARace) {
  auto r = check(replace_all(exchange(), "  barrier.cluster.arrive.aligned; // EXIT\n  barrier.cluster.wait.aligned;\n", ""));
  if (const exec::Defect* d = expect_defect(r, DefectKind::Race, "may have exited")) {
    EXPECT_EQ(d->site.ptx_line, line_of("// REMOTE")) << show(r);
  }
}

TEST_F(ClusterTest, ARankBeyondTheClusterIsAnOutOfBoundsRead) {
  auto r = check(replace_all(exchange(), "xor.b32 %r14, %r13, 1;", "add.u32 %r14, %r13, 1;"));
  expect_defect(r, DefectKind::OobRead, "cluster rank 2 (the cluster has 2 CTAs)");
}

TEST_F(ClusterTest, MisusedBarriersAreRefusedWithTheReason) {
  auto r = check(replace_all(exchange(), "barrier.cluster.arrive.aligned; // RELEASE", "barrier.cluster.arrive.aligned;\n  barrier.cluster.arrive.aligned;"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("a second time without a barrier.cluster.wait"), std::string::npos) << r.reason;

  r = check(replace_all(exchange(), "barrier.cluster.arrive.relaxed.aligned; // START", ""));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("without a barrier.cluster.arrive of this thread"), std::string::npos) << r.reason;

  // Thread 0 of each CTA leaves before the last barrier: the others can never pass it.
  r = check(replace_all(exchange(), "  barrier.cluster.arrive.aligned; // EXIT", "  setp.eq.u32 %p1, %r0, 0;\n  @%p1 ret;\n  barrier.cluster.arrive.aligned;"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("cluster barrier"), std::string::npos) << r.reason;
}

TEST_F(ClusterTest, WithoutAClusterEveryCtaIsAClusterOfOne) {
  // Rank 1 does not exist in a cluster of one: the remote read is out of bounds.
  expect_defect(check(exchange(), ""), DefectKind::OobRead, "cluster rank 1 (the cluster has 1 CTA)");
}

TEST_F(ClusterTest, LaunchesContradictingTheEntryAreErrors) {
  std::string req = replace_all(exchange(), ".visible .entry xchg(.param .u64 p0, .param .u64 p1)\n",
                                ".visible .entry xchg(.param .u64 p0, .param .u64 p1)\n.reqnctapercluster 2, 1, 1\n");
  EXPECT_EQ(check(req, "").verdict, Verdict::Equivalent);  // the entry's shape applies
  try {
    check(req, "[1, 1, 1]");
    ADD_FAILURE() << "a contradicting cluster shape loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("requires clusters of (2,1,1) CTAs (.reqnctapercluster), the launch declares (1,1,1)"),
              std::string::npos) << e.what();
  }
  std::string explicit_cluster = replace_all(exchange(), ".visible .entry xchg(.param .u64 p0, .param .u64 p1)\n",
                                             ".visible .entry xchg(.param .u64 p0, .param .u64 p1)\n.explicitcluster\n");
  try {
    check(explicit_cluster, "");
    ADD_FAILURE() << "an .explicitcluster entry launched without a cluster loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is .explicitcluster: the launch must declare a cluster shape"), std::string::npos) << e.what();
  }
}

// Producer and consumer CTAs: rank 1 stores x[32 + t] into rank 0's shared buffer and arrives
// on rank 0's mbarrier (release); rank 0 waits for the phase (acquire) and copies the buffer
// out. The mbarrier orders the stores before the reads.
std::string handoff() {
  return kernel("handoff", 2, cluster_handoff_prologue(32) + R"(  mapa.shared::cluster.u32 %r15, %r12, 0;
  st.shared::cluster.f32 [%r15], %f1;
  mapa.shared::cluster.u32 %r21, %r20, 0;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21];
  bra DONE;
CONSUME:
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT
  @!%p4 bra WAIT;
  ld.shared.f32 %f2, [%r12];
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f2;
DONE:
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
)", "  .shared .align 4 .f32 buf[32];\n  .shared .align 8 .b64 bar;\n");
}

TEST_F(ClusterTest, AnMbarrierPhaseOrdersTheProducersStoresBeforeTheConsumersReads) {
  const std::string tensors = tensor("x", "[64]", "f32", "input") + tensor("out", "[32]", "f32", "empty");
  // One CTA of swap_ref is out[t] = x[32 + t].
  auto r = run(handoff() + swap_ref(), {.tensors = tensors,
                                         .a = {{.entry = "handoff", .args = kArgs, .grid = "[2]", .cluster = "[2, 1, 1]"}},
                                         .b = {{.entry = "swap", .args = kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // Without the wait nothing orders them: a race.
  std::string no_wait = replace_all(handoff(), "  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r20], 0; // WAIT\n  @!%p4 bra WAIT;\n", "");
  r = run(no_wait + swap_ref(), {.tensors = tensors,
                                 .a = {{.entry = "handoff", .args = kArgs, .grid = "[2]", .cluster = "[2, 1, 1]"}},
                                 .b = {{.entry = "swap", .args = kArgs}}});
  expect_defect(r, DefectKind::Race, "not ordered");
}

TEST_F(ClusterTest, AnMbarrierInitIsVisibleToOtherCtasOnlyWhenReleased) {
  const std::string tensors = tensor("x", "[64]", "f32", "input") + tensor("out", "[32]", "f32", "empty");
  auto check_handoff = [&](const std::string& kernel_text) {
    return run(kernel_text + swap_ref(), {.tensors = tensors,
                                          .a = {{.entry = "handoff", .args = kArgs, .grid = "[2]", .cluster = "[2, 1, 1]"}},
                                          .b = {{.entry = "swap", .args = kArgs}}});
  };
  const std::string first = "  barrier.cluster.arrive.aligned;\n  barrier.cluster.wait.aligned;\n  @%p2 bra CONSUME;";
  // CUTLASS's form: fence.mbarrier_init, then a relaxed arrive.
  auto r = check_handoff(replace_all(handoff(), first,
                                     "  fence.mbarrier_init.release.cluster;\n  barrier.cluster.arrive.relaxed.aligned;\n"
                                     "  barrier.cluster.wait.aligned;\n  @%p2 bra CONSUME;"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // A relaxed arrive alone publishes nothing: the remote arrive is refused.
  r = check_handoff(replace_all(handoff(), first,
                                "  barrier.cluster.arrive.relaxed.aligned;\n  barrier.cluster.wait.aligned;\n  @%p2 bra CONSUME;"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("whose mbarrier.init no barrier.cluster orders before this arrive"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
