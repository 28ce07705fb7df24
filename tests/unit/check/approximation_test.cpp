// Cell sides that approximate a function without any bit-level step: read as the function
// only when piecewise in one input and within the bound at every probe point. And float
// rounding to an integral value (cvt.rni.f32.f32) is never the identity on reals.
#include "check/approximation.hpp"

#include <gtest/gtest.h>

#include "fixture.hpp"

namespace racer::check::testing {
namespace {

using expr::ExprId;

// tanh's Taylor polynomial through x^11: within 1e-9 of tanh for |x| < 1/4.
ExprId tanh_taylor(expr::Store& s, ExprId x) {
  const long num[] = {1, -1, 2, -17, 62, -1382};
  const long den[] = {1, 3, 15, 315, 2835, 155925};
  ExprId sum = s.zero();
  for (int k = 0; k < 6; ++k) sum = s.add(sum, s.mul(s.constant(mpq_class(num[k], den[k])), s.pow_int(x, 2 * k + 1)));
  return sum;
}

ExprId piecewise_tanh(expr::Store& s, ExprId x, ExprId small_branch) {
  ExprId small = s.cmp(expr::CmpOp::Lt, s.abs(x), s.constant(mpq_class(1, 4)));
  return s.select(small, small_branch, s.tanh(x));
}

TEST(Approximation, PiecewisePolynomialAndTanhIsReadAsTanh) {
  expr::Store s;
  ExprId x = s.symbol("x[0]");
  auto r = recognize_approximation(s, piecewise_tanh(s, x, tanh_taylor(s, x)));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->description, "tanh(t)");
  EXPECT_EQ(r->function, s.tanh(x));
}

TEST(Approximation, WrongPolynomialOrStraightFormulaIsNotRead) {
  expr::Store s;
  ExprId x = s.symbol("x[0]");
  // The x^3 coefficient off by a tenth: 1.6e-3 away at x = 1/4.
  ExprId off = s.add(tanh_taylor(s, x), s.mul(s.constant(mpq_class(1, 10)), s.pow_int(x, 3)));
  EXPECT_FALSE(recognize_approximation(s, piecewise_tanh(s, x, off)).has_value());
  // Not piecewise: a near miss like exp(x) * (1 + 1e-7) stays what it is.
  ExprId near = s.mul(s.exp(x), s.constant(mpq_class(10000001, 10000000)));
  EXPECT_FALSE(recognize_approximation(s, near).has_value());
  // Two inputs: not a routine of one.
  ExprId y = s.symbol("y[0]");
  EXPECT_FALSE(recognize_approximation(s, piecewise_tanh(s, s.add(x, y), tanh_taylor(s, s.add(x, y)))).has_value());
}

TEST_F(MachineTest, RoundingToAnIntegralValueIsNotTheIdentity) {
  // floor(x) as cvt.rmi.f32.f32 against a plain copy: they differ at any non-integer x, which
  // the exact floor (x - w(2x)/2, exec/symbolic_domain.cpp) finds.
  std::string args = R"({ read = "x" }, { write = "out" })";
  std::string t = tensor("x", "[4]", "f32", "input", "range = [-4, 4]") + tensor("out", "[4]", "f32", "empty");
  auto r = run(unary_kernel("floor_it", "cvt.rmi.f32.f32 %f2, %f1;") + unary_kernel("copy_it", "mov.f32 %f2, %f1;"),
               {.tensors = t, .a = {{"floor_it", args, "[1]", "[4]"}}, .b = {{"copy_it", args, "[1]", "[4]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample) << show(r);
  EXPECT_EQ(r.counterexample->replay_kind, "manifest") << r.counterexample->replay;
  // On concrete values it is exact rounding: floor(-2.5) = -3 both ways.
  std::string c = tensor("x", "[4]", "f32", "{ values = [-2.5, 0.5, 3.0, -0.25] }") + tensor("out", "[4]", "f32", "empty");
  r = run(unary_kernel("floor_it", "cvt.rmi.f32.f32 %f2, %f1;") + unary_kernel("floor_again", "cvt.rmi.f32.f32 %f2, %f1;"),
          {.tensors = c, .a = {{"floor_it", args, "[1]", "[4]"}}, .b = {{"floor_again", args, "[1]", "[4]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, TestpOfSymbolicDataAsksWhatTheRealsAnswer) {
  // A symbolic float is a finite real wherever defined: isinf(x) is false, so selecting 0 where
  // it holds is the identity; .normal asks about the encoding's exponent and is refused.
  std::string args = R"({ read = "x" }, { write = "out" })";
  std::string t = tensor("x", "[4]", "f32", "input", "range = [-4, 4]") + tensor("out", "[4]", "f32", "empty");
  auto r = run(unary_kernel("isinf_zero", ".reg .pred %q<2>;\n  testp.infinite.f32 %q1, %f1;\n  selp.f32 %f2, 0f00000000, %f1, %q1;") +
                   unary_kernel("copy_it", "mov.f32 %f2, %f1;"),
               {.tensors = t, .a = {{"isinf_zero", args, "[1]", "[4]"}}, .b = {{"copy_it", args, "[1]", "[4]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(unary_kernel("isnormal", ".reg .pred %q<2>;\n  testp.normal.f32 %q1, %f1;\n  selp.f32 %f2, 0f00000000, %f1, %q1;") +
              unary_kernel("copy_it", "mov.f32 %f2, %f1;"),
          {.tensors = t, .a = {{"isnormal", args, "[1]", "[4]"}}, .b = {{"copy_it", args, "[1]", "[4]"}}});
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("testp.normal"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, ModifiersThatChangeTheResultAreNeverIgnored) {
  // cvt.relu and max.xorsign.abs compute something else than the plain instruction and are
  // not modelled: refused, naming the modifier, rather than read as cvt or max.
  std::string args = R"({ read = "x" }, { write = "out" })";
  std::string t = tensor("x", "[4]", "f32", "input", "range = [-4, 4]") + tensor("out", "[4]", "f32", "empty");
  for (auto [body, modifier] : {std::pair{".reg .b16 %h<2>;\n  cvt.rn.relu.f16.f32 %h1, %f1;\n  cvt.f32.f16 %f2, %h1;", ".relu"},
                                std::pair{"mov.f32 %f3, 0f3F800000;\n  max.xorsign.abs.f32 %f2, %f1, %f3;", ".xorsign"}}) {
    auto r = run(unary_kernel("modified", body) + unary_kernel("copy_it", "mov.f32 %f2, %f1;"),
                 {.tensors = t, .a = {{"modified", args, "[1]", "[4]"}}, .b = {{"copy_it", args, "[1]", "[4]"}}});
    EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
    EXPECT_NE(r.reason.find(modifier), std::string::npos) << r.reason;
  }
}

TEST_F(MachineTest, MinXorsignAbsIsAClampAgainstAPositiveBound) {
  // Triton's tl.clamp(x, -2, 2) is min.xorsign.abs(x, 2): sign(x) min(|x|, 2).
  std::string args = R"({ read = "x" }, { write = "out" })";
  std::string t = tensor("x", "[32]", "f32", "input", "range = [-4, 4]") + tensor("out", "[32]", "f32", "empty");
  std::string xorsign = unary_kernel("xorsign", "mov.f32 %f3, 0f40000000;\n  min.xorsign.abs.f32 %f2, %f1, %f3;");
  std::string clamp = unary_kernel("clamp", "max.f32 %f4, %f1, 0fC0000000;\n  min.f32 %f2, %f4, 0f40000000;");
  std::string upper = unary_kernel("upper", "min.f32 %f2, %f1, 0f40000000;");
  auto r = run(xorsign + clamp, {.tensors = t, .a = {{"xorsign", args, "[1]", "[32]"}}, .b = {{"clamp", args, "[1]", "[32]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(xorsign + upper, {.tensors = t, .a = {{"xorsign", args, "[1]", "[32]"}}, .b = {{"upper", args, "[1]", "[32]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << "plain min(x, 2) is not the clamp below -2: " << show(r);
}

TEST_F(MachineTest, MinXorsignAbsOfTwoInputs) {
  // min(|x|, |y|) with the sign of x's xor y's: symmetric, and not min(x, y).
  std::string args = R"({ read = "x" }, { read = "y" }, { write = "out" })";
  std::string t = tensor("x", "[32]", "f32", "input", "range = [-4, 4]") + tensor("y", "[32]", "f32", "input", "range = [-4, 4]") +
                  tensor("out", "[32]", "f32", "empty");
  std::string xy = binary_kernel("xy", "min.xorsign.abs.f32 %f3, %f1, %f2;");
  std::string yx = binary_kernel("yx", "min.xorsign.abs.f32 %f3, %f2, %f1;");
  std::string plain = binary_kernel("plain", "min.f32 %f3, %f1, %f2;");
  auto r = run(xy + yx, {.tensors = t, .a = {{"xy", args, "[1]", "[32]"}}, .b = {{"yx", args, "[1]", "[32]"}}});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  r = run(xy + plain, {.tensors = t, .a = {{"xy", args, "[1]", "[32]"}}, .b = {{"plain", args, "[1]", "[32]"}}});
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, PowersOfTwoOfInfinitiesFold) {
  // Masked lanes of a Triton softmax load -inf: ex2(-inf) must be 0, not an unevaluable
  // exp(-inf * log 2); lg2 of 0 is -inf.
  std::string args = R"({ read = "x" }, { write = "out" })";
  std::string t = tensor("x", "[2]", "f32", "{ values = [-inf, 0.0] }") + tensor("out", "[2]", "f32", "empty");
  std::string ex2 = unary_kernel("ex2_it", "ex2.approx.f32 %f3, %f1;\n  lg2.approx.f32 %f4, %f3;\n  ex2.approx.f32 %f2, %f4;");
  std::string zero = unary_kernel("zero_it", "mov.f32 %f2, 0f00000000;");
  auto r = run(ex2 + zero, {.tensors = t, .a = {{"ex2_it", args, "[1]", "[2]"}}, .b = {{"zero_it", args, "[1]", "[2]"}}});
  // x = -inf: 2^x = 0, log2(0) = -inf, 2^-inf = 0. x = 0: 2^0 = 1, log2(1) = 0, 2^0 = 1.
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->cell, "out[1]");
  EXPECT_TRUE(r.unknown_cells.empty()) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
