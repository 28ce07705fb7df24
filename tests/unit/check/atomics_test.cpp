// Atomics: combined where their order does not matter (sums, min/max), refused where it
// does (the old value, mixed operations, compare-and-swap, a plain read while pending).
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kXOut = R"({ read = "x" }, { readwrite = "out" })";

// out[0] += x[g] by atom.global.add.f32, its old value unused.
const std::string kAtomSum = kernel("atom_sum", 2, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  atom.global.add.f32 %f2, [%rd1], %f1;    // ATOM_SUM
)");

// One thread: out[0] = 0 combined with x[0], ..., x[n-1] in turn, `step` folding %f2 into %f1.
std::string seq_reduce(std::string_view name, int n, std::string_view step) {
  return kernel(name, 2, R"(
  mov.f32 %f1, 0f00000000;
  mov.u32 %r10, 0;
LOOP:
  mul.wide.u32 %rd10, %r10, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f2, [%rd11];
  )" + std::string(step) + R"(
  add.s32 %r10, %r10, 1;
  setp.lt.u32 %p1, %r10, )" + std::to_string(n) + R"(;
  @%p1 bra LOOP;
  st.global.f32 [%rd1], %f1;
)");
}

// One thread: out[0] = x[0] + ... + x[n-1].
std::string seq_sum(std::string_view name, int n) { return seq_reduce(name, n, "add.f32 %f1, %f1, %f2;"); }

