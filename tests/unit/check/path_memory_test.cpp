// Memory on paths of branches on symbolic data: a path's stores are held until the paths
// meet and land as selects on the branch condition; its loads see its own stores; a guarded
// load, store or exit is a path of its own; defects found on a path name its condition.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";

// out = max(x, 0) with a select: the reference of most tests here.
const std::string kRelu = unary_kernel("relu", R"(
  setp.gt.f32 %p1, %f1, 0f00000000;
  selp.f32 %f2, %f1, 0f00000000, %p1;
)");

// out = x, then (x <= 0) out = 0 on a path of its own.
std::string store_on_path(std::string_view name, std::string_view fix) {
  return kernel(name, 2, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 bra SKIP;
)") + std::string(fix) + "\nSKIP:\n");
}

Spec spec(std::string_view a, std::string_view b) {
  return {.tensors = tensor("x", "[4]", "f32", "input", "range = [-4, 4]") + tensor("out", "[4]", "f32", "empty"),
          .a = {{std::string(a), kArgs, "[1]", "[4]"}},
          .b = {{std::string(b), kArgs, "[1]", "[4]"}}};
}

TEST_F(MachineTest, AStoreOnOnePathLandsAsASelect) {
  auto r = run(store_on_path("clip", "  st.global.f32 [%rd12], 0f00000000;") + kRelu, spec("clip", "relu"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // The wrong constant on the path shows at x <= 0 only.
  r = run(store_on_path("clip", "  st.global.f32 [%rd12], 0f3F800000;   // PATH_STORE") + kRelu, spec("clip", "relu"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  ASSERT_FALSE(r.counterexample->values.empty());
  EXPECT_LE(r.counterexample->values[0].value, 0);
  // The report names the store that wrote the refuted cell in each program.
  EXPECT_NE(r.counterexample->stored_by_a.find("PTX line " + std::to_string(line_of("PATH_STORE"))), std::string::npos)
      << r.counterexample->stored_by_a;
  EXPECT_NE(r.counterexample->stored_by_b.find("st.global.f32"), std::string::npos) << r.counterexample->stored_by_b;
}

TEST_F(MachineTest, StoresOnBothPathsAndALoadOfThePathsOwnStore) {
  // if (x > 0) out = x; else { out = 0; out = out + 0 (read back); }
  std::string branchy = kernel("branchy", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 bra POS;
  st.global.f32 [%rd12], 0fC0000000;
  ld.global.f32 %f3, [%rd12];
  add.f32 %f4, %f3, 0f40000000;
  st.global.f32 [%rd12], %f4;
  bra.uni JOIN;
POS:
  st.global.f32 [%rd12], %f1;
JOIN:
)");
  auto r = run(branchy + kRelu, spec("branchy", "relu"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, GuardedStoreAndGuardedLoadOnSymbolicPredicates) {
  // nvcc's if-conversion: @%p st / @%p ld with a predicate computed from the data.
  std::string guarded = kernel("guarded", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  mov.f32 %f2, 0f00000000;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 ld.global.f32 %f2, [%rd11];
  st.global.f32 [%rd12], 0f00000000;
  @%p1 st.global.f32 [%rd12], %f2;
)");
  auto r = run(guarded + kRelu, spec("guarded", "relu"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, AGuardedExitEndsOnePathAtTheKernelsEnd) {
  // out = 0; if (x <= 0) return; out = x;
  std::string early = kernel("early", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], 0f00000000;
  setp.le.f32 %p1, %f1, 0f00000000;
  @%p1 ret;
  st.global.f32 [%rd12], %f1;
)");
  auto r = run(early + kRelu, spec("early", "relu"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // Without the first store, out keeps its unknown initial contents where x <= 0.
  std::string forgot = replace_all(early, "  st.global.f32 [%rd12], 0f00000000;\n", "");
  r = run(forgot + kRelu, spec("early", "relu"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, ADefectOnAPathNamesItsCondition) {
  // if (x <= 0) out[tid + 4] = 0: past the end of out, only for inputs that take the path.
  auto r = run(store_on_path("oob", R"(
  add.s64 %rd13, %rd12, 16;
  st.global.f32 [%rd13], 0f00000000;   // OOB_ON_PATH
)") + kRelu, spec("oob", "relu"));
  const exec::Defect* oob = nullptr;
  for (const exec::Defect& d : r.defects)
    if (d.kind == DefectKind::OobWrite) oob = &d;
  ASSERT_NE(oob, nullptr) << show(r);
  EXPECT_EQ(oob->site.ptx_line, line_of("OOB_ON_PATH"));
  EXPECT_NE(oob->detail.find("only where"), std::string::npos) << oob->detail;
}

TEST_F(MachineTest, AStoreOnOnePathToMemoryWithNoValueIsRefused) {
  // Shared memory holds nothing before the branch: on the other path the cell has no value
  // that a select could name.
  std::string smem = kernel("smem", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mov.u32 %r10, buf;
  shl.b32 %r11, %r0, 2;
  add.s32 %r12, %r10, %r11;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 st.shared.f32 [%r12], %f1;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
)", "  .shared .align 4 .b8 buf[16];\n");
  auto r = run(smem + kRelu, spec("smem", "relu"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("holds no value on the other path"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
