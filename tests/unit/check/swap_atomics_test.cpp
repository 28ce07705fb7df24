// atom.cas and atom.exch (exec/atomics.cpp swap_atomic): a lock one thread takes and releases
// around its update of an output runs in that thread's program order; a second thread swapping
// the same cell, or another atomic updating it, makes the outcome depend on the order: refused.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// Thread 0 of each CTA adds x[ctaid] into out[0] under a spin lock on lock[0] (CAS 0 -> 1, the
// update, exchange back to 0); `extra` runs after the release.
std::string locked_add(std::string_view name, std::string_view extra = {}) {
  return kernel(name, 3, std::string(R"(
  setp.ne.u32 %p1, %r0, 0;
  @%p1 bra DONE;
  mul.wide.u32 %rd10, %r1, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
SPIN:
  atom.global.cas.b32 %r10, [%rd2], 0, 1;
  setp.ne.u32 %p2, %r10, 0;
  @%p2 bra SPIN;
  ld.global.f32 %f2, [%rd1];
  add.f32 %f3, %f2, %f1;
  st.global.f32 [%rd1], %f3;
  atom.global.exch.b32 %r11, [%rd2], 0;
)") + std::string(extra) + R"(
DONE:
)");
}

std::string plain_copy(std::string_view name) {
  return kernel(name, 3, R"(
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra DONE;
  ld.global.f32 %f1, [%rd0];
  st.global.f32 [%rd1], %f1;
DONE:
)");
}

Spec lock_spec(std::string_view a, std::string_view b, std::string_view grid) {
  const std::string args = R"({ read = "x" }, { readwrite = "out" }, { readwrite = "lock" })";
  return {.tensors = tensor("x", "[2]", "f32", "input", "range = [-4, 4]") + tensor("out", "[1]", "f32", "zeros") +
                     tensor("lock", "[1]", "i32", "zeros"),
          .a = {{std::string(a), args, std::string(grid), "[32]"}},
          .b = {{std::string(b), args, "[1]", "[32]"}}};
}

TEST_F(MachineTest, ALockOneThreadTakesAndReleasesIsItsProgramOrder) {
  auto r = run(locked_add("locked") + plain_copy("copy"), lock_spec("locked", "copy", "[1]"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, ALockTwoThreadsTakeIsRefused) {
  // Two CTAs' thread 0 swap the same lock: which gets it first is the schedule's.
  auto r = run(locked_add("locked") + plain_copy("copy"), lock_spec("locked", "copy", "[2]"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("by two threads"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("atom.global.cas.b32"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, AnAtomicAddOnASwappedCellIsRefused) {
  auto r = run(locked_add("locked", "  atom.global.add.u32 %r12, [%rd2], 1;\n") + plain_copy("copy"),
               lock_spec("locked", "copy", "[1]"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("compare-and-swap or exchange also updates"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, AnAtomicInsideAWiderSwappedCellIsRefused) {
  // An 8-byte exchange of lock[0..1], then a 4-byte add into lock[1]: the cells overlap.
  std::string k = kernel("wide", 3, R"(
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra DONE;
  mov.u64 %rd20, 0;
  atom.global.exch.b64 %rd21, [%rd2], %rd20;
  atom.global.add.u32 %r12, [%rd2+4], 1;
  ld.global.f32 %f1, [%rd0];
  st.global.f32 [%rd1], %f1;
DONE:
)");
  const std::string args = R"({ read = "x" }, { readwrite = "out" }, { readwrite = "lock" })";
  Spec sp{.tensors = tensor("x", "[2]", "f32", "input", "range = [-4, 4]") + tensor("out", "[1]", "f32", "zeros") +
                     tensor("lock", "[2]", "i32", "zeros"),
          .a = {{"wide", args, "[1]", "[32]"}},
          .b = {{"copy", args, "[1]", "[32]"}}};
  auto r = run(k + plain_copy("copy"), sp);
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("compare-and-swap or exchange also updates"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, TheLockedUpdateIsChecked) {
  // The lock changes nothing of the update's meaning: adding x[0] twice is refuted.
  auto r = run(locked_add("locked") + kernel("twice", 3, R"(
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra DONE;
  ld.global.f32 %f1, [%rd0];
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd1], %f2;
DONE:
)"),
               lock_spec("locked", "twice", "[1]"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
