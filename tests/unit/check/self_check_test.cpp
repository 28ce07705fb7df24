// The self-check against the emulator: a symbolic run that mis-models an instruction must
// not produce a verdict. The engine is broken on purpose through a test hook (sub read as
// add in the symbolic domain only); the emulator keeps the real semantics.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "exec/symbolic_domain.hpp"
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

std::string binary(std::string_view name, std::string_view body) { return binary_kernel(name, body); }

constexpr const char* kSub = "sub.f32 %f3, %f1, %f2;";
constexpr const char* kAdd = "add.f32 %f3, %f1, %f2;";

struct SubReadAsAdd {
  SubReadAsAdd() {
    exec::SymbolicDomain::fault_for_testing = [](exec::FBin op) { return op == exec::FBin::Sub ? exec::FBin::Add : op; };
  }
  ~SubReadAsAdd() { exec::SymbolicDomain::fault_for_testing = nullptr; }
};

// f16 inputs in [-1000, 1000] multiplied in f32: the program holds x * y exactly enough, but
// the rounding model bounds no value beyond the narrowest format the programs use (f16's
// 65504), and |x * y| is beyond it at most points of the box: a point of the whole box
// would compare almost no cell.
const char* const kWideProductBody = R"(
  mul.wide.u32 %rd10, %r3, 2;
  add.s64 %rd11, %rd0, %rd10;
  add.s64 %rd12, %rd1, %rd10;
  ld.global.b16 %h1, [%rd11];
  ld.global.b16 %h2, [%rd12];
  cvt.f32.f16 %f1, %h1;
  cvt.f32.f16 %f2, %h2;
  mul.f32 %f3, %f1, %f2;
  mul.wide.u32 %rd13, %r3, 4;
  add.s64 %rd14, %rd2, %rd13;
  st.global.f32 [%rd14], %f3;
)";

class SelfCheckTest : public MachineTest {
 protected:
  CheckResult check_pair(std::string_view a, std::string_view b, unsigned points) {
    std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
    std::string t = tensor("x", "[8]", "f32", "input", "range = [-2, 2]") + tensor("y", "[8]", "f32", "input", "range = [-2, 2]") +
                    tensor("out", "[8]", "f32", "empty");
    CheckOptions o;
    o.self_check_points = points;
    return run(binary("prog_a", a) + binary("prog_b", b), {.tensors = t, .a = {{"prog_a", args, "[1]", "[8]"}},
                                                           .b = {{"prog_b", args, "[1]", "[8]"}}}, o);
  }
  // kWideProductBody over `cells` cells, launched as (grid, block) a and b.
  CheckResult wide_products(const std::string& cells, std::pair<std::string, std::string> a, std::pair<std::string, std::string> b) {
    const std::string decls = "  .reg .b16 %h<4>;\n";
    std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
    std::string t = tensor("x", cells, "f16", "input", "range = [-1000, 1000]") + tensor("y", cells, "f16", "input", "range = [-1000, 1000]") +
                    tensor("out", cells, "f32", "empty");
    return run(kernel("prog_a", 3, kWideProductBody, decls) + kernel("prog_b", 3, kWideProductBody, decls),
               {.tensors = t, .a = {{"prog_a", args, a.first, a.second}}, .b = {{"prog_b", args, b.first, b.second}}});
  }
};

TEST_F(SelfCheckTest, AgreesWithTheEmulatorOnARightModel) {
  CheckResult r = check_pair(kSub, kSub, 2);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_NE(r.self_check.find("16 cell values agree with the bit-exact emulation at 1 point"), std::string::npos) << r.self_check;
}

