// .func calls through the .param space run inlined (ptx/inline_calls.hpp): a callee with an
// early return is proved against a select and refuted against the wrong one; a call that
// cannot be inlined exactly (recursion) is refused where the thread reaches its call sequence.
#include "../ptx/call_kernels.hpp"
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

using ptx::testing::call_sequence;
using ptx::testing::doubling_func;
using ptx::testing::kAddOneFunc;

Spec spec(std::string_view a, std::string_view b) {
  const std::string args = R"({ read = "x" }, { write = "out" })";
  return {.tensors = tensor("x", "[32]", "f32", "input", "range = [-4, 4]") + tensor("out", "[32]", "f32", "empty"),
          .a = {{std::string(a), args}},
          .b = {{std::string(b), args}}};
}

// out = x < 0 ? x : x + c.
std::string reference(std::string_view name, std::string_view c) {
  return unary_kernel(name, std::string(R"(
  setp.lt.f32 %p1, %f1, 0f00000000;
  add.f32 %f3, %f1, )") + std::string(c) + R"(;
  selp.f32 %f2, %f1, %f3, %p1;)");
}

TEST_F(MachineTest, AFuncCallThroughTheParamSpaceRunsInlined) {
  const std::string caller = unary_kernel("calls", call_sequence("add_one", 1, 2));
  auto r = run(kAddOneFunc + caller + reference("ref", "0f3F800000"), spec("calls", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  auto wrong = run(kAddOneFunc + caller + reference("ref", "0f40000000"), spec("calls", "ref"));
  EXPECT_EQ(wrong.verdict, Verdict::Inequivalent) << show(wrong);
}

TEST_F(MachineTest, ARecursiveCallIsRefused) {
  auto r = run(doubling_func("add_one", "add_one") + unary_kernel("calls", call_sequence("add_one", 1, 2)) + reference("ref", "0f3F800000"), spec("calls", "ref"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  // The call sequence's first st.param is where the thread stops (the call itself is never run).
  EXPECT_NE(r.reason.find("st.param.f32 [param0]"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
