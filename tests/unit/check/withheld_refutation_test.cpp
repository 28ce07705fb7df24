// A refutation at rounding level where one side applies a function the other does not is
// withheld (check/cell_decisions.cpp): the other side may be an unrecognized polynomial
// approximating it. Where the function cancels from the difference (exp(log u) is u, as in
// split-K attention's lse = m + log l met by exp(lse - M)), it is not what tells the sides apart,
// and the refutation stands for the replay to classify.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

constexpr const char* kArgs = R"({ read = "x" }, { write = "out" })";

Spec small_inputs(std::string_view a, std::string_view b) {
  const std::string t = tensor("x", "[4]", "f32", "input", "range = [0, 0.015625]") + tensor("out", "[4]", "f32", "empty");
  return {.tensors = t, .a = {{std::string(a), kArgs, "[1]", "[4]"}}, .b = {{std::string(b), kArgs, "[1]", "[4]"}}};
}

// ln(1 + x) = log2(1 + x) ln 2.
constexpr const char* kLog1p = "add.f32 %f4, %f1, 0f3F800000;\n  lg2.approx.f32 %f5, %f4;\n  mul.f32 %f2, %f5, 0f3F317218;";

TEST_F(MachineTest, ARoundingLevelDifferenceAgainstAPolynomialOfTheFunctionIsWithheld) {
  // x - x^2/2 + x^3/3 is within 2^-20 relative of ln(1 + x) on [0, 1/64]: possibly a compiled
  // log the recognizer missed, so no bug is reported.
  auto r = run(unary_kernel("log1p", kLog1p) +
                   unary_kernel("series", "mul.f32 %f4, %f1, %f1;\n  mul.f32 %f5, %f4, %f1;\n"
                                          "  mul.f32 %f6, %f4, 0fBF000000;\n  fma.rn.f32 %f7, %f5, 0f3EAAAAAB, %f6;\n"
                                          "  add.f32 %f2, %f7, %f1;"),
               small_inputs("log1p", "series"));
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_NE(show(r).find("withheld"), std::string::npos) << show(r);
}

TEST_F(MachineTest, ARoundingLevelDifferenceWhereTheFunctionCancelsIsClassifiedByTheReplay) {
  // exp(ln(1 + x)) (1 + 2^-23) against 1 + x: the log cancels, the sides differ by one ulp.
  auto r = run(unary_kernel("exp_log", std::string(kLog1p) + "\n  mov.f32 %f6, %f2;\n  mul.f32 %f7, %f6, 0f3FB8AA3B;\n"
                                                             "  ex2.approx.f32 %f8, %f7;\n  mul.f32 %f2, %f8, 0f3F800001;") +
                   unary_kernel("plain", "add.f32 %f2, %f1, 0f3F800000;"),
               small_inputs("exp_log", "plain"));
  EXPECT_EQ(r.verdict, Verdict::EqualUpToRounding) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
