// Carry chains: a 64-bit sum built from 32-bit halves with add.cc/addc, and a 64-bit
// product's high word with mad.lo.cc/madc.hi, against the plain 64-bit instructions.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "a" }, { read = "b" }, { write = "out" })";

// out[i] = a[i] + b[i] as u64 in one instruction, or from halves.
std::string sum64(std::string_view name, std::string_view body) {
  std::string s = R"(
  mul.wide.u32 %rd10, %r0, 8;
  add.s64 %rd11, %rd0, %rd10;
  add.s64 %rd12, %rd1, %rd10;
  ld.global.u64 %rd13, [%rd11];
  ld.global.u64 %rd14, [%rd12];
)";
  s += body;
  s += R"(
  add.s64 %rd16, %rd2, %rd10;
  st.global.u64 [%rd16], %rd15;
)";
  return kernel(name, 3, s);
}

const std::string kPlain = sum64("plain", "  add.u64 %rd15, %rd13, %rd14;\n");
const std::string kHalves = sum64("halves", R"(
  mov.b64 {%r10, %r11}, %rd13;
  mov.b64 {%r12, %r13}, %rd14;
  add.cc.u32 %r14, %r10, %r12;
  addc.u32 %r15, %r11, %r13;
  mov.b64 %rd15, {%r14, %r15};
)");

Spec spec(std::string_view a, std::string_view b) {
  std::string values = "{ values = [4294967295, 1, 9223372036854775807, 4294967296] }";
  return {.tensors = tensor("a", "[4]", "i64", values) + tensor("b", "[4]", "i64", "{ values = [1, 4294967295, 1, 4294967295] }") +
                     tensor("out", "[4]", "i64", "empty"),
          .a = {{std::string(a), kArgs, "[1]", "[4]"}},
          .b = {{std::string(b), kArgs, "[1]", "[4]"}}};
}

TEST_F(MachineTest, CarryChainsAddLikeTheWideInstruction) {
  auto r = run(kPlain + kHalves, spec("plain", "halves"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // Without the carry in, the sums with a carry out of the low word differ.
  std::string no_carry = replace_all(kHalves, "addc.u32 %r15, %r11, %r13", "add.u32 %r15, %r11, %r13");
  r = run(kPlain + no_carry, spec("plain", "halves"));
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

TEST_F(MachineTest, BorrowChainsSubtractLikeTheWideInstruction) {
  std::string plain = replace_all(kPlain, "add.u64 %rd15, %rd13, %rd14", "sub.u64 %rd15, %rd13, %rd14");
  std::string halves = replace_all(replace_all(kHalves, "add.cc.u32", "sub.cc.u32"), "addc.u32", "subc.u32");
  auto r = run(plain + halves, spec("plain", "halves"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, MadCarryGivesTheHighWordOfAWideProduct) {
  // hi32(a * b + c) for 32-bit a, b, c: mul.wide then shift, against mad.lo.cc + madc.hi.
  std::string wide = sum64("wide", R"(
  cvt.u32.u64 %r10, %rd13;
  cvt.u32.u64 %r11, %rd14;
  mul.wide.u32 %rd20, %r10, %r11;
  add.u64 %rd21, %rd20, 4294967295;
  shr.u64 %rd15, %rd21, 32;
)");
  std::string carried = sum64("carried", R"(
  cvt.u32.u64 %r10, %rd13;
  cvt.u32.u64 %r11, %rd14;
  mad.lo.cc.u32 %r12, %r10, %r11, -1;
  madc.hi.u32 %r13, %r10, %r11, 0;
  cvt.u64.u32 %rd15, %r13;
)");
  auto r = run(wide + carried, spec("wide", "carried"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