TEST_F(SelfCheckTest, TurnsAWrongEquivalentIntoUnknown) {
  SubReadAsAdd fault;
  // x - y against x + y really differ; the broken model reads both as x + y.
  CheckResult blind = check_pair(kSub, kAdd, 0);
  EXPECT_EQ(blind.verdict, Verdict::Equivalent) << "the fault should fool an unchecked run: " << show(blind);
  CheckResult r = check_pair(kSub, kAdd, 2);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_NE(r.reason.find("self-check failed: program a, cell out["), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("the emulation gives"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("x["), std::string::npos) << "the point is named: " << r.reason;
}

TEST_F(SelfCheckTest, TurnsAWrongInequivalentIntoUnknown) {
  SubReadAsAdd fault;
  // x - y against x + (-y): equal; the broken model reads a as x + y.
  const char* neg_add = "neg.f32 %f4, %f2;\n  add.f32 %f3, %f1, %f4;";
  CheckResult blind = check_pair(kSub, neg_add, 0);
  EXPECT_EQ(blind.verdict, Verdict::Inequivalent) << show(blind);
  CheckResult r = check_pair(kSub, neg_add, 2);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_NE(r.reason.find("self-check failed"), std::string::npos) << r.reason;
}


// x * 1e30 * 1e30 / 1e30 is x * 1e30 over the reals, but its float product overflows: the
// self-check says the float program leaves its format there rather than only blaming the engine.
TEST_F(SelfCheckTest, AnIntermediateOverflowIsNamedAsSuch) {
  const char* overflowing = "mul.f32 %f4, %f1, 0f7149F2CA;\n  mul.f32 %f5, %f4, 0f7149F2CA;\n  div.rn.f32 %f3, %f5, 0f7149F2CA;";
  CheckResult r = check_pair(overflowing, overflowing, 2);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_NE(r.reason.find("inf (rounding allows"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("leaves its format on the way to this cell"), std::string::npos) << r.reason;
  SubReadAsAdd fault;  // a mis-modelled run with finite values is still blamed on the engine
  CheckResult wrong = check_pair(kSub, kAdd, 2);
  EXPECT_NE(wrong.reason.find("so the engine mis-modelled something"), std::string::npos) << wrong.reason;
}

// out = x + (-y) before cell `from`, x - y from it on (the fault reads the latter as x + y).
std::string subtracts_from(unsigned from) {
  return kernel("sub_from", 3, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  add.s64 %rd12, %rd1, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd12];
  neg.f32 %f4, %f2;
  add.f32 %f5, %f1, %f4;
  sub.f32 %f6, %f1, %f2;
  setp.lt.u32 %p1, %r3, )" + std::to_string(from) + R"(;
  selp.f32 %f3, %f5, %f6, %p1;
  add.s64 %rd13, %rd2, %rd10;
  st.global.f32 [%rd13], %f3;
)");
}

// Large outputs are bounded and compared in two halves side by side: the counts are the
// whole outputs', and a disagreement is reported at the first cell a single pass would meet,
// whichever half finds it and whether or not the other half finds one too.
TEST_F(SelfCheckTest, LargeOutputsAreComparedInHalvesAndTheFirstDisagreementIsReported) {
  const std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
  const Spec s{.tensors = tensor("x", "[40000]", "f32", "input", "range = [-2, 2]") +
                          tensor("y", "[40000]", "f32", "input", "range = [-2, 2]") + tensor("out", "[40000]", "f32", "empty"),
               .a = {{"sub_from", args, "[160]", "[250]"}},
               .b = {{"sub_from", args, "[250]", "[160]"}}};
  CheckResult right = run(subtracts_from(30000), s);
  EXPECT_EQ(right.verdict, Verdict::Equivalent) << show(right);
  EXPECT_NE(right.self_check.find("80000 cell values agree"), std::string::npos) << right.self_check;
  SubReadAsAdd fault;
  for (unsigned from : {30000u, 10000u, 0u}) {  // (the halves meet at cell 20000)
    CheckResult r = run(subtracts_from(from), s);
    EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
    const std::string at = "self-check failed: program a, cell out[" + std::to_string(from) + "]:";
    EXPECT_NE(r.reason.find(at), std::string::npos) << r.reason;
  }
}

TEST_F(SelfCheckTest, NarrowsTheBoxWhereValuesPassTheNarrowestFormat) {
  CheckResult r = wide_products("[8]", {"[1]", "[8]"}, {"[1]", "[8]"});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_NE(r.self_check.find("the inputs' box narrowed by 8^"), std::string::npos) << r.self_check;
  EXPECT_EQ(r.self_check.find("self-check: 0 cell values"), std::string::npos) << r.self_check;
}

// Where the first point must be narrowed, the narrowed point the self-check takes next was
// emulated beside the symbolic run too: no emulation after it.
TEST_F(SelfCheckTest, TheFirstNarrowedPointIsEmulatedBesideTheSymbolicRun) {
  CheckResult r = wide_products("[16384]", {"[64]", "[256]"}, {"[128]", "[128]"});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_NE(r.self_check.find("the inputs' box narrowed by 8^1"), std::string::npos) << r.self_check;
  EXPECT_NE(r.self_check.find("32768 cell values agree"), std::string::npos) << r.self_check;
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_EQ(r.self_check_emulation_seconds, 0.0) << "the self-check emulated after the symbolic run: " << r.self_check;
  }
}

