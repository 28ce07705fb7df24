// Compiled math routines are read as the function they compute only after validation: an
// inlined expf recognized as exp, Triton's ex2(x * log2e) read as exp, and a routine with
// one coefficient changed not recognized (the refusal stands).
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[i] = expf(x[i]) as nvcc 13 inlines it for sm_90 (-O3): range reduction with fma.rm,
// exponent assembly with shl and mov.b32, ex2.approx.ftz.
const char* kExpfBody = R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  fma.rn.f32 %f5, %f1, 0f3BBB989D, 0f3F000000;
  cvt.sat.f32.f32 %f6, %f5;
  fma.rm.f32 %f9, %f6, 0f437C0000, 0f4B400001;
  add.f32 %f10, %f9, 0fCB40007F;
  neg.f32 %f11, %f10;
  fma.rn.f32 %f13, %f1, 0f3FB8AA3B, %f11;
  fma.rn.f32 %f15, %f1, 0f32A57060, %f13;
  mov.b32 %r6, %f9;
  shl.b32 %r7, %r6, 23;
  mov.b32 %f16, %r7;
  ex2.approx.ftz.f32 %f17, %f15;
  mul.f32 %f18, %f17, %f16;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f18;
)";

// Triton's exp: ex2.approx(x * 0f3FB8AA3B).
const char* kTritonExpBody = R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mul.f32 %f2, %f1, 0f3FB8AA3B;
  ex2.approx.f32 %f3, %f2;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f3;
)";

const std::string kTensors = R"(x = { shape = [32], dtype = "f32", init = "input" }
out = { shape = [32], dtype = "f32", init = "empty" }
)";
const std::string kArgs = R"({ read = "x" }, { write = "out" })";

TEST_F(MachineTest, InlinedExpfIsRecognizedAndEqualsTritonsExp) {
  auto r = run(kernel("expf_inlined", 2, kExpfBody) + kernel("exp_triton", 2, kTritonExpBody),
               {.tensors = kTensors, .a = {{"expf_inlined", kArgs}}, .b = {{"exp_triton", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  bool recognized = false;
  for (const auto& g : r.recognized) recognized |= g.find("expf_inlined: exp(t)") != std::string::npos;
  EXPECT_TRUE(recognized) << show(r);
}

TEST_F(MachineTest, AnInputSumComputedInsideTheRoutineStaysOutsideIt) {
  // out = expf(x) + (y + x): nvcc computes y + x between the range reduction and the last
  // fma, which adds it to the routine's result. That add uses only the routine's input and
  // other data: it is the program's, not the routine's, and the thread must still run it.
  const std::string with_y = replace_all(kExpfBody, "  ld.global.f32 %f1, [%rd11];\n", R"(  ld.global.f32 %f1, [%rd11];
  add.s64 %rd13, %rd2, %rd10;
  ld.global.f32 %f20, [%rd13];
)");
  std::string fused = replace_all(with_y, "  mul.f32 %f18, %f17, %f16;\n", R"(
  add.f32 %f21, %f20, %f1;
  fma.rn.f32 %f18, %f17, %f16, %f21;
)");
  std::string separate = replace_all(with_y, "  mul.f32 %f18, %f17, %f16;\n", R"(
  mul.f32 %f22, %f17, %f16;
  add.f32 %f21, %f1, %f20;
  add.f32 %f18, %f22, %f21;
)");
  const std::string tensors = std::string(R"(x = { shape = [32], dtype = "f32", init = "input", range = [-4, 4] }
y = { shape = [32], dtype = "f32", init = "input", range = [-4, 4] }
out = { shape = [32], dtype = "f32", init = "empty" }
)");
  const std::string args = R"({ read = "x" }, { write = "out" }, { read = "y" })";
  auto r = run(kernel("fused", 3, fused) + kernel("separate", 3, separate),
               {.tensors = tensors, .a = {{"fused", args}}, .b = {{"separate", args}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // y - x added instead: refuted, not hidden by an addend lost in the routine.
  r = run(kernel("fused", 3, fused) + kernel("separate", 3, replace_all(separate, "add.f32 %f21, %f1, %f20", "sub.f32 %f21, %f20, %f1")),
          {.tensors = tensors, .a = {{"fused", args}}, .b = {{"separate", args}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, ExpfWithOneCoefficientChangedIsNotRecognized) {
  // The low part of log2(e) (0f32A57060) changed by a few percent: the routine no longer
  // computes exp within its error bound, so it must not be read as exp.
  std::string corrupted = replace_all(kExpfBody, "0f32A57060", "0f33A57060");
  auto r = run(kernel("expf_corrupted", 2, corrupted) + kernel("exp_triton", 2, kTritonExpBody),
               {.tensors = kTensors, .a = {{"expf_corrupted", kArgs}}, .b = {{"exp_triton", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("shl.b32"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.recognized.empty() || r.recognized[0].find("expf_corrupted") == std::string::npos) << show(r);
}

TEST_F(MachineTest, ExpfWithTheRangeReductionBrokenIsNotRecognized) {
  // The magic constant of the exponent extraction off by one ulp-pattern: wrong powers of two.
  std::string corrupted = replace_all(kExpfBody, "0f4B400001", "0f4B400101");
  auto r = run(kernel("expf_broken", 2, corrupted) + kernel("exp_triton", 2, kTritonExpBody),
               {.tensors = kTensors, .a = {{"expf_broken", kArgs}}, .b = {{"exp_triton", kArgs}}});
  EXPECT_NE(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, TritonExpOfAScaledDifferenceIsExpOfTheDifference) {
  // exp(x - 1) as ex2((x - 1) * log2e) against exp(x) / e computed as ex2(x*log2e) * ex2(-log2e).
  const char* a = R"(
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  sub.f32 %f2, %f1, 0f3F800000;
  mul.f32 %f3, %f2, 0f3FB8AA3B;
  ex2.approx.f32 %f4, %f3;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f4;
)";
  auto r = run(kernel("exp_shifted", 2, a) + kernel("exp_triton", 2, kTritonExpBody),
               {.tensors = kTensors, .a = {{"exp_shifted", kArgs}}, .b = {{"exp_triton", kArgs}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
