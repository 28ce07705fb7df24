// Races that cannot change any output: a lane that reads an element a peer lane overwrites
// (Triton's replicated layouts in in-place kernels) is excused when no output, branch or
// address uses the value it read; a race whose value is used stays a race.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// Eight threads, two per element of out[4]: each reads out[t % 4] and doubles it; only the
// first four store. `tail` runs after, with %p1 = (t < 4), %f1 the value read, %rd10 the
// element's byte offset.
std::string replicated(std::string_view name, std::string_view tail = {}) {
  return kernel(name, 2, std::string(R"(
  and.b32 %r4, %r0, 3;
  mul.wide.u32 %rd10, %r4, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];              // RACING_LOAD
  add.f32 %f2, %f1, %f1;
  setp.lt.u32 %p1, %r0, 4;
  @%p1 st.global.f32 [%rd11], %f2;
)") + std::string(tail));
}

// out[t] *= 2 (and seen[t] = the value before), one thread per element.
const std::string kDouble = kernel("double_each", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd11], %f2;
)");

Spec spec(std::string_view a, std::string outputs = R"("out")") {
  const std::string args = R"({ readwrite = "out" }, { write = "seen" })";
  return {.tensors = tensor("out", "[4]", "f32", "input", "range = [-4, 4]") + tensor("seen", "[4]", "f32", "zeros"),
          .a = {{std::string(a), args, "[1]", "[8]"}},
          .b = {{"double_each", args, "[1]", "[4]"}},
          .outputs = std::move(outputs)};
}

bool has_race(const CheckResult& r) {
  for (const exec::Defect& d : r.defects)
    if (d.kind == exec::DefectKind::Race) return true;
  return false;
}

TEST_F(MachineTest, AReplicatedLaneWhoseReadIsUnusedDoesNotStopTheProof) {
  auto r = run(replicated("replicated") + kDouble, spec("replicated"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_FALSE(has_race(r)) << show(r);
  bool noted = false;
  for (const exec::Note& n : r.notes) noted |= n.message.find("no output depends on the value read") != std::string::npos;
  EXPECT_TRUE(noted) << show(r);
  // The same kernel with the wrong factor is still refuted.
  r = run(replace_all(replicated("replicated"), "add.f32 %f2, %f1, %f1", "mul.f32 %f2, %f1, %f1") + kDouble,
          spec("replicated"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, AReplicatedLaneReadingAConstantFloatIsExcusedToo) {
  // An in-place accumulator that starts at a constant (cut-cross-entropy's lse starts at -inf):
  // the racing load reads a whole f32 element, which the second run replaces by an unknown.
  for (std::string_view init : {R"({ full = -1.5 })", R"({ full = -inf })"}) {
    Spec s = spec("replicated");
    s.tensors = tensor("out", "[4]", "f32", init) + tensor("seen", "[4]", "f32", "zeros");
    auto r = run(replicated("replicated") + kDouble, s);
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << init << show(r);
    EXPECT_FALSE(has_race(r)) << init << show(r);
  }
  // Read as two halves, the value is not one element: the race stands.
  Spec s = spec("halves");
  s.tensors = tensor("out", "[4]", "f32", R"({ full = -1.5 })") + tensor("seen", "[4]", "f32", "zeros");
  auto halves = replace_all(replicated("halves"), "ld.global.f32 %f1, [%rd11];",
                            "ld.global.u16 %r6, [%rd11];\n  mov.f32 %f1, 0f3F800000;");
  auto r = run(halves + kDouble, s);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
}

TEST_F(MachineTest, ARacingReadThatReachesAnOutputStaysARace) {
  // The replicated lanes publish what they read: the old value or the doubled one, by schedule.
  auto used = replicated("used", R"(
  @!%p1 add.s64 %rd12, %rd1, %rd10;
  @!%p1 st.global.f32 [%rd12], %f1;
)");
  auto r = run(used + kDouble, spec("used", R"("out", "seen")"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
  // So does a constant one.
  Spec s = spec("used", R"("out", "seen")");
  s.tensors = tensor("out", "[4]", "f32", R"({ full = -1.5 })") + tensor("seen", "[4]", "f32", "zeros");
  r = run(used + kDouble, s);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
}

// Four threads per element: the engine remembers two readers of a byte (the last two), and
// the one that publishes what it read (threads 4 to 7, an earlier reader) must not escape the
// second run.
std::string four_per_element(std::string_view name, std::string_view shuffle_after) {
  return replace_all(replicated(name, R"(
  shr.u32 %r5, %r0, 2;
  setp.eq.u32 %p3, %r5, 1;
  @%p3 add.s64 %rd12, %rd1, %rd10;
  @%p3 st.global.f32 [%rd12], %f1;
)"), shuffle_after, std::string(shuffle_after) + "  shfl.sync.bfly.b32 %r9, %r0, 1, 31, 0xffff;\n");
}

Spec four_spec(std::string_view name) {
  Spec s = spec(name, R"("out", "seen")");
  s.a[0].block = "[16]";
  return s;
}

TEST_F(MachineTest, EveryReplicaOfARacingReadIsFoundNotOnlyTheTwoRemembered) {
  // Every lane reads before any stores (a shuffle waits for all), but no instruction has used
  // the value read before the shuffle: the load may still be in flight when lane 0 stores.
  auto r = run(four_per_element("four", "// RACING_LOAD\n") + kDouble, four_spec("four"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
}

TEST_F(MachineTest, AReadUsedBeforeACollectiveOfTheWarpIsOrderedBeforeLaterStores) {
  // The publishing lanes used what they read (add.f32) before a shuffle every lane takes part
  // in, and lane 0 stores after the shuffle: the load had returned before the store.
  auto r = run(four_per_element("used_first", "  add.f32 %f2, %f1, %f1;\n") + kDouble, four_spec("used_first"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_FALSE(has_race(r)) << show(r);
}

TEST_F(MachineTest, ARacingReadThatSteersABranchStaysARace) {
  auto steers = replicated("steers", R"(
  setp.gt.f32 %p2, %f1, 0f00000000;
  @%p2 bra DONE;
  add.f32 %f3, %f1, 0f3F800000;
DONE:
)");
  auto r = run(steers + kDouble, spec("steers"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_TRUE(has_race(r)) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
