// Compiled routines whose ends the compiler fused with the program's next steps: logf's zero
// case selected after a later step, expf's last multiply fused with an addition of the
// input's own values, and erff merging where a data-dependent where() merges; and a routine run
// on the 0 a masked load leaves. Each is read as the function only where that is exact, and a
// wrong kernel beside it is still refuted.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// logf(x[i]) / 1.25 as nvcc 13 compiles it for sm_90 (-O3): range reduction on the float's
// bits, the polynomial, NaN for what is not a positive number; {tail} ends it.
const char* kLogfBody = R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %h1, [%rd11];
  setp.lt.f32 %p4, %h1, 0f00800000;
  mul.f32 %h38, %h1, 0f4B000000;
  selp.f32 %h2, %h38, %h1, %p4;
  selp.f32 %h39, 0fC1B80000, 0f00000000, %p4;
  mov.b32 %r21, %h2;
  add.s32 %r22, %r21, -1059760811;
  and.b32 %r23, %r22, -8388608;
  sub.s32 %r24, %r21, %r23;
  mov.b32 %h40, %r24;
  cvt.rn.f32.s32 %h41, %r23;
  fma.rn.f32 %h43, %h41, 0f34000000, %h39;
  add.f32 %h44, %h40, 0fBF800000;
  fma.rn.f32 %h47, 0fBE055027, %h44, 0f3E1039F6;
  fma.rn.f32 %h49, %h47, %h44, 0fBDF8CDCC;
  fma.rn.f32 %h51, %h49, %h44, 0f3E0F2955;
  fma.rn.f32 %h53, %h51, %h44, 0fBE2AD8B9;
  fma.rn.f32 %h55, %h53, %h44, 0f3E4CED0B;
  fma.rn.f32 %h57, %h55, %h44, 0fBE7FFF22;
  fma.rn.f32 %h59, %h57, %h44, 0f3EAAAA78;
  fma.rn.f32 %h61, %h59, %h44, 0fBF000000;
  mul.f32 %h62, %h44, %h61;
  fma.rn.f32 %h63, %h62, %h44, %h44;
  fma.rn.f32 %h20, %h43, 0f3F317218, %h63;
  setp.lt.u32 %p5, %r21, 2139095040;
  @%p5 bra $L_join;
  fma.rn.f32 %h20, %h2, 0f7F800000, 0f7F800000;
$L_join:
{tail}
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %h23;
)";

// nvcc moved the division before logf's select of -inf at 0 (-inf / 1.25 is -inf).
const char* kDivisionFirst = R"(
  div.rn.f32 %h21, %h20, 0f3FA00000;
  setp.eq.f32 %p6, %h2, 0f00000000;
  selp.f32 %h23, 0fFF800000, %h21, %p6;
)";
const char* kSelectFirst = R"(
  setp.eq.f32 %p6, %h2, 0f00000000;
  selp.f32 %h21, 0fFF800000, %h20, %p6;
  div.rn.f32 %h23, %h21, {divisor};
)";

const std::string kDecls = "  .reg .f32 %h<64>;\n";
const std::string kArgs = R"({ read = "x" }, { write = "out" })";

// f32 inputs (x, and `more`) of `shape` over `range`, and the output out.
std::string inputs_and_out(std::string_view shape, std::string_view range, std::vector<std::string_view> more = {}) {
  std::string t = tensor("x", shape, "f32", "input", range);
  for (std::string_view name : more) t += tensor(name, shape, "f32", "input", range);
  return t + tensor("out", shape, "f32", "empty");
}

std::string logf_kernel(const char* name, const std::string& tail) {
  return kernel(name, 2, replace_all(kLogfBody, "{tail}", tail), kDecls);
}

