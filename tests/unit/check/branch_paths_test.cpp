// Branches on symbolic data: both paths run, their registers merge as selects where the
// paths meet; what a path does beyond registers and memory is refused (memory:
// path_memory_test.cpp).
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";

std::string unary(std::string_view name, std::string_view body) { return unary_kernel(name, body); }

// x > 0 ? 2x : 3x, as a branch and as a select.
const std::string kBranchy = unary("branchy", R"(
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 bra POS;
  mul.f32 %f2, %f1, 0f40400000;
  bra.uni JOIN;
POS:
  add.f32 %f2, %f1, %f1;
JOIN:
)");
const std::string kSelect = unary("selecty", R"(
  add.f32 %f3, %f1, %f1;
  mul.f32 %f4, %f1, 0f40400000;
  setp.gt.f32 %p1, %f1, 0f00000000;
  selp.f32 %f2, %f3, %f4, %p1;
)");

Spec spec(std::string_view a, std::string_view b, std::string_view range = "range = [-4, 4]") {
  return {.tensors = tensor("x", "[4]", "f32", "input", range) + tensor("out", "[4]", "f32", "empty"),
          .a = {{std::string(a), kArgs, "[1]", "[4]"}},
          .b = {{std::string(b), kArgs, "[1]", "[4]"}}};
}

TEST_F(MachineTest, BranchOnSymbolicDataMergesBothPaths) {
  auto r = run(kBranchy + kSelect, spec("branchy", "selecty"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // The boundary moved: at x = 0 the select gives 0 either way, so move it where it shows:
  // x >= 1 ? 2x : 3x differs from the select at x in (0, 1).
  std::string shifted = replace_all(kBranchy, "setp.gt.f32 %p1, %f1, 0f00000000", "setp.ge.f32 %p1, %f1, 0f3F800000");
  r = run(shifted + kSelect, spec("branchy", "selecty"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  ASSERT_FALSE(r.counterexample->values.empty());
  EXPECT_GT(r.counterexample->values[0].value, 0);
  EXPECT_LT(r.counterexample->values[0].value, 1);
}

TEST_F(MachineTest, NestedBranchesAreAClamp) {
  // if (x < -1) y = -1; else if (x > 1) y = 1; else y = x;  against min(max(x, -1), 1).
  std::string nested = unary("nested", R"(
  setp.lt.f32 %p1, %f1, 0fBF800000;
  @%p1 bra LOW;
  setp.gt.f32 %p2, %f1, 0f3F800000;
  @%p2 bra HIGH;
  mov.f32 %f2, %f1;
  bra.uni JOIN;
HIGH:
  mov.f32 %f2, 0f3F800000;
  bra.uni JOIN;
LOW:
  mov.f32 %f2, 0fBF800000;
JOIN:
)");
  std::string clamp = unary("clamp", R"(
  max.f32 %f3, %f1, 0fBF800000;
  min.f32 %f2, %f3, 0f3F800000;
)");
  auto r = run(nested + clamp, spec("nested", "clamp"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  std::string wrong = replace_all(clamp, "min.f32 %f2, %f3, 0f3F800000", "min.f32 %f2, %f3, 0f40000000");
  r = run(nested + wrong, spec("nested", "clamp"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, PathsWithEffectsBeyondMemoryAreRefused) {
  // An atomic on one path only: its effect would depend on the path (and on the order of
  // other threads' atomics).
  std::string atomic_on_path = kernel("atomic_on_path", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f1;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 bra SKIP;
  red.global.add.f32 [%rd12], 0f3F800000;   // ATOMIC_ON_PATH
SKIP:
)");
  auto r = run(atomic_on_path + kSelect, spec("atomic_on_path", "selecty"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("only register computations, loads and stores"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("thread (0,0,0)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("PTX line " + std::to_string(line_of("ATOMIC_ON_PATH"))), std::string::npos) << r.reason;
}

TEST_F(MachineTest, SymbolicTripCountRunsInsideItsRangeAndIsRefusedWithout) {
  // while (y > 1) y *= 0.5: how often it runs depends on x.
  std::string halve = unary("halve", R"(
  mov.f32 %f2, %f1;
LOOP:
  setp.gt.f32 %p1, %f2, 0f3F800000;
  @!%p1 bra DONE;
  mul.f32 %f2, %f2, 0f3F000000;
  bra.uni LOOP;
DONE:
)");
  // Over x in [-4, 4] the loop runs at most twice, and comparisons against the range fold:
  // the result is the exact piecewise function x > 2 ? x/4 : (x > 1 ? x/2 : x).
  std::string pieces = unary("pieces", R"(
  mul.f32 %f3, %f1, 0f3F000000;
  mul.f32 %f4, %f1, 0f3E800000;
  setp.gt.f32 %p1, %f1, 0f3F800000;
  selp.f32 %f5, %f3, %f1, %p1;
  setp.gt.f32 %p2, %f1, 0f40000000;
  selp.f32 %f2, %f4, %f5, %p2;
)");
  auto r = run(halve + pieces, spec("halve", "pieces"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // Unbounded inputs: no trip count bounds the paths, and the engine refuses, never guesses.
  r = run(halve + pieces, spec("halve", "pieces", ""));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("loop"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, UntypedRegistersMergeAsTheTypeTheyAreReadAs) {
  // Triton's erf keeps polynomial coefficients picked by a branch in .b32 registers; one with
  // the sign bit set (-0.5) could be a signed or an unsigned integer by its declared type, and
  // an f32 fma reads it after the paths meet.
  std::string coeffs = kernel("coeffs", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mov.b32 %r10, 0f40000000;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 bra JOIN;
  mov.b32 %r10, 0fBF000000;
JOIN:
  fma.rn.f32 %f2, %f1, %r10, 0f3F800000;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)");
  std::string select = unary("coeffs_select", R"(
  setp.gt.f32 %p1, %f1, 0f00000000;
  selp.f32 %f3, 0f40000000, 0fBF000000, %p1;
  fma.rn.f32 %f2, %f1, %f3, 0f3F800000;
)");
  auto r = run(coeffs + select, spec("coeffs", "coeffs_select"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, IntegerResultsOfPathsMerge) {
  // A count of positive inputs built with a branch, against one built with selp.
  std::string count_branch = kernel("count_branch", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mov.u32 %r10, 0;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @!%p1 bra JOIN;
  mov.u32 %r10, 7;
JOIN:
  cvt.rn.f32.u32 %f2, %r10;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f2;
)");
  std::string count_select = unary("count_select", R"(
  setp.gt.f32 %p1, %f1, 0f00000000;
  selp.f32 %f2, 0f40E00000, 0f00000000, %p1;
)");
  auto r = run(count_branch + count_select, spec("count_branch", "count_select"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
