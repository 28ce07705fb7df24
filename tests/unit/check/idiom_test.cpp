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

TEST_F(MachineTest, ExpfWhoseLastStepAddsAFloatConstantIsExpPlusThatConstant) {
  // expf(x) - 0.1f: nvcc fuses the routine's final scaling by 2^n with the subtraction, an fma
  // whose addend is the constant (no small rational: its exact f32 value is the routine's
  // offset). Against Triton's exp minus the same constant: equivalent; minus 0.2f: refuted.
  std::string fused = replace_all(kExpfBody, "  mul.f32 %f18, %f17, %f16;\n", "  fma.rn.f32 %f18, %f17, %f16, 0fBDCCCCCD;\n");
  auto minus = [](const char* k) {
    return replace_all(kTritonExpBody, "  ex2.approx.f32 %f3, %f2;\n",
                       std::string("  ex2.approx.f32 %f4, %f2;\n  add.f32 %f3, %f4, ") + k + ";\n");
  };
  const std::string tensors = R"(x = { shape = [32], dtype = "f32", init = "input", range = [-4, 4] }
out = { shape = [32], dtype = "f32", init = "empty" }
)";
  auto same = run(kernel("expf_minus", 2, fused) + kernel("exp_minus", 2, minus("0fBDCCCCCD")),
                  {.tensors = tensors, .a = {{"expf_minus", kArgs}}, .b = {{"exp_minus", kArgs}}});
  EXPECT_EQ(same.verdict, Verdict::Equivalent) << show(same);
  bool recognized = false;
  for (const auto& g : same.recognized) recognized |= g.find("expf_minus: -13421773/134217728 + exp(t)") != std::string::npos;
  EXPECT_TRUE(recognized) << show(same);
  auto other = run(kernel("expf_minus", 2, fused) + kernel("exp_minus", 2, minus("0fBE4CCCCD")),
                   {.tensors = tensors, .a = {{"expf_minus", kArgs}}, .b = {{"exp_minus", kArgs}}});
  EXPECT_EQ(other.verdict, Verdict::Inequivalent) << show(other);
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

// fmaxf(tanhf(x), erff(x)) as nvcc 13 compiles it for sm_90 (-O3): the two routines
// interleaved; erff's 1 - 2^(...) path is taken only where |x| >= 1.0036, and the max after the
// paths meet reads what it wrote. {op} is max or min.
const char* kTanhErfBody = R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %h1, [%rd11];
  abs.f32 %h6, %h1;
  mul.f32 %h7, %h6, 0f4038AA3B;
  ex2.approx.ftz.f32 %h8, %h7;
  add.f32 %h9, %h8, 0f3F800000;
  mov.f32 %h10, 0f3F800000;
  rcp.approx.ftz.f32 %h11, %h9;
  mov.f32 %h12, 0fC0000000;
  fma.rn.f32 %h13, %h11, %h12, %h10;
  setp.ge.f32 %p1, %h6, 0f41102CB4;
  selp.f32 %h14, 0f3F800000, %h13, %p1;
  copysign.f32 %h15, %h1, %h14;
  mul.f32 %h16, %h1, %h1;
  mov.f32 %h17, 0fBD563CAE;
  mov.f32 %h18, 0f3C80F082;
  fma.rn.f32 %h19, %h18, %h16, %h17;
  mov.f32 %h20, 0f3E085941;
  fma.rn.f32 %h21, %h19, %h16, %h20;
  mov.f32 %h22, 0fBEAAA9ED;
  fma.rn.f32 %h23, %h21, %h16, %h22;
  mov.f32 %h24, 0f00000000;
  fma.rn.f32 %h25, %h23, %h16, %h24;
  fma.rn.f32 %h26, %h25, %h1, %h1;
  setp.ge.f32 %p2, %h6, 0f3F19999A;
  selp.f32 %h2, %h15, %h26, %p2;
  setp.ltu.f32 %p3, %h6, 0f3F8060FE;
  setp.ge.f32 %p4, %h6, 0f3F8060FE;
  selp.f32 %h27, %h6, %h16, %p4;
  selp.f32 %h28, 0f38EB4C3A, 0f38B1E96A, %p4;
  selp.f32 %h29, 0fBAAE005B, 0fBA574D20, %p4;
  fma.rn.f32 %h30, %h28, %h27, %h29;
  selp.f32 %h31, 0f3C09919F, 0f3BAAD5EA, %p4;
  fma.rn.f32 %h32, %h30, %h27, %h31;
  selp.f32 %h33, 0fBD24D99A, 0fBCDC1BE7, %p4;
  fma.rn.f32 %h34, %h32, %h27, %h33;
  selp.f32 %h35, 0f3E235519, 0f3DE718AF, %p4;
  fma.rn.f32 %h36, %h34, %h27, %h35;
  selp.f32 %h37, 0f3F69B4F9, 0fBEC093AC, %p4;
  fma.rn.f32 %h38, %h36, %h27, %h37;
  selp.f32 %h39, 0f3F210A14, 0f3E0375D3, %p4;
  fma.rn.f32 %h40, %h38, %h27, %h39;
  neg.f32 %h41, %h6;
  selp.f32 %h42, %h41, %h1, %p4;
  fma.rn.f32 %h47, %h40, %h42, %h42;
  @%p3 bra $L_join;
  ex2.approx.ftz.f32 %h43, %h47;
  sub.f32 %h45, %h10, %h43;
  copysign.f32 %h47, %h1, %h45;
$L_join:
  add.s64 %rd12, %rd1, %rd10;
  {op}.f32 %h46, %h2, %h47;
  st.global.f32 [%rd12], %h46;
)";

TEST_F(MachineTest, AStepOverARoutineKeepsWhatItsPathsWroteForLaterSteps) {
  // A probe at erff's branch found tanh's exp(2|x|), computed before it, fitting at the paths'
  // meeting point, and stepped over the branch: the max (or min) after it, reading what erff's
  // second path wrote, was stepped over as the routine's, and both programs stored nothing
  // there (both cells 0, proved equal). Now no plan leaves a register the program still reads
  // unwritten: the kernels differ wherever tanh(x) and erf(x) do.
  const std::string decls = "  .reg .f32 %h<64>;\n";
  const std::string tensors = R"(x = { shape = [4], dtype = "f32", init = "input", range = [-4, -0.5] }
out = { shape = [4], dtype = "f32", init = "empty" }
)";
  auto body = [](const char* op) { return replace_all(kTanhErfBody, "{op}", op); };
  const Spec spec{.tensors = tensors, .a = {{"tanh_erf_max", kArgs, "[1]", "[4]"}}, .b = {{"tanh_erf_min", kArgs, "[1]", "[4]"}}};
  const std::string kernels = kernel("tanh_erf_max", 2, body("max"), decls) + kernel("tanh_erf_min", 2, body("min"), decls);
  auto r = run(kernels, spec);
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  // Without the self-check (which caught the lost steps as a disagreement with the emulation).
  CheckOptions no_self_check;
  no_self_check.self_check_points = 0;
  r = run(kernels, spec, no_self_check);
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