TEST_F(MachineTest, FloatAtomicAddIntoZeroedCellIsTheSum) {
  std::string t = tensor("x", "[64]", "f32", "input") + tensor("out", "[1]", "f32", "zeros");
  std::string mod = kAtomSum + seq_sum("seq_sum", 64) + seq_sum("seq_sum_short", 63);
  auto r = run(mod, {.tensors = t, .a = {{"atom_sum", kXOut, "[2]", "[32]"}}, .b = {{"seq_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  r = run(mod, {.tensors = t, .a = {{"atom_sum", kXOut, "[2]", "[32]"}}, .b = {{"seq_sum_short", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, FloatAtomicAddIntoEmptyCellIsUninit) {
  std::string t = tensor("x", "[64]", "f32", "input") + tensor("out", "[1]", "f32", "empty");
  auto r = run(kAtomSum + seq_sum("seq_sum", 64),
               {.tensors = t, .a = {{"atom_sum", kXOut, "[2]", "[32]"}}, .b = {{"seq_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  const exec::Defect* d = find(r, DefectKind::UninitRead, 'a');
  ASSERT_NE(d, nullptr) << show(r);
  EXPECT_EQ(d->memory, "out[0]");
  EXPECT_EQ(d->site.ptx_line, line_of("ATOM_SUM"));
  ASSERT_TRUE(r.counterexample.has_value());
  bool uninit_in_witness = false;
  for (const WitnessValue& w : r.counterexample->values)
    uninit_in_witness |= w.kind == "uninitialized" && w.tensor == 1 && w.cell == 0 && w.value != 0;
  EXPECT_TRUE(uninit_in_witness) << show(r);
}

TEST_F(MachineTest, UsingTheOldValueOfAnAtomicRefused) {
  std::string k = kernel("atom_old", 3, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  atom.global.add.f32 %f2, [%rd1], %f1;
  add.s64 %rd12, %rd2, %rd10;
  st.global.f32 [%rd12], %f2;
)");
  std::string t = tensor("x", "[32]", "f32", "input") + tensor("out", "[1]", "f32", "zeros") +
                  tensor("olds", "[32]", "f32", "zeros");
  auto r = run(k + seq_sum("seq_sum", 32),
               {.tensors = t,
                .a = {{"atom_old", R"({ read = "x" }, { readwrite = "out" }, { write = "olds" })", "[1]", "[32]"}},
                .b = {{"seq_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("atomic"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("st.global.f32"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, MixedAtomicOperationsOnOneCellRefused) {
  // Even threads add 1, odd threads take the max with tid.
  std::string k = kernel("atom_mixed", 1, R"(
  and.b32 %r10, %r0, 1;
  setp.eq.u32 %p1, %r10, 0;
  @%p1 atom.global.add.u32 %r11, [%rd0], 1;
  @!%p1 atom.global.max.u32 %r12, [%rd0], %r0;
)");
  std::string t = tensor("out", "[1]", "i32", "zeros");
  auto r = run(k, {.tensors = t, .a = {{"atom_mixed", R"({ readwrite = "out" })", "[1]", "[32]"}},
                   .b = {{"atom_mixed", R"({ readwrite = "out" })", "[1]", "[32]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("different atomic operations"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("atom.global.max.u32"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("thread (1,0,0)"), std::string::npos) << r.reason;
}

// sh[0] = 0 by thread 0; barrier; every thread atom.shared.add x[tid]; `sync`; thread 0 stores sh[0].
std::string shared_sum(std::string_view name, std::string_view sync) {
  return kernel(name, 2, std::string(R"(
  mov.u32 %r10, sh;
  setp.eq.u32 %p1, %r0, 0;
  mov.f32 %f5, 0f00000000;
  @%p1 st.shared.f32 [%r10], %f5;
  bar.sync 0;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  atom.shared.add.f32 %f2, [%r10], %f1;
)") + std::string(sync) + R"(
  @%p1 ld.shared.f32 %f3, [%r10];    // READ_TOTAL
  @%p1 st.global.f32 [%rd1], %f3;
)", "  .shared .align 4 .b8 sh[16];\n");
}

TEST_F(MachineTest, SharedAtomicsAreCombinedAtTheBarrier) {
  std::string t = tensor("x", "[64]", "f32", "input") + tensor("out", "[1]", "f32", "empty");
  auto r = run(shared_sum("shared_sum", "  bar.sync 0;\n") + seq_sum("seq_sum", 64),
               {.tensors = t, .a = {{"shared_sum", kXOut, "[1]", "[64]"}}, .b = {{"seq_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(MachineTest, PlainReadWhileSharedAtomicsPendRefused) {
  std::string t = tensor("x", "[64]", "f32", "input") + tensor("out", "[1]", "f32", "empty");
  auto r = run(shared_sum("shared_sum_nosync", "") + seq_sum("seq_sum", 64),
               {.tensors = t, .a = {{"shared_sum_nosync", kXOut, "[1]", "[64]"}}, .b = {{"seq_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("pending"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("PTX line " + std::to_string(line_of("READ_TOTAL"))), std::string::npos) << r.reason;
}

// atomicMax of (37 tid mod 64) - 20 over 64 threads: 43.
const std::string kAtomMax = kernel("atom_max", 1, R"(
  mul.lo.s32 %r10, %r0, 37;
  and.b32 %r10, %r10, 63;
  sub.s32 %r11, %r10, 20;
  atom.global.max.s32 %r12, [%rd0], %r11;
)");

std::string store_const(std::string_view name, int v) {
  return kernel(name, 1, "  mov.u32 %r11, " + std::to_string(v) + ";\n  st.global.u32 [%rd0], %r11;\n");
}

TEST_F(MachineTest, IntegerAtomicMaxOfConcreteValues) {
  std::string t = tensor("out", "[1]", "i32", "{ values = [-100] }");
  std::string mod = kAtomMax + store_const("store_43", 43) + store_const("store_42", 42);
  const std::string arg = R"({ readwrite = "out" })";
  auto r = run(mod, {.tensors = t, .a = {{"atom_max", arg, "[1]", "[64]"}}, .b = {{"store_43", arg, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  r = run(mod, {.tensors = t, .a = {{"atom_max", arg, "[1]", "[64]"}}, .b = {{"store_42", arg, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  // A larger initial value wins over every thread's.
  t = tensor("out", "[1]", "i32", "{ values = [44] }");
  r = run(mod, {.tensors = t, .a = {{"atom_max", arg, "[1]", "[64]"}}, .b = {{"store_43", arg, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, IntegerAtomicMaxOfSymbolicValues) {
  std::string k = kernel("atom_max_x", 2, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r10, [%rd11];
  atom.global.max.s32 %r12, [%rd1], %r10;
)");
  // One thread: out[0] = max(out[0], x[0], ..., x[7]).
  std::string ref = kernel("seq_max", 2, R"(
  ld.global.s32 %r20, [%rd1];
  mov.u32 %r10, 0;
LOOP:
  mul.wide.u32 %rd10, %r10, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r11, [%rd11];
  max.s32 %r20, %r20, %r11;
  add.s32 %r10, %r10, 1;
  setp.lt.u32 %p1, %r10, 8;
  @%p1 bra LOOP;
  st.global.u32 [%rd1], %r20;
)");
  std::string t = tensor("x", "[8]", "i32", "input") + tensor("out", "[1]", "i32", "{ values = [0] }");
  auto r = run(k + ref, {.tensors = t, .a = {{"atom_max_x", kXOut, "[1]", "[8]"}}, .b = {{"seq_max", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, AtomicCompareAndSwapRefused) {
  std::string k = kernel("atom_cas", 1, R"(
  atom.global.cas.b32 %r12, [%rd0], 0, %r0;
)");
  std::string t = tensor("out", "[1]", "i32", "zeros");
  const std::string arg = R"({ readwrite = "out" })";
  auto r = run(k + store_const("store_0", 0), {.tensors = t, .a = {{"atom_cas", arg, "[1]", "[32]"}}, .b = {{"store_0", arg, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("compare-and-swap"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("atom.global.cas.b32"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, AtomicsOfOneLaunchAreCombinedBeforeTheNext) {
  // Launch 0: out[0] += x[g] atomically; launch 1: y[0] = 2 out[0].
  std::string twice = kernel("twice_total", 2, R"(
  ld.global.f32 %f1, [%rd0];
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd1], %f2;
)");
  std::string t = tensor("x", "[64]", "f32", "input") + tensor("out", "[1]", "f32", "zeros") +
                  tensor("y", "[1]", "f32", "empty");
  const std::string second = R"({ read = "out" }, { write = "y" })";
  auto r = run(kAtomSum + seq_sum("seq_sum", 64) + twice,
               {.tensors = t,
                .a = {{"atom_sum", kXOut, "[2]", "[32]"}, {"twice_total", second, "[1]", "[1]"}},
                .b = {{"seq_sum", kXOut, "[1]", "[1]"}, {"twice_total", second, "[1]", "[1]"}},
                .outputs = R"("out", "y")"});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(MachineTest, PlainStoreAndAtomicFromTwoCtasRace) {
  // CTA 0 stores x[0] into out[0]; CTA 1 adds x[1] to it atomically.
  std::string k = kernel("store_vs_atom", 2, R"(
  mul.wide.u32 %rd10, %r1, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.global.f32 [%rd1], %f1;
  @!%p1 atom.global.add.f32 %f2, [%rd1], %f1;    // RACING_ATOM
)");
  std::string t = tensor("x", "[2]", "f32", "input") + tensor("out", "[1]", "f32", "zeros");
  auto r = run(k + seq_sum("seq_sum", 2), {.tensors = t, .a = {{"store_vs_atom", kXOut, "[2]", "[1]"}},
                                           .b = {{"seq_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_NE(r.verdict, Verdict::Equivalent) << show(r);
  const exec::Defect* d = find(r, DefectKind::Race, 'a');
  ASSERT_NE(d, nullptr) << show(r);
  EXPECT_EQ(d->site.ptx_line, line_of("RACING_ATOM"));
  EXPECT_EQ(d->site.ctaid, (std::array<uint32_t, 3>{1, 0, 0}));
}

// out[0] = max(out[0], |x[g]| as float) by atom.max.s32 on the bits of |x[g]| (sign clear),
// Triton's way: setp.lt.s32 / setp.gt.s32 on the bits pick atom.max.s32 or atom.min.u32.
std::string bits_max(std::string_view name, std::string_view magnitude) {
  return kernel(name, 2, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  )" + std::string(magnitude) + R"(
  mov.b32 %r10, %f2;
  setp.lt.s32 %p1, %r10, 0;
  setp.gt.s32 %p2, %r10, -1;
  @%p2 atom.global.max.s32 %r11, [%rd1], %r10;
  @%p1 atom.global.min.u32 %r12, [%rd1], %r10;
)");
}

// One thread: out[0] = max(0, |x[0]|, ..., |x[n-1]|).
std::string seq_amax(std::string_view name, int n) { return seq_reduce(name, n, "abs.f32 %f2, %f2;\n  max.f32 %f1, %f1, %f2;"); }

TEST_F(MachineTest, FloatMaximumThroughTheBitsWhereTheSignIsKnown) {
  std::string t = tensor("x", "[64]", "f32", "input", "range = [-4, 4]") + tensor("out", "[1]", "f32", "zeros");
  std::string mod = bits_max("bits_amax", "abs.f32 %f2, %f1;") + seq_amax("seq_amax", 64);
  auto r = run(mod, {.tensors = t, .a = {{"bits_amax", kXOut, "[2]", "[32]"}}, .b = {{"seq_amax", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, FloatMaximumThroughTheBitsUnderItsSignGuards) {
  // Without abs the sign is unknown: each atomic runs under the symbolic guard that is its sign
  // test (x >= 0 for atom.max.s32, x < 0 for atom.min.u32), as the unguarded float maximum of
  // select(guard, x, -inf): together the float maximum of every x and the cell's 0.
  std::string t = tensor("x", "[64]", "f32", "input", "range = [-4, 4]") + tensor("out", "[1]", "f32", "zeros");
  std::string mod = bits_max("bits_max", "mov.f32 %f2, %f1;") + seq_reduce("seq_max", 64, "max.f32 %f1, %f1, %f2;") +
                    seq_amax("seq_amax", 64);
  auto r = run(mod, {.tensors = t, .a = {{"bits_max", kXOut, "[2]", "[32]"}}, .b = {{"seq_max", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(mod, {.tensors = t, .a = {{"bits_max", kXOut, "[2]", "[32]"}}, .b = {{"seq_amax", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

// A float atomic add under a data-dependent guard: the sum of the x that pass it.
TEST_F(MachineTest, GuardedAtomicAddIsTheSumWhereTheGuardHolds) {
  std::string t = tensor("x", "[64]", "f32", "input", "range = [-4, 4]") + tensor("out", "[1]", "f32", "zeros");
  std::string guarded = kernel("guarded_sum", 2, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 atom.global.add.f32 %f2, [%rd1], %f1;
)");
  std::string mod = guarded + seq_reduce("seq_relu_sum", 64, "max.f32 %f2, %f2, 0f00000000;\n  add.f32 %f1, %f1, %f2;") + seq_sum("seq_sum", 64);
  auto r = run(mod, {.tensors = t, .a = {{"guarded_sum", kXOut, "[2]", "[32]"}}, .b = {{"seq_relu_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(mod, {.tensors = t, .a = {{"guarded_sum", kXOut, "[2]", "[32]"}}, .b = {{"seq_sum", kXOut, "[1]", "[1]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, TheSignBitOfAComputedZeroIsNotGuessed) {
  // x * 0 is +0 or -0 by x's sign: its bits compared with 0 as an s32 are not a real's sign.
  std::string t = tensor("x", "[32]", "f32", "input", "range = [-4, 4]") + tensor("out", "[32]", "f32", "empty");
  std::string args = R"({ read = "x" }, { write = "out" })";
  auto r = run(unary_kernel("zero_sign", "mov.f32 %f3, 0f00000000;\n  mul.f32 %f4, %f1, %f3;\n  mov.b32 %r10, %f4;\n"
                                         "  setp.lt.s32 %p1, %r10, 0;\n  selp.f32 %f2, 0f3F800000, 0f40000000, %p1;") +
                   unary_kernel("two", "mov.f32 %f2, 0f40000000;"),
               {.tensors = t, .a = {{"zero_sign", args, "[1]", "[32]"}}, .b = {{"two", args, "[1]", "[32]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("sign bit of a zero"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
