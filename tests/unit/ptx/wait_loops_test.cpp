// An mbarrier wait is run as the schedule that delays the thread until the phase completes;
// that is faithful only for code that retries a failed wait and does nothing else with it.
#include <gtest/gtest.h>

#include "ptx/parser.hpp"
#include "ptx/wait_loops.hpp"

namespace racer::ptx {
namespace {

struct Parsed {
  Module module;
  uint32_t wait = 0;
};

Parsed parse(const std::string& body) {
  std::string text =
      ".version 8.7\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k(.param .u64 p)\n{\n"
      "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<4>;\n"
      "\t.shared .align 8 .b64 bar;\n\tmov.u32 %r1, bar;\n\tmov.u32 %r2, 0;\n" +
      body + "\tret;\n}\n";
  Parsed out{parse_ptx(SourceText("t.ptx", text)).module};
  const Function& f = out.module.functions.at(0);
  for (uint32_t i = 0; i < f.instrs.size(); ++i) {
    if (f.instrs[i].op == Op::MbarrierTryWait || f.instrs[i].op == Op::MbarrierTestWait) out.wait = i;
  }
  return out;
}

std::optional<std::string> check(const std::string& body) {
  Parsed p = parse(body);
  return wait_outcome_observed(p.module.functions.at(0), p.wait);
}

TEST(WaitLoops, RetryingOnTheNegatedOutcomeIsFaithful) {
  EXPECT_EQ(check("LOOP:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n\t@!%p1 bra LOOP;\n"),
            std::nullopt);
}

TEST(WaitLoops, BranchingOutOnCompletionAndBackOtherwiseIsFaithful) {
  EXPECT_EQ(check("LOOP:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n\t@%p1 bra DONE;\n"
                  "\tbra.uni LOOP;\nDONE:\n"),
            std::nullopt);
}

TEST(WaitLoops, TheOutcomeThroughSelpAndSetpIsFollowed) {
  // What nvcc makes of a C++ loop around an inline-asm try_wait returning a bool.
  EXPECT_EQ(check("LOOP:\n\tmov.u32 %r3, 0;\n"
                  "\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r3;\n\tselp.u32 %r4, 1, 0, %p1;\n"
                  "\tsetp.eq.s32 %p2, %r4, 0;\n\t@%p2 bra LOOP;\n"),
            std::nullopt);
}

TEST(WaitLoops, AnOutcomeNegatedInPlaceIsFollowed) {
  EXPECT_EQ(check("LOOP:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n\tnot.pred %p1, %p1;\n"
                  "\t@%p1 bra LOOP;\n"),
            std::nullopt);
  // The same in place, but the negation is undone by branching the other way: the thread would
  // leave the loop before the phase completes, which the engine does not model.
  std::optional<std::string> why = check("LOOP:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n"
                                         "\tnot.pred %p1, %p1;\n\t@!%p1 bra LOOP;\n");
  EXPECT_TRUE(why.has_value());
}

TEST(WaitLoops, CountingTheRetriesIsObserved) {
  std::optional<std::string> why =
      check("\tmov.u32 %r5, 0;\nLOOP:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n"
            "\t@%p1 bra DONE;\n\tadd.s32 %r5, %r5, 1;\n\tbra.uni LOOP;\nDONE:\n\tst.global.u32 [%rd1], %r5;\n");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("retry loop changes"), std::string::npos) << *why;
}

TEST(WaitLoops, DoingOtherWorkWhenNotYetCompleteIsObserved) {
  std::optional<std::string> why =
      check("LOOP:\n\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n\t@%p1 bra DONE;\n"
            "\tst.global.u32 [%rd1], %r2;\n\tbra.uni LOOP;\nDONE:\n");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("goes on to st"), std::string::npos) << *why;
}

TEST(WaitLoops, StoringTheOutcomeIsObserved) {
  std::optional<std::string> why = check(
      "\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n\tselp.u32 %r4, 1, 0, %p1;\n"
      "\tst.global.u32 [%rd1], %r4;\n");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("goes on to st"), std::string::npos) << *why;
}

TEST(WaitLoops, AnUntestedOutcomeIsObserved) {
  EXPECT_TRUE(check("\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n").has_value());
  // A branch on the outcome that goes the same way either way retries nothing.
  EXPECT_TRUE(check("LOOP:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;\n"
                    "\tselp.u32 %r4, 1, 1, %p1;\n\tsetp.eq.s32 %p2, %r4, 0;\n\t@%p2 bra LOOP;\n")
                  .has_value());
}

}  // namespace
}  // namespace racer::ptx
