// setp on packed halves (sem/compare.cpp): each 16-bit lane compared in its own format, the
// low lanes' result in p and the high lanes' in q (Triton compares f16 pairs so, relu's
// derivative in flash-attn's fused MLP backward). A swapped reading of p and q is refuted.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out = (x > 0 ? x : 0) + (y > 0 ? y : 0), x and y compared as the low and high halves of one
// register against packed zeros; `p` and `q` name the predicates that gate x and y.
std::string packed_relu_sum(std::string_view name, std::string_view type, std::string_view cmp_suffix,
                            std::string_view p, std::string_view q) {
  const std::string cvt = type == "f16x2" ? "f16" : "bf16";
  return binary_kernel(name, "cvt.rn." + cvt + ".f32 %h1, %f1;\n  cvt.rn." + cvt + ".f32 %h2, %f2;\n" +
                                 "  mov.b32 %r10, {%h1, %h2};\n  mov.b32 %r11, 0;\n  setp.gt" + std::string(cmp_suffix) + "." +
                                 std::string(type) + " %p1|%p2, %r10, %r11;\n  selp.f32 %f4, %f1, 0f00000000, " +
                                 std::string(p) + ";\n  selp.f32 %f5, %f2, 0f00000000, " + std::string(q) +
                                 ";\n  add.f32 %f3, %f4, %f5;");
}

std::string relu_sum_ref(std::string_view name) {
  return binary_kernel(name, R"(
  setp.gt.f32 %p1, %f1, 0f00000000;
  selp.f32 %f4, %f1, 0f00000000, %p1;
  setp.gt.f32 %p2, %f2, 0f00000000;
  selp.f32 %f5, %f2, 0f00000000, %p2;
  add.f32 %f3, %f4, %f5;)");
}

const char* kHalves = "  .reg .b16 %h<8>;\n";

std::string with_halves(std::string k) {
  const std::string at = "  .reg .b64 %rd<64>;\n";
  return k.replace(k.find(at), at.size(), at + kHalves);
}

TEST_F(MachineTest, PackedHalfComparisonGivesTheLowLaneToPAndTheHighToQ) {
  for (std::string_view type : {"f16x2", "bf16x2"}) {
    auto r = run(with_halves(packed_relu_sum("packed", type, "", "%p1", "%p2")) + relu_sum_ref("ref"),
                 binary_spec("packed", "ref"));
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << type << "\n" << show(r);
  }
  auto swapped = run(with_halves(packed_relu_sum("packed", "f16x2", "", "%p2", "%p1")) + relu_sum_ref("ref"),
                     binary_spec("packed", "ref"));
  EXPECT_EQ(swapped.verdict, Verdict::Inequivalent) << show(swapped);
}

TEST_F(MachineTest, PackedHalfComparisonCombinesEachLaneWithThePredicate) {
  // setp.gt.and.f16x2 p|q, a, 0, c with c true: the lanes as before; q is not p's negation.
  std::string k = packed_relu_sum("packed", "f16x2", ".and", "%p1", "%p2");
  k.replace(k.find("%r10, %r11;"), 11, "%r10, %r11, %p3;");
  k.replace(k.find("  cvt.rn.f16"), 0, "  setp.eq.u32 %p3, %r0, %r0;\n");
  auto r = run(with_halves(k) + relu_sum_ref("ref"), binary_spec("packed", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
