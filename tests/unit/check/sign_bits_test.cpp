// Bit-level views of floats (sem/logic.cpp, sem/bit_view.cpp, exec/symbolic_sign_bits.cpp):
// the sign bit alone (and 0x80000000) as integer data that or/xor put into another float
// (copysign, a sign flip), the identities, and a symbolic float that is a known constant read
// as its bits (a masked lane's exp building 2^k with shl). Everything else stays refused.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[i] = f(x[i], y[i]) on bits: `body` reads x's bits in %r10 and y's in %r11 and leaves the
// result's bits in %r12.
std::string binary_bits(std::string_view name, std::string_view body) {
  return binary_kernel(name, "mov.b32 %r10, %f1;\n  mov.b32 %r11, %f2;\n" + std::string(body) + "\n  mov.b32 %f3, %r12;");
}

// The reference: out = copysign(|y|, x) (PTX copysign takes the sign of its first operand).
std::string copysign_ref(std::string_view name) {
  return binary_bits(name, R"(
  copysign.f32 %f4, %f1, %f2;
  mov.b32 %r12, %f4;)");
}

Spec spec(std::string_view a, std::string_view b) { return binary_spec(a, b); }

TEST_F(MachineTest, CopysignFromSignBitsIsProved) {
  auto r = run(binary_bits("bits", R"(
  and.b32 %r13, %r10, -2147483648;
  and.b32 %r14, %r11, 2147483647;
  or.b32 %r12, %r13, %r14;)") + copysign_ref("ref"), spec("bits", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, SignBitOredIntoASignedValueIsRefuted) {
  // Without clearing y's own sign first, a negative y stays negative where x > 0.
  auto r = run(binary_bits("bits", R"(
  and.b32 %r13, %r10, -2147483648;
  or.b32 %r12, %r13, %r11;)") + copysign_ref("ref"), spec("bits", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, SignBitXoredIntoAValueFlipsItsSign) {
  // y with x's sign xor'ed in is x < 0 ? -y : y, which copysign(|y|, x) is not (y < 0).
  const std::string flip = binary_bits("bits", R"(
  and.b32 %r13, %r10, -2147483648;
  xor.b32 %r12, %r11, %r13;)");
  auto same = run(flip + binary_bits("ref", R"(
  setp.lt.f32 %p1, %f1, 0f00000000;
  neg.f32 %f4, %f2;
  selp.f32 %f5, %f4, %f2, %p1;
  mov.b32 %r12, %f5;)"), spec("bits", "ref"));
  EXPECT_EQ(same.verdict, Verdict::Equivalent) << show(same);
  auto other = run(flip + copysign_ref("ref"), spec("bits", "ref"));
  EXPECT_EQ(other.verdict, Verdict::Inequivalent) << show(other);
}

TEST_F(MachineTest, SignBitIntoAConstantIsCopysignOfOne) {
  // copysign(1, x) as libdevice's tanhf builds it on its saturated path.
  auto r = run(binary_bits("bits", R"(
  and.b32 %r13, %r10, -2147483648;
  or.b32 %r12, %r13, 1065353216;)") + binary_bits("ref", R"(
  mov.f32 %f5, 0f3F800000;
  copysign.f32 %f4, %f1, %f5;
  mov.b32 %r12, %f4;)"), spec("bits", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, IdentityMasksKeepTheValue) {
  auto r = run(binary_bits("bits", R"(
  or.b32 %r13, %r11, 0;
  xor.b32 %r14, %r13, 0;
  and.b32 %r12, %r14, -1;)") + binary_bits("ref", "  mov.b32 %r12, %r11;"), spec("bits", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, SignBitShiftedDownIsTheFlagBelowZero) {
  // The sign alone shifted to bit 0 is 1 where x < 0 (int_bit_fields_test has the shifts);
  // it was refused before shifts of integer data were modelled.
  const std::string flag = R"(
  and.b32 %r13, %r10, -2147483648;
  shr.u32 %r14, %r13, 31;
  cvt.rn.f32.u32 %f4, %r14;
  mov.b32 %r12, %f4;)";
  const std::string below_zero = R"(
  setp.lt.f32 %p1, %f1, 0f00000000;
  selp.f32 %f4, 0f3F800000, 0f00000000, %p1;
  mov.b32 %r12, %f4;)";
  auto r = run(binary_bits("bits", flag) + binary_bits("ref", below_zero), spec("bits", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  auto other = run(binary_bits("bits", flag) + copysign_ref("ref"), spec("bits", "ref"));
  EXPECT_EQ(other.verdict, Verdict::Inequivalent) << show(other);
}

TEST_F(MachineTest, OtherMasksOnSymbolicFloatsStayRefused) {
  for (std::string_view body : {"  and.b32 %r12, %r10, -2147483647;",  // sign and the lowest bit
                                "  or.b32 %r12, %r10, %r11;",            // two floats' bits
                                "  and.b32 %r13, %r10, -2147483648;\n  and.b32 %r12, %r13, %r11;"}) {
    auto r = run(binary_bits("bits", body) + copysign_ref("ref"), spec("bits", "ref"));
    EXPECT_EQ(r.verdict, Verdict::Refused) << body << "\n" << show(r);
  }
}

// A value computed from symbolic data that is a known constant: 0 * x + c. libdevice's expf
// builds 2^k with shl from fma.rm(sat(...), 252, 12582913), a constant on a masked lane.
std::string constant_bits(std::string_view name, std::string_view constant, std::string_view use) {
  return binary_bits(name, std::string(R"(
  mul.f32 %f4, %f1, 0f00000000;
  add.f32 %f5, %f4, )") + std::string(constant) + R"(;
  mov.b32 %r13, %f5;
)" + std::string(use));
}

TEST_F(MachineTest, AKnownConstantIsReadAsItsBits) {
  // y times 2^k, k the low byte of the constant's bits shifted into the exponent field.
  auto times_power_of_two = [&](std::string_view constant) {
    return run(constant_bits("bits", constant, R"(
  shl.b32 %r14, %r13, 23;
  mov.b32 %f6, %r14;
  mul.f32 %f7, %f2, %f6;
  mov.b32 %r12, %f7;)") + binary_bits("ref", "  mov.b32 %r12, %r11;"), spec("bits", "ref"));
  };
  // 12583039 = 0x4B40007F: its low byte 127 becomes the exponent of 1.0, so out = y.
  auto one = times_power_of_two("0f4B40007F");
  EXPECT_EQ(one.verdict, Verdict::Equivalent) << show(one);
  // 12583040: 2^1, so out = 2y.
  auto two = times_power_of_two("0f4B400080");
  EXPECT_EQ(two.verdict, Verdict::Inequivalent) << show(two);
}

TEST_F(MachineTest, ConstantsWithoutOneEncodingStayRefused) {
  // 1/3 has no f32 encoding (it is a real computed exactly, not a rounded float), and a zero's
  // sign is not kept by the reals: neither has bits to read.
  auto third = run(binary_bits("bits", R"(
  mul.f32 %f4, %f1, 0f00000000;
  div.rn.f32 %f5, 0f3F800000, 0f40400000;
  add.f32 %f6, %f4, %f5;
  mov.b32 %r13, %f6;
  shl.b32 %r12, %r13, 1;)") + copysign_ref("ref"), spec("bits", "ref"));
  EXPECT_EQ(third.verdict, Verdict::Refused) << show(third);
  EXPECT_NE(third.reason.find("shl.b32"), std::string::npos) << third.reason;
  auto zero = run(constant_bits("bits", "0f00000000", R"(
  and.b32 %r14, %r13, -2147483648;
  or.b32 %r12, %r14, 1065353216;)") + copysign_ref("ref"), spec("bits", "ref"));
  EXPECT_EQ(zero.verdict, Verdict::Refused) << show(zero);
  EXPECT_NE(zero.reason.find("+0 or -0"), std::string::npos) << zero.reason;
}

// -inf has one encoding: min(-inf, v) is -inf whatever v is (NaN included, without .NaN), and
// carried through exact operations it stays those bits, so exp2(-inf) is +0 with its sign
// (cut-cross-entropy's logaddexp(-inf, x) tests log1p's argument's bits).
TEST_F(MachineTest, AnInfinityCarriedThroughExactOperationsKeepsItsBits) {
  auto after_exp2 = [](std::string_view name, std::string_view inner, std::string_view test) {
    return binary_kernel(name, std::string(inner) + R"(
  min.f32 %f4, %f9, 0fFF800000;
  sub.f32 %f5, %f4, %f2;
  mul.f32 %f6, %f5, 0f3FB8AA3B;
  ex2.approx.f32 %f7, %f6;
  mov.b32 %r10, %f7;
  )" + std::string(test) + "\n  selp.f32 %f3, %f1, %f2, %p1;");
  };
  const std::string first = binary_kernel("first", "mov.f32 %f3, %f1;");
  // v = x, and v = log2|x| (which may be -inf itself).
  for (std::string_view inner : {"mov.f32 %f9, %f1;", "abs.f32 %f8, %f1;\n  lg2.approx.f32 %f9, %f8;"}) {
    auto r = run(after_exp2("plus_zero", inner, "setp.lt.u32 %p1, %r10, 2139095040;") + first, spec("plus_zero", "first"));
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << inner << show(r);
    r = run(after_exp2("plus_zero", inner, "setp.eq.b32 %p1, %r10, 0;") + first, spec("plus_zero", "first"));
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << inner << show(r);
    r = run(after_exp2("negative", inner, "setp.ge.s32 %p1, %r10, 0;\n  not.pred %p1, %p1;") + first, spec("negative", "first"));
    EXPECT_EQ(r.verdict, Verdict::Inequivalent) << inner << show(r);
  }
  // min.NaN of a NaN is NaN: there the infinity decides nothing, and the bits stay unknown.
  auto r = run(replace_all(after_exp2("nan_min", "abs.f32 %f8, %f1;\n  lg2.approx.f32 %f9, %f8;",
                                      "setp.lt.u32 %p1, %r10, 2139095040;"), "min.f32", "min.NaN.f32") + first,
               spec("nan_min", "first"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
}

// A float's bits compared with a constant as integers (sem/compare.cpp float_bits_compare):
// equality with a nonzero float's pattern is equality of values; |x|'s bits below the bits of
// +inf (powf's finiteness test) hold for every real; an order against other bits of a float of
// unknown sign stays refused.
TEST_F(MachineTest, FloatBitsComparedWithAFloatsBits) {
  auto pick = [](std::string_view test) {
    return "mov.b32 %r10, %f1;\n  abs.f32 %f5, %f1;\n  mov.b32 %r11, %f5;\n  " + std::string(test) +
           "\n  selp.f32 %f3, %f1, %f2, %p1;";
  };
  const std::string equal_bits = binary_kernel("equal_bits", pick("setp.eq.b32 %p1, %r10, 1069547520;"));  // 1.5f
  const std::string equal_value = binary_kernel("equal_value", "setp.eq.f32 %p1, %f1, 0f3FC00000;\n  selp.f32 %f3, %f1, %f2, %p1;");
  auto r = run(equal_bits + equal_value, spec("equal_bits", "equal_value"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  const std::string finite = binary_kernel("finite", pick("setp.lt.s32 %p1, %r11, 2139095040;"));  // |x| < +inf
  const std::string first = binary_kernel("first", "mov.f32 %f3, %f1;");
  r = run(finite + first, spec("finite", "first"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  const std::string below_one = binary_kernel("below_one", pick("setp.lt.s32 %p1, %r10, 1065353216;"));  // x's bits < 1.0f's
  r = run(below_one + first, spec("below_one", "first"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << "x's sign is unknown: its bits do not order as the floats " << show(r);
}

}  // namespace
}  // namespace racer::check::testing