TEST_F(MachineTest, LogfWhoseZeroCaseTheCompilerMovedIsReadWhereItsInputIsNeverZero) {
  // Where the paths meet, the register holds logf(x) everywhere but at x = 0 (the select of
  // -inf comes after the division): with x in [0.5, 4] that register is log(x).
  const std::string positive = inputs_and_out("[8]", "range = [0.5, 4]");
  const std::string kernels = logf_kernel("div_first", kDivisionFirst) +
                              logf_kernel("select_first", replace_all(kSelectFirst, "{divisor}", "0f3FA00000")) +
                              logf_kernel("select_first_wrong", replace_all(kSelectFirst, "{divisor}", "0f3FC00000"));
  auto r = run(kernels, {.tensors = positive, .a = {{"div_first", kArgs, "[1]", "[8]"}}, .b = {{"select_first", kArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(kernels, {.tensors = positive, .a = {{"div_first", kArgs, "[1]", "[8]"}}, .b = {{"select_first_wrong", kArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  // Where x may be 0 the register is not log(x) there: the routine is not read (the refusal
  // stands) rather than read with a value the program never computes.
  const std::string with_zero = inputs_and_out("[8]", "range = [-1, 4]");
  r = run(kernels, {.tensors = with_zero, .a = {{"div_first", kArgs, "[1]", "[8]"}}, .b = {{"select_first", kArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("add.s32"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, ARoutineRunOnTheZeroAMaskedLoadLeavesRunsOnItsBits) {
  // Lanes past the end load nothing and keep 0, and logf's bit arithmetic runs on it (a Triton
  // block whose last lanes are masked): 0 * 2^23 is exactly the float the GPU computes, so it
  // stays concrete bits and the routine runs on them; the masked lanes store nothing.
  const std::string masked_load = R"(  setp.lt.u32 %p1, %r0, 6;
  mov.f32 %h1, 0f00000000;
  @%p1 ld.global.f32 %h1, [%rd11];
)";
  auto masked = [&](const char* name, const std::string& tail) {
    std::string body = replace_all(replace_all(kLogfBody, "{tail}", tail), "  ld.global.f32 %h1, [%rd11];\n", masked_load);
    return kernel(name, 2, replace_all(body, "  st.global.f32 [%rd12], %h23;", "  @%p1 st.global.f32 [%rd12], %h23;"), kDecls);
  };
  const std::string tensors = inputs_and_out("[6]", "range = [0.5, 4]");
  const std::string kernels = masked("masked_a", replace_all(kSelectFirst, "{divisor}", "0f3FA00000")) +
                              masked("masked_b", kDivisionFirst) +
                              masked("masked_wrong", replace_all(kSelectFirst, "{divisor}", "0f3FC00000"));
  auto r = run(kernels, {.tensors = tensors, .a = {{"masked_a", kArgs, "[1]", "[8]"}}, .b = {{"masked_b", kArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(kernels, {.tensors = tensors, .a = {{"masked_a", kArgs, "[1]", "[8]"}}, .b = {{"masked_wrong", kArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

// erff as nvcc 13 inlines it for sm_90 (-O3) on %h1, its value in %h27; the branch to its
// second path's end jumps to $L_join, which follows.
const std::string kErffSteps = R"(
  abs.f32 %h6, %h1;
  setp.ltu.f32 %p2, %h6, 0f3F8060FE;
  setp.ge.f32 %p3, %h6, 0f3F8060FE;
  mul.f32 %h7, %h1, %h1;
  selp.f32 %h8, %h6, %h7, %p3;
  selp.f32 %h9, 0f38EB4C3A, 0f38B1E96A, %p3;
  selp.f32 %h10, 0fBAAE005B, 0fBA574D20, %p3;
  fma.rn.f32 %h11, %h9, %h8, %h10;
  selp.f32 %h12, 0f3C09919F, 0f3BAAD5EA, %p3;
  fma.rn.f32 %h13, %h11, %h8, %h12;
  selp.f32 %h14, 0fBD24D99A, 0fBCDC1BE7, %p3;
  fma.rn.f32 %h15, %h13, %h8, %h14;
  selp.f32 %h16, 0f3E235519, 0f3DE718AF, %p3;
  fma.rn.f32 %h17, %h15, %h8, %h16;
  selp.f32 %h18, 0f3F69B4F9, 0fBEC093AC, %p3;
  fma.rn.f32 %h19, %h17, %h8, %h18;
  selp.f32 %h20, 0f3F210A14, 0f3E0375D3, %p3;
  fma.rn.f32 %h21, %h19, %h8, %h20;
  neg.f32 %h22, %h6;
  selp.f32 %h23, %h22, %h1, %p3;
  fma.rn.f32 %h27, %h21, %h23, %h23;
  @%p2 bra $L_join;
  ex2.approx.ftz.f32 %h24, %h27;
  mov.f32 %h25, 0f3F800000;
  sub.f32 %h26, %h25, %h24;
  copysign.f32 %h27, %h1, %h26;
)";

// out[i] = erff on %h1, which {pre} sets from x[i]; {post} takes its value from %h27 into %h28.
const std::string kErffOn = R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %h5, [%rd11];
{pre}
)" + kErffSteps + R"($L_join:
{post}
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %h28;
)";

TEST_F(MachineTest, ARoutineFedAnAbsoluteValueIsFittedOverTheValuesItCanTake) {
  // erff(fabsf(x)): the routine's own |t| of the input |x| is |x| again, one symbolic value, so
  // the probes set both to t and below 0 the routine computes nothing of the family; |x| is
  // never below 0, and over [0, 3] the routine is erf. |erf(x)| = erf(|x|) (erf is odd and
  // increasing) against fabsf(erff(x)); erff(|x| + 1/4) is refuted.
  const std::string tensors = inputs_and_out("[8]", "range = [-3, 3]");
  auto erff_on = [&](const char* name, const std::string& pre, const std::string& post) {
    return kernel(name, 2, replace_all(replace_all(kErffOn, "{pre}", pre), "{post}", post), kDecls);
  };
  const std::string kernels = erff_on("erf_abs", "  abs.f32 %h1, %h5;", "  mov.f32 %h28, %h27;") +
                              erff_on("abs_erf", "  mov.f32 %h1, %h5;", "  abs.f32 %h28, %h27;") +
                              erff_on("erf_abs_shifted", "  abs.f32 %h4, %h5;\n  add.f32 %h1, %h4, 0f3E800000;",
                                      "  mov.f32 %h28, %h27;");
  auto r = run(kernels, {.tensors = tensors, .a = {{"erf_abs", kArgs, "[1]", "[8]"}}, .b = {{"abs_erf", kArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(kernels, {.tensors = tensors, .a = {{"erf_abs_shifted", kArgs, "[1]", "[8]"}}, .b = {{"abs_erf", kArgs, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

// out[i] = expf(x[i]) + {addend}, nvcc's expf with its last multiply fused into the addition.
const char* kExpfFused = R"(
  mul.wide.u32 %rd10, %r0, 4;
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
{addend}
  fma.rn.f32 %f18, %f17, %f16, %f21;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f18;
)";

// exp(x) as Triton writes it, plus {addend} (of %f1, into %f21).
const char* kExpSeparate = R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mul.f32 %f2, %f1, 0f3FB8AA3B;
  ex2.approx.f32 %f3, %f2;
{addend}
  add.f32 %f18, %f3, %f21;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f18;
)";

TEST_F(MachineTest, ExpfPlusValuesOfItsOwnInputFusedIntoItsLastStepAreAddends) {
  // expf(x) + x and expf(x) + sqrt(x*x + 0.5): what is added is computed from the routine's
  // input, but not by the routine; the thread runs it and adds it where the routine ends.
  const std::string tensors = inputs_and_out("[8]", "range = [-4, 4]");
  const std::string plain = "  mov.f32 %f21, %f1;\n";
  const std::string root = "  fma.rn.f32 %f20, %f1, %f1, 0f3F000000;\n  sqrt.rn.f32 %f21, %f20;\n";
  const std::string kernels =
      kernel("fused_x", 2, replace_all(replace_all(kExpfFused, "{addend}\n", ""), "%f21;", "%f1;")) +
      kernel("fused_root", 2, replace_all(kExpfFused, "{addend}\n", root)) +
      kernel("sep_x", 2, replace_all(kExpSeparate, "{addend}\n", plain)) +
      kernel("sep_root", 2, replace_all(kExpSeparate, "{addend}\n", root)) +
      kernel("sep_minus_x", 2, replace_all(kExpSeparate, "{addend}\n", "  neg.f32 %f21, %f1;\n"));
  auto pair = [&](const char* a, const char* b) {
    return run(kernels, {.tensors = tensors, .a = {{a, kArgs, "[1]", "[8]"}}, .b = {{b, kArgs, "[1]", "[8]"}}});
  };
  auto r = pair("fused_x", "sep_x");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = pair("fused_root", "sep_root");
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = pair("fused_x", "sep_minus_x");
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  r = pair("fused_root", "sep_x");
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

// where(x > {cut}, erff(x), y) folded into a running min that starts at +inf: erff's second
// path ends where the where()'s paths meet, at the min.
const std::string kWhereErfMin = R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %h1, [%rd11];
  add.s64 %rd13, %rd2, %rd10;
  ld.global.f32 %h27, [%rd13];
  mov.f32 %h50, 0f7F800000;
  setp.leu.f32 %p5, %h1, {cut};
  @%p5 bra $L_join;
)" + kErffSteps + R"($L_join:
  min.f32 %h46, %h50, %h27;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %h46;
)";

TEST_F(MachineTest, ARoutineEndingWhereADataDependentBranchMergesEndsOnItsPath) {
  // The first fit the probes met was the min at the meeting point (min(+inf, erf) = erf);
  // the thread merges the where()'s paths before it runs that instruction, so the routine
  // straddled the meeting point and the kernel was refused. Its value where its own paths
  // meet is on the path.
  const std::string tensors = inputs_and_out("[8]", "range = [-3, 3]", {"y"});
  const std::string args = R"({ read = "x" }, { write = "out" }, { read = "y" })";
  const std::string kernels = kernel("cut_half", 3, replace_all(kWhereErfMin, "{cut}", "0f3F000000"), kDecls) +
                              kernel("cut_half_again", 3,
                                     replace_all(replace_all(kWhereErfMin, "{cut}", "0f3F000000"),
                                                 "setp.leu.f32 %p5, %h1, 0f3F000000;\n  @%p5 bra",
                                                 "setp.gt.f32 %p5, %h1, 0f3F000000;\n  @!%p5 bra"),
                                     kDecls) +
                              kernel("cut_quarter", 3, replace_all(kWhereErfMin, "{cut}", "0f3E800000"), kDecls);
  auto r = run(kernels, {.tensors = tensors, .a = {{"cut_half", args, "[1]", "[8]"}}, .b = {{"cut_half_again", args, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(kernels, {.tensors = tensors, .a = {{"cut_half", args, "[1]", "[8]"}}, .b = {{"cut_quarter", args, "[1]", "[8]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
