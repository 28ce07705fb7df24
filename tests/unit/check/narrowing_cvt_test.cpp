// A narrowing integer cvt to a signed type in a wider register (sem/move.cpp): PTX sign-extends
// the result to the register's width, as Triton's int8 dequantization relies on (cvt.s8.s32
// into a 16-bit register, then cvt.rn.f16.s16). Zero-extended, 200 as s8 would read back as
// 200 rather than -56, and both the symbolic run and its replay would agree on the wrong value.
// (Run on an H100, 2026-12-07: cvt.s8.s32 of 200 into a .b32 register gives 0xffffffc8, into a
// .b16 one -56; cvt.u8.s32 gives 200; cvt.s16.s32 of 40000 gives -25536.)
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

Spec spec(std::string_view a, std::string_view b) { return binary_spec(a, b); }

// out = x * (the constant `value` narrowed to `type` in a 32-bit register, read back as s32).
std::string scaled_by_narrowed(std::string_view name, std::string_view type, int value) {
  return binary_kernel(name, "mov.u32 %r20, " + std::to_string(value) + ";\n  cvt." + std::string(type) +
                                 ".s32 %r21, %r20;\n  cvt.rn.f32.s32 %f4, %r21;\n  mul.f32 %f3, %f1, %f4;");
}

std::string scaled_by(std::string_view name, std::string_view f32_hex) {
  return binary_kernel(name, "mul.f32 %f3, %f1, 0f" + std::string(f32_hex) + ";");
}

TEST_F(MachineTest, NarrowingToASignedTypeSignExtendsInTheRegister) {
  auto r = run(scaled_by_narrowed("narrow", "s8", 200) + scaled_by("ref", "C2600000"), spec("narrow", "ref"));  // -56
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  auto wrong = run(scaled_by_narrowed("narrow", "s8", 200) + scaled_by("ref", "43480000"), spec("narrow", "ref"));  // 200
  EXPECT_EQ(wrong.verdict, Verdict::Inequivalent) << show(wrong);
}

TEST_F(MachineTest, NarrowingToAnUnsignedTypeZeroExtends) {
  auto r = run(scaled_by_narrowed("narrow", "u8", -56) + scaled_by("ref", "43480000"), spec("narrow", "ref"));  // 200
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  auto s16 = run(scaled_by_narrowed("narrow", "s16", 40000) + scaled_by("ref", "C6C78000"), spec("narrow", "ref"));  // -25536
  EXPECT_EQ(s16.verdict, Verdict::Equivalent) << show(s16);
}

}  // namespace
}  // namespace racer::check::testing
