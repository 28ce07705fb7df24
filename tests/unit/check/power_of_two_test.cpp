// 2^k built from an integer input k as a float's exponent field ((k + 127) << 23 read as
// f32, exec/symbolic_bit_views.cpp): exactly 2^k while k's declared range keeps the field
// normal, refused where it may not (a subnormal, zero or infinity would need other bits).
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[i] = x[i] * f(k[i]): `body` reads k in %r10 and leaves f's float in %f3.
std::string scaled(std::string_view name, std::string_view body) {
  return kernel(name, 3, std::string(R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  add.s64 %rd12, %rd1, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.s32 %r10, [%rd12];
)") + std::string(body) + R"(
  mul.f32 %f4, %f1, %f3;
  add.s64 %rd13, %rd2, %rd10;
  st.global.f32 [%rd13], %f4;
)");
}

// The exponent field (k + bias) << 23, read as a float.
std::string from_bits(std::string_view name, std::string_view bias) {
  return scaled(name, std::string("  add.s32 %r11, %r10, ") + std::string(bias) + ";\n  shl.b32 %r12, %r11, 23;\n  mov.b32 %f3, %r12;");
}

// 2^k as ex2 of k converted to a float.
std::string from_ex2(std::string_view name) {
  return scaled(name, "  cvt.rn.f32.s32 %f2, %r10;\n  ex2.approx.f32 %f3, %f2;");
}

Spec spec(std::string_view k_range) {
  const std::string args = R"({ read = "x" }, { read = "k" }, { write = "out" })";
  return {.tensors = tensor("x", "[32]", "f32", "input", "range = [-4, 4]") +
                     tensor("k", "[32]", "i32", "input", k_range) + tensor("out", "[32]", "f32", "empty"),
          .a = {{"bits", args}},
          .b = {{"ref", args}}};
}

TEST_F(MachineTest, AnExponentFieldFromAnIntegerIsAPowerOfTwo) {
  auto r = run(from_bits("bits", "127") + from_ex2("ref"), spec("range = [-20, 20]"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, AWrongBiasIsRefuted) {
  // A bias of 126 builds 2^(k - 1).
  auto r = run(from_bits("bits", "126") + from_ex2("ref"), spec("range = [-20, 20]"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, AnExponentFieldThatMayLeaveTheNormalRangeIsRefused) {
  // k = -127 makes the field 0: the bits of zero, not 2^-127.
  auto r = run(from_bits("bits", "127") + from_ex2("ref"), spec("range = [-127, 20]"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("mul.f32"), std::string::npos) << r.reason;
  // A field shifted to the wrong place (<< 22) holds mantissa bits: not a power of two.
  auto misplaced = run(scaled("bits", "  add.s32 %r11, %r10, 127;\n  shl.b32 %r12, %r11, 22;\n  mov.b32 %f3, %r12;") +
                           from_ex2("ref"),
                       spec("range = [-20, 20]"));
  EXPECT_EQ(misplaced.verdict, Verdict::Refused) << show(misplaced);
}

}  // namespace
}  // namespace racer::check::testing
