// Tensor-core and asynchronous-copy semantics at the edges the t_tc_* cases do not reach:
// what is not modelled is refused with the instruction and the reason (fail closed), packed
// half-precision registers are structure and never a number, and a wgmma accumulator read
// before its wait is a defect.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";
const std::string kTensors = tensor("x", "[64]", "f16", "input") + tensor("out", "[32]", "f32", "empty");

// out[tid] = float(x[tid]) by a plain load and cvt: the reference side.
std::string copy_ref() {
  return kernel("ref", 2, R"(
  .reg .b16 %h<4>;
  mul.wide.u32 %rd10, %r0, 2;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.b16 %h1, [%rd11];
  cvt.f32.f16 %f1, %h1;
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f1;
)");
}

TEST_F(MachineTest, TmaCopyWithoutADeclaredTensorMapIsRefusedWithTheInstructionAndReason) {
  std::string tma = kernel("tma", 2, R"(
  .reg .b32 %s<4>;
  mov.u32 %s1, 0;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%s1], [%rd0, {%s1, %s1}], [%s1];
)");
  auto r = run(tma + copy_ref(), {.tensors = kTensors, .a = {{"tma", kArgs}}, .b = {{"ref", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("cp.async.bulk.tensor"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("tensor map the instance passed"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, PackedHalvesAreSplitAgainButNeverOneNumber) {
  // x[2 tid], x[2 tid + 1] loaded as one 32-bit word, split with mov: the halves are the cells.
  std::string split = kernel("split", 2, R"(
  .reg .b16 %h<4>;
  mul.wide.u32 %rd10, %r0, 2;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.b16 %h1, [%rd11];
  mov.b32 %r10, {%h1, %h1};
  mov.b32 {%h2, %h3}, %r10;
  cvt.f32.f16 %f1, %h3;
  mul.wide.u32 %rd12, %r0, 4;
  add.s64 %rd13, %rd1, %rd12;
  st.global.f32 [%rd13], %f1;
)");
  auto r = run(split + copy_ref(), {.tensors = kTensors, .a = {{"split", kArgs}}, .b = {{"ref", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);

  std::string as_number = replace_all(split, "cvt.f32.f16 %f1, %h3;", "mov.b32 %f2, %r10;\n  add.f32 %f1, %f2, %f2;");
  r = run(as_number + copy_ref(), {.tensors = kTensors, .a = {{"split", kArgs}}, .b = {{"ref", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("holding lanes"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, MmaShapesNotModelledAreRefused) {
  std::string mma = kernel("mma", 2, R"(
  .reg .b32 %a<8>;
  .reg .f64 %d<8>;
  mov.f64 %d1, 0d0000000000000000;
  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%d2, %d3}, {%d1}, {%d1}, {%d1, %d1};
)");
  auto r = run(mma + copy_ref(), {.tensors = kTensors, .a = {{"mma", kArgs}}, .b = {{"ref", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("mma.sync"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("not modelled"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
