// .func calls inlined into their entries (ptx/inline_calls.hpp): the .param traffic becomes
// register moves, ret a branch past the call; calls that are not exactly that stay calls.
#include <gtest/gtest.h>

#include <algorithm>

#include "call_kernels.hpp"
#include "ptx/inline_calls.hpp"
#include "ptx/parser.hpp"

namespace racer::ptx {
namespace {

using testing::call_sequence;
using testing::doubling_func;
using testing::kAddOneFunc;

const std::string kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n\n";

std::string entry_calling(std::string_view callee) {
  return ".visible .entry k(.param .u64 p)\n{\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<2>;\n"
         "  ld.param.u64 %rd1, [p];\n  ld.global.f32 %f1, [%rd1];\n" +
         call_sequence(callee, 1, 2) + "  st.global.f32 [%rd1], %f2;\n  ret;\n}\n";
}

ParsedModule parse(const std::string& text) { return parse_ptx(SourceText("t.ptx", text)); }

const Function& entry(const ParsedModule& pm) { return *pm.module.find_entry("k"); }

size_t count(const Function& f, Op op) {
  return static_cast<size_t>(std::count_if(f.instrs.begin(), f.instrs.end(), [&](const Instr& I) { return I.op == op; }));
}

TEST(InlineCalls, ParamTrafficBecomesMovesAndRetABranchPastTheCall) {
  ParsedModule pm = parse(kHeader + kAddOneFunc + entry_calling("add_one"));
  ASSERT_EQ(inline_calls(pm.module, pm.map), 1u);
  const Function& f = entry(pm);
  EXPECT_EQ(count(f, Op::Call), 0u);
  // st.param/ld.param of the call sequence (2) and of the callee (3) are moves now.
  EXPECT_EQ(count(f, Op::Mov), 5u);
  // Both rets of the callee branch to the instruction after the inlined body (the result's
  // ld.param, now a move); the entry's own ret stays.
  EXPECT_EQ(count(f, Op::Ret), 1u);
  ASSERT_EQ(count(f, Op::Bra), 2u);
  for (const Instr& I : f.instrs)
    if (I.op == Op::Bra) {
      const Instr& after = f.instrs[f.labels[I.operands[0].index].target];
      EXPECT_EQ(after.op, Op::Mov);
      EXPECT_EQ(after.operands[0].kind, Operand::Kind::Reg);
      EXPECT_EQ(f.regs[after.operands[0].index].name, "%f2");
    }
  // Every instruction has a position: the callee's keep their own line.
  ASSERT_EQ(pm.map.instr_pos[1].size(), f.instrs.size());
  EXPECT_EQ(pm.map.instr_pos[1][3].first, 9u);  // add_one's ld.param.f32 %f1, [add_one_param_0]
}

TEST(InlineCalls, NestedCallsAreInlinedAndRecursionIsNot) {
  ParsedModule nested = parse(kHeader + kAddOneFunc + doubling_func("twice", "add_one") + entry_calling("twice"));
  ASSERT_EQ(inline_calls(nested.module, nested.map), 1u);
  EXPECT_EQ(count(entry(nested), Op::Call), 0u);

  ParsedModule rec = parse(kHeader + doubling_func("forever", "forever") + entry_calling("forever"));
  EXPECT_EQ(inline_calls(rec.module, rec.map), 0u);
  EXPECT_EQ(count(entry(rec), Op::Call), 1u);
}

TEST(InlineCalls, ParamsThatAreNotWholeScalarsStayCalls) {
  // A struct passed by value (.b8 array) and a parameter read at an offset are not moves.
  const std::string by_bytes = R"(.func (.param .b32 func_retval0) low(.param .align 4 .b8 low_param_0[8])
{
  .reg .f32 %f<2>;
  ld.param.f32 %f1, [low_param_0+4];
  st.param.f32 [func_retval0+0], %f1;
  ret;
}
)";
  std::string call = entry_calling("low");
  call.replace(call.find(".param .b32 param0;"), 19, ".param .align 4 .b8 param0[8];");
  ParsedModule pm = parse(kHeader + by_bytes + call);
  EXPECT_EQ(inline_calls(pm.module, pm.map), 0u);
  EXPECT_EQ(count(entry(pm), Op::Call), 1u);

  // A 64-bit result whose upper half the caller reads at offset 4.
  const std::string wide = R"(.func (.param .b64 func_retval0) wide(.param .b32 wide_param_0)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.b32 %r1, [wide_param_0];
  cvt.u64.u32 %rd1, %r1;
  st.param.b64 [func_retval0+0], %rd1;
  ret;
}
)";
  std::string upper = entry_calling("wide");
  upper.replace(upper.find(".param .b32 retval0;"), 20, ".param .b64 retval0;");
  upper.replace(upper.find("ld.param.f32 %f2, [retval0+0];"), 30, "ld.param.f32 %f2, [retval0+4];");
  ParsedModule half = parse(kHeader + wide + upper);
  EXPECT_EQ(inline_calls(half.module, half.map), 0u);
  EXPECT_EQ(count(entry(half), Op::Call), 1u);
}

}  // namespace
}  // namespace racer::ptx
