// Addresses computed from integer input data with a declared range (exec/indexed_memory.cpp):
// the index values are enumerated and each candidate cell is accessed under its condition.
// A load is the exact select over the candidates; defects at a candidate name the index values
// that reach it; two threads' stores race only where their indices can name one cell together.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[tid] = x[idx[tid] + shift] (p0 = x, p1 = idx, p2 = out); `offset` is the constant
// displacement of the load's address operand, in bytes, with the index scaled by 4 first.
std::string gather(std::string_view name, std::string_view shift, std::string_view offset) {
  return kernel(name, 3, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd1, %rd10;
  ld.global.s32 %r10, [%rd11];
  add.s32 %r11, %r10, )") + std::string(shift) + R"(;
  mul.wide.s32 %rd12, %r11, 4;
  add.s64 %rd13, %rd0, %rd12;
  ld.global.f32 %f1, [%rd13+)" + std::string(offset) + R"(];
  add.s64 %rd14, %rd2, %rd10;
  st.global.f32 [%rd14], %f1;
)");
}

Spec gathers(std::string_view range, std::string_view a = "a", std::string_view b = "b") {
  return {.tensors = tensor("x", "[8]", "f32", "input") + tensor("idx", "[4]", "i32", "input", range) +
                     tensor("out", "[4]", "f32", "empty"),
          .a = {{std::string(a), R"({ read = "x" }, { read = "idx" }, { write = "out" })", "[1]", "[4]"}},
          .b = {{std::string(b), R"({ read = "x" }, { read = "idx" }, { write = "out" })", "[1]", "[4]"}}};
}

