// activemask (sem/warp.cpp): the lanes of a warp that execute it together. Answered where the
// program determines them (every live lane reaches it along the same branches, none on
// symbolic data: lanes that exited are not active), refused where reconvergence or the
// schedule would decide.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// 20 of 32 lanes pass the guard; out[tid] = x[tid] * popc(activemask) after `between`, which
// may branch (to SKIP) but computes nothing.
std::string scaled_by_active(std::string_view between) {
  return kernel("am", 2, std::string(R"(
  setp.ge.u32 %p1, %r0, 20;
  @%p1 bra DONE;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
)") + std::string(between) + R"(
SKIP:
  activemask.b32 %r10;
  popc.b32 %r11, %r10;
  cvt.rn.f32.u32 %f2, %r11;
  mul.f32 %f3, %f1, %f2;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f3;
DONE:
)");
}

// out[tid] = x[tid] * c for the 20 lanes past the guard.
std::string scaled_by(std::string_view c) {
  return kernel("ref", 2, std::string(R"(
  setp.ge.u32 %p1, %r0, 20;
  @%p1 bra DONE;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mul.f32 %f3, %f1, )") + std::string(c) + R"(;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f3;
DONE:
)");
}

Spec spec() {
  const std::string args = R"({ read = "x" }, { write = "out" })";
  return {.tensors = tensor("x", "[20]", "f32", "input", "range = [-4, 4]") + tensor("out", "[20]", "f32", "empty"),
          .a = {{"am", args}},
          .b = {{"ref", args}}};
}

TEST_F(MachineTest, ActivemaskCountsTheLanesThatDidNotExit) {
  auto r = run(scaled_by_active("") + scaled_by("0f41A00000"), spec());  // 20
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  auto full = run(scaled_by_active("") + scaled_by("0f42000000"), spec());  // 32: a full warp assumed
  EXPECT_EQ(full.verdict, Verdict::Inequivalent) << show(full);
}

TEST_F(MachineTest, ActivemaskAfterABranchEveryLaneTakesIsAnswered) {
  // ntid.x < 1000 holds in every lane: one path, the same trace.
  auto r = run(scaled_by_active("  setp.lt.u32 %p2, %r2, 1000;\n  @%p2 bra SKIP;\n  add.f32 %f1, %f1, 0f00000000;") +
                   scaled_by("0f41A00000"),
               spec());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, ActivemaskAfterLanesPartedIsRefused) {
  // Lanes 0..7 jump, the others fall through: whether they run together again at the
  // activemask is the hardware's reconvergence, not the program.
  auto r = run(scaled_by_active("  setp.lt.u32 %p2, %r0, 8;\n  @%p2 bra SKIP;\n  add.f32 %f1, %f1, 0f00000000;") +
                   scaled_by("0f41A00000"),
               spec());
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("activemask.b32"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("different branches"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, ActivemaskAfterABranchOnDataIsRefused) {
  auto r = run(scaled_by_active("  setp.gt.f32 %p2, %f1, 0f00000000;\n  @%p2 bra SKIP;\n  add.f32 %f1, %f1, 0f00000000;") +
                   scaled_by("0f41A00000"),
               spec());
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("activemask.b32"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("branched on symbolic data"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