// The float hazard search's first point (every float input at the end of its range of largest
// magnitude) is emulated beside the symbolic run too, and the search finds there what an
// emulation after the run finds: a product taken in f16 overflows where one in f32 does not.
TEST_F(SelfCheckTest, TheHazardSearchsFirstPointIsEmulatedBesideTheSymbolicRun) {
  const std::string decls = "  .reg .b16 %h<4>;\n";
  const std::string f16_product = replace_all(kWideProductBody, "  cvt.f32.f16 %f1, %h1;\n  cvt.f32.f16 %f2, %h2;\n  mul.f32 %f3, %f1, %f2;",
                                              "  mul.rn.f16 %h3, %h1, %h2;\n  cvt.f32.f16 %f3, %h3;");
  std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
  std::string t = tensor("x", "[16384]", "f16", "input", "range = [-1000, 1000]") +
                  tensor("y", "[16384]", "f16", "input", "range = [-1000, 1000]") + tensor("out", "[16384]", "f32", "empty");
  Spec s{.tensors = t, .a = {{"prog_a", args, "[64]", "[256]"}}, .b = {{"prog_b", args, "[128]", "[128]"}}};
  const std::string ptx = kernel("prog_a", 3, kWideProductBody, decls) + kernel("prog_b", 3, f16_product, decls);
  CheckOptions after;
  after.self_check_points = 0;  // (no thread beside the run)
  CheckResult r = run(ptx, s), alone = run(ptx, s, after);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  ASSERT_FALSE(alone.float_hazards.hazards.empty()) << alone.float_hazards.summary;
  EXPECT_EQ(alone.float_hazards.runs_beside, 0u);
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_EQ(r.float_hazards.runs_beside, 1u) << r.float_hazards.summary;
  }
  ASSERT_EQ(r.float_hazards.hazards.size(), alone.float_hazards.hazards.size()) << r.float_hazards.summary;
  for (size_t i = 0; i < r.float_hazards.hazards.size(); ++i) {
    const FloatHazard &h = r.float_hazards.hazards[i], &g = alone.float_hazards.hazards[i];
    EXPECT_EQ(h.kind, g.kind);
    EXPECT_EQ(h.program, g.program);
    EXPECT_EQ(h.cell, g.cell);
    EXPECT_EQ(h.cells, g.cells);
    EXPECT_EQ(h.bits, g.bits);
    EXPECT_EQ(h.message, g.message);
  }
  EXPECT_EQ(r.float_hazards.hazards.front().kind, "overflow") << r.float_hazards.hazards.front().message;
  EXPECT_EQ(r.float_hazards.hazards.front().program, 'b') << r.float_hazards.hazards.front().message;
}

// Where the programs launch enough threads, the first point is emulated beside the symbolic
// run (check/early_emulation.hpp) and the self-check takes that run: no emulation after it.
TEST_F(SelfCheckTest, TheFirstPointIsEmulatedBesideTheSymbolicRun) {
  const std::string args = R"({ read = "x" }, { write = "out" })";
  Spec s{.tensors = tensor("x", "[16384]", "f32", "input") + tensor("out", "[16384]", "f32", "empty"),
         .a = {{"copy", args, "[128]", "[64]"}},
         .b = {{"copy", args, "[256]", "[32]"}}};
  CheckResult r = run(copy_kernel("copy"), s);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_NE(r.self_check.find("32768 cell values agree with the bit-exact emulation at 1 point"), std::string::npos) << r.self_check;
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_EQ(r.self_check_emulation_seconds, 0.0) << "the self-check emulated after the symbolic run: " << r.self_check;
  } else {  // (one core: no thread beside the symbolic run, by design)
    EXPECT_GT(r.self_check_emulation_seconds, 0.0) << r.self_check;
  }
}