TEST_F(MachineTest, AGatherBySymbolicIndicesIsProvedWhateverFormItsAddressTakes) {
  // x[idx] against x[(idx + 1) - 1], the last step folded into the load's displacement.
  auto r = run(gather("a", "0", "0") + gather("b", "1", "-4"), gathers("range = [0, 7]"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(MachineTest, AGatherOfTheNextElementIsRefutedAtAnIndexInTheRange) {
  auto r = run(gather("a", "0", "0") + gather("b", "0", "4"), gathers("range = [0, 6]"));
  ASSERT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);  // idx + 1 <= 7 stays inside x
}

TEST_F(MachineTest, AnIndexThatCanLeaveTheTensorIsAnOutOfBoundsReadUnderItsCondition) {
  auto r = run(gather("a", "0", "0") + gather("b", "1", "-4"), gathers("range = [0, 9]"));
  const exec::Defect* d = expect_defect(r, DefectKind::OobRead, "only where idx[0] = 8");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->site.ptx_line, line_of("ld.global.f32 %f1, [%rd13+0]"));
}

TEST_F(MachineTest, IndicesWithTooManyValuesAreRefusedWithTheReason) {
  // Without a declared range an i32 index has 2^32 values.
  auto r = run(gather("a", "0", "0") + gather("b", "1", "-4"), gathers(""));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("more than 4096 index values (idx[0] in [-2147483648, 2147483647])"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("PTX line " + std::to_string(line_of("[%rd13+0]")) + ": ld.global.f32 %f1, [%rd13]"), std::string::npos)
      << r.reason;
}

// out[idx[tid]] = x[tid] guarded by idx < 8 (or not), x, idx, out of 8, 8 and 8 cells.
std::string guarded_gather(std::string_view name, bool guarded) {
  return kernel(name, 3, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd1, %rd10;
  ld.global.s32 %r10, [%rd11];
  mov.f32 %f1, 0f00000000;
  setp.lt.s32 %p1, %r10, 8;
)") + (guarded ? "  @!%p1 bra SKIP;\n" : "") + R"(
  mul.wide.s32 %rd12, %r10, 4;
  add.s64 %rd13, %rd0, %rd12;
  ld.global.f32 %f1, [%rd13];
SKIP:
  add.s64 %rd14, %rd2, %rd10;
  st.global.f32 [%rd14], %f1;
)");
}

TEST_F(MachineTest, IndexValuesThatAGuardExcludesAreNotAccessed) {
  // On the path where idx < 8 the index names x[0..7] only: no out-of-bounds read, and the
  // result is x[idx] or 0.
  Spec s = gathers("range = [0, 15]", "a", "b");
  auto r = run(guarded_gather("a", true) + guarded_gather("b", true), s);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_EQ(count(r, DefectKind::OobRead), 0u) << show(r);
  auto u = run(guarded_gather("a", false) + guarded_gather("b", true), s);
  // (One defect per instruction: the first candidate past the end names its index value.)
  expect_defect(u, DefectKind::OobRead, "only where idx[0] = 8");
}

// Threads tid < 2 store x[tid] to out[idx[0] + tid * step] (step 0: both to one cell).
std::string shared_index_stores(std::string_view name, std::string_view step) {
  return kernel(name, 3, std::string(R"(
  setp.gt.u32 %p1, %r0, 1;
  @%p1 bra DONE;
  ld.global.s32 %r10, [%rd1];
  mul.lo.s32 %r11, %r0, )") + std::string(step) + R"(;
  add.s32 %r12, %r10, %r11;
  mul.wide.s32 %rd12, %r12, 4;
  add.s64 %rd13, %rd2, %rd12;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  st.global.f32 [%rd13], %f1;
DONE:
)");
}

Spec stores(std::string_view range) {
  return {.tensors = tensor("x", "[2]", "f32", "input") + tensor("idx", "[2]", "i32", "input", range) +
                     tensor("out", "[8]", "f32", "zeros"),
          .a = {{"a", R"({ read = "x" }, { read = "idx" }, { write = "out" })", "[1]", "[32]"}},
          .b = {{"a", R"({ read = "x" }, { read = "idx" }, { write = "out" })", "[1]", "[32]"}}};
}

TEST_F(MachineTest, StoresAtOneIndexPlusDistinctOffsetsNeverMeet) {
  // out[idx[0]] and out[idx[0] + 1]: both may name cells 1..6, but never for the same idx[0].
  auto r = run(shared_index_stores("a", "1"), stores("range = [0, 6]"));
  EXPECT_EQ(count(r, DefectKind::Race), 0u) << show(r);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, StoresThatCanNameOneCellRaceOnlyWhereTheyDo) {
  auto r = run(shared_index_stores("a", "0"), stores("range = [0, 6]"));
  const exec::Defect* d = expect_defect(r, DefectKind::Race, "idx[0] = 0");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->detail.find("data-dependent address"), std::string::npos) << d->detail;
}

// Thread `indexed_tid` stores x[0] to out[idx[0]], the other of threads 0 and 1 stores x[1] to
// out[3]: the engine runs thread 0 first, so both orders of plain and indexed accesses are met.
std::string plain_and_indexed(std::string_view name, int indexed_tid) {
  return kernel(name, 3, std::string(R"(
  setp.gt.u32 %p1, %r0, 1;
  @%p1 bra DONE;
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  setp.eq.u32 %p2, %r0, )") + std::to_string(indexed_tid) + R"(;
  @%p2 bra INDEXED;
  st.global.f32 [%rd2+12], %f1;
  bra.uni DONE;
INDEXED:
  ld.global.s32 %r10, [%rd1];
  mul.wide.s32 %rd12, %r10, 4;
  add.s64 %rd13, %rd2, %rd12;
  st.global.f32 [%rd13], %f1;
DONE:
)");
}

TEST_F(MachineTest, APlainStoreRacesWithAnIndexedOneOnlyWhereTheIndexNamesItsCell) {
  for (int indexed_tid : {0, 1}) {
    auto reach = run(plain_and_indexed("a", indexed_tid), stores("range = [0, 7]"));
    expect_defect(reach, DefectKind::Race, "out[3]");
    auto apart = run(plain_and_indexed("a", indexed_tid), stores("range = [0, 2]"));
    EXPECT_EQ(count(apart, DefectKind::Race), 0u) << "indexed thread " << indexed_tid << "\n" << show(apart);
    EXPECT_EQ(apart.verdict, Verdict::Equivalent) << show(apart);
  }
}

// out[4 tid + idx[tid]] = x[tid]: each thread's own block of four cells where idx < 4.
std::string block_scatter(std::string_view name) {
  return kernel(name, 3, R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd1, %rd10;
  ld.global.s32 %r10, [%rd11];
  shl.b32 %r11, %r0, 2;
  add.s32 %r12, %r11, %r10;
  mul.wide.s32 %rd12, %r12, 4;
  add.s64 %rd13, %rd2, %rd12;
  add.s64 %rd14, %rd0, %rd10;
  ld.global.f32 %f1, [%rd14];
  st.global.f32 [%rd13], %f1;
)");
}

Spec blocks(std::string_view range) {
  return {.tensors = tensor("x", "[4]", "f32", "input") + tensor("idx", "[4]", "i32", "input", range) +
                     tensor("out", "[16]", "f32", "zeros"),
          .a = {{"a", R"({ read = "x" }, { read = "idx" }, { write = "out" })", "[1]", "[4]"}},
          .b = {{"a", R"({ read = "x" }, { read = "idx" }, { write = "out" })", "[1]", "[4]"}}};
}

TEST_F(MachineTest, AScatterIntoOwnBlocksHasNoRaceAndOneReachingTheNextBlockHas) {
  auto own = run(block_scatter("a"), blocks("range = [0, 3]"));
  EXPECT_EQ(own.verdict, Verdict::Equivalent) << show(own);
  EXPECT_EQ(count(own, DefectKind::Race), 0u) << show(own);
  auto next = run(block_scatter("a"), blocks("range = [0, 4]"));
  expect_defect(next, DefectKind::Race, "only where idx[1] = 0");
  expect_defect(next, DefectKind::OobWrite, "only where idx[3] = 4");
}

// hist[x[tid]] += 1 with red.add; the reference counts per bin with a loop over the first
// `counted` values.
std::string histogram_kernels(std::string_view counted) {
  return kernel("atomics", 2, R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r10, [%rd11];
  mul.wide.s32 %rd12, %r10, 4;
  add.s64 %rd13, %rd1, %rd12;
  red.global.add.u32 [%rd13], 1;
)") + kernel("count", 2, std::string(R"(
  mov.u32 %r20, 0;
  mov.u32 %r21, 0;
LOOP:
  mul.wide.u32 %rd10, %r21, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.s32 %r22, [%rd11];
  setp.eq.s32 %p1, %r22, %r0;
  selp.u32 %r23, 1, 0, %p1;
  add.s32 %r20, %r20, %r23;
  add.u32 %r21, %r21, 1;
  setp.lt.u32 %p2, %r21, )") + std::string(counted) + R"(;
  @%p2 bra LOOP;
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.s32 [%rd13], %r20;
)");
}

Spec histogram() {
  Spec s{.tensors = tensor("x", "[16]", "i32", "input", "range = [0, 3]") + tensor("hist", "[4]", "i32", "zeros"),
         .a = {{"atomics", R"({ read = "x" }, { write = "hist" })", "[2]", "[8]"}},
         .b = {{"count", R"({ read = "x" }, { write = "hist" })", "[1]", "[4]"}}};
  s.outputs = R"("hist")";
  return s;
}

TEST_F(MachineTest, AHistogramWithAtomicsAtDataDependentBinsIsProvedAgainstCounting) {
  auto r = run(histogram_kernels("16"), histogram());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
  // Counting one value fewer is refuted.
  auto short_count = run(histogram_kernels("15"), histogram());
  EXPECT_EQ(short_count.verdict, Verdict::Inequivalent) << show(short_count);
}


// out[tid] = (float) x[idx[tid] + shift] over an f16 table, read with `load` (nvcc loads a
// __half with ld.global.u16, Triton with ld.global.b16).
std::string half_gather(std::string_view name, std::string_view load, std::string_view shift) {
  return kernel(name, 3, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd1, %rd10;
  ld.global.s32 %r10, [%rd11];
  add.s32 %r11, %r10, )") + std::string(shift) + R"(;
  mul.wide.s32 %rd12, %r11, 2;
  add.s64 %rd13, %rd0, %rd12;
  )" + std::string(load) + R"( %h1, [%rd13];
  cvt.f32.f16 %f1, %h1;
  add.s64 %rd14, %rd2, %rd10;
  st.global.f32 [%rd14], %f1;
)", "  .reg .b16 %h<4>;\n");
}

TEST_F(MachineTest, AnIntegerTypedLoadOfAFloatTableAtAnIndexReadsItsFloats) {
  Spec spec = gathers("range = [0, 6]");
  spec.tensors = tensor("x", "[8]", "f16", "input") + tensor("idx", "[4]", "i32", "input", "range = [0, 6]") +
                 tensor("out", "[4]", "f32", "empty");
  auto r = run(half_gather("a", "ld.global.u16", "0") + half_gather("b", "ld.global.b16", "0"), spec);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(half_gather("a", "ld.global.u16", "0") + half_gather("b", "ld.global.b16", "1"), spec);
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