// A check that ends in its symbolic run cancels the emulation beside it rather than wait for
// it: program a is refused at once (an address from float data), which the emulation runs
// through, and then it would emulate program b over 2^22 cells for seconds.
TEST_F(SelfCheckTest, AnEndedCheckCancelsTheEmulationBesideIt) {
  const std::string float_index = kernel("float_index", 2, R"(
  ld.global.f32 %f1, [%rd0];
  cvt.rzi.s32.f32 %r5, %f1;
  mul.wide.s32 %rd10, %r5, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f2, [%rd11];
  mul.wide.u32 %rd12, %r3, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f2;
)");
  const std::string args = R"({ read = "x" }, { write = "out" })";
  Spec s{.tensors = tensor("x", "[4194304]", "f32", "input") + tensor("out", "[4194304]", "f32", "empty"),
         .a = {{"float_index", args, "[32]", "[256]"}},
         .b = {{"copy", args, "[16384]", "[256]"}}};
  auto start = std::chrono::steady_clock::now();
  CheckResult r = run(float_index + copy_kernel("copy"), s);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_LT(seconds, 2.0) << "waited for the emulation";  // (it takes 2.5 s or more uncancelled)
}

}  // namespace
// q = trunc(x / s) into an integer with s = max(x, y) / 127 held in f16 (lightllm's int8
// quantization): over the reals q is 127 wherever x >= y, while the float program lands on 126
// or 127 as s rounds. That is rounding at a step, not mis-modelling: such cells have no bound.
// A mis-modelled float feeding an integer conversion is still caught.
std::string truncates_to_integer(std::string_view name, std::string_view body) {
  return kernel(name, 3, std::string(R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  add.s64 %rd12, %rd1, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd12];
  )") + std::string(body) + R"(
  cvt.rzi.s32.f32 %r4, %f3;
  add.s64 %rd13, %rd2, %rd10;
  st.global.s32 [%rd13], %r4;
)", "  .reg .b16 %h<4>;\n");
}

constexpr const char* kQuantizeBody = R"(max.f32 %f4, %f1, %f2;
  div.rn.f32 %f5, %f4, 0f42FE0000;
  cvt.rn.f16.f32 %h1, %f5;
  cvt.f32.f16 %f6, %h1;
  div.rn.f32 %f3, %f1, %f6;)";

// out = x + (y - x) with |x| up to 1000 and |y| at most 1/1000: the Store reads it as y, which the
// program holds exactly, while the float subtraction rounds at x's magnitude. The folded node's
// bound carries that rounding, so the emulation's difference is no alarm.
TEST_F(SelfCheckTest, AFoldedCancellationIsNoAlarm) {
  const std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
  const std::string cancel = "sub.f32 %f4, %f2, %f1;\n  add.f32 %f3, %f1, %f4;";
  const std::string copy = "mov.f32 %f3, %f2;";
  const Spec s{.tensors = tensor("x", "[64]", "f32", "input", "range = [-1000, 1000]") +
                          tensor("y", "[64]", "f32", "input", "range = [-0.001, 0.001]") + tensor("out", "[64]", "f32", "empty"),
               .a = {{"prog_a", args, "[1]", "[64]"}},
               .b = {{"prog_b", args, "[1]", "[64]"}}};
  CheckOptions o;
  o.self_check_points = 2;
  CheckResult r = run(binary("prog_a", cancel) + binary("prog_b", copy), s, o);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_EQ(r.self_check.find("FAILED"), std::string::npos) << r.self_check;
}

TEST_F(SelfCheckTest, AnIntegerRoundedFromFloatsAtAStepIsNotAnAlarm) {
  const std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
  const Spec s{.tensors = tensor("x", "[64]", "f32", "input", "range = [1, 2]") +
                          tensor("y", "[64]", "f32", "input", "range = [1, 2]") + tensor("out", "[64]", "i32", "empty"),
               .a = {{"quantize", args, "[1]", "[64]"}},
               .b = {{"quantize", args, "[2]", "[32]"}}};
  CheckResult r = run(truncates_to_integer("quantize", kQuantizeBody), s);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_NE(r.self_check.find("without a rounding bound there"), std::string::npos) << r.self_check;

  SubReadAsAdd fault;
  const std::string sub_then_truncate = truncates_to_integer("prog_a", kSub) + truncates_to_integer("prog_b", kAdd);
  const Spec wrong{.tensors = tensor("x", "[64]", "f32", "input", "range = [-4, 4]") +
                              tensor("y", "[64]", "f32", "input", "range = [-4, 4]") + tensor("out", "[64]", "i32", "empty"),
                   .a = {{"prog_a", args, "[1]", "[64]"}},
                   .b = {{"prog_b", args, "[1]", "[64]"}}};
  CheckResult caught = run(sub_then_truncate, wrong);
  EXPECT_EQ(caught.verdict, Verdict::Unknown) << show(caught);
  EXPECT_NE(caught.reason.find("self-check failed: program a, cell out["), std::string::npos) << caught.reason;
}

}  // namespace racer::check::testing
