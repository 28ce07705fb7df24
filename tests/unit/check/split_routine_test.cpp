// A compiled routine split across a loop (idiom/split_plan.hpp): nvcc hoists logf's
// polynomial out of the loop and repeats its special cases in each unrolled iteration
// (tests/cases/kernels/loops.cu, cu_minus_log_in_loop). The whole split routine is read as
// log; a routine one of whose copies is not log, or whose hoisted part is used without its
// special cases, is not where the inputs can reach the special cases (a zero sum). Where the
// input range keeps the sum positive, the special case's comparison is settled by the bounds,
// and what runs is log on every input: read as log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "check/check.hpp"
#include "check/replay.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

namespace fs = std::filesystem;

fs::path cases_dir() { return fs::path(RACER_SOURCE_DIR) / "tests" / "cases"; }

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class SplitRoutine : public ::testing::Test {
 protected:
  fs::path dir_ = fs::temp_directory_path() / ("racer_split_" + std::to_string(::getpid()) + "_" +
                                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { fs::create_directories(dir_); }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // cu_minus_log_in_loop with `from` replaced by `to` inside its body (each must occur there).
  fs::path edited(const std::vector<std::pair<std::string, std::string>>& edits) {
    std::string text = read_text(cases_dir() / "ptx" / "loops.sm90.ptx");
    size_t begin = text.find(".entry cu_minus_log_in_loop(");
    EXPECT_NE(begin, std::string::npos);
    for (const auto& [from, to] : edits) {
      size_t at = text.find(from, begin);
      EXPECT_LT(at, text.find("\n}", begin)) << "not in cu_minus_log_in_loop: " << from;
      if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    fs::path p = dir_ / "edited.ptx";
    std::ofstream(p) << text;
    return p;
  }

  // Program a runs `a_ptx`'s in-loop logf, program b logf before the loop; two rows of 10
  // (two unrolled iterations of four and two of the remainder loop), x and y in [lo, 4].
  instance::Instance instance_for(const fs::path& a_ptx, const std::string& lo = "0.5") {
    auto launch = [](const char* p, const fs::path& ptx, const char* entry) {
      return std::string("[[") + p + ".launch]]\nptx = \"" + ptx.string() + "\"\nentry = \"" + entry +
             "\"\ngrid = [1]\nblock = [2]\nargs = [{ read = \"x\" }, { read = \"y\" }, { write = \"out\" }, 10]\n";
    };
    std::ofstream(dir_ / "case.toml") << "name = \"split\"\nabout = \"split logf\"\noutputs = [\"out\"]\n\n[tensors]\n"
                                      << "x = { shape = [2, 10], dtype = \"f32\", init = \"input\", range = [" << lo << ", 4.0] }\n"
                                      << "y = { shape = [2, 10], dtype = \"f32\", init = \"input\", range = [" << lo << ", 4.0] }\n"
                                      << "out = { shape = [2, 10], dtype = \"f32\", init = \"empty\" }\n\n"
                                      << launch("a", a_ptx, "cu_minus_log_in_loop") << "\n"
                                      << launch("b", cases_dir() / "ptx" / "loops.sm90.ptx", "cu_minus_log_before_loop");
    return instance::load_instance((dir_ / "case.toml").string());
  }
};

TEST_F(SplitRoutine, WholeSplitRoutineIsLog) {
  CheckResult res = check_instance(instance_for(cases_dir() / "ptx" / "loops.sm90.ptx"));
  EXPECT_EQ(res.verdict, Verdict::Equivalent) << res.reason;
  bool recognized = false;
  for (const std::string& g : res.recognized) recognized |= g.rfind("a: cu_minus_log_in_loop: log(t)", 0) == 0;
  EXPECT_TRUE(recognized);
}

// The second unrolled copy returns 0 instead of -inf at a zero sum: with inputs in [0, 4] the
// sum can be 0, that copy is not log there, so the routine is not read and the refusal of the
// bit-level step stands. With inputs in [0.5, 4] no sum reaches 0: read as log.
TEST_F(SplitRoutine, OneCopyNotLogStaysRefused) {
  const fs::path ptx = edited({{"selp.f32 \t%f68, 0fFF800000", "selp.f32 \t%f68, 0f00000000"}});
  CheckResult res = check_instance(instance_for(ptx, "0.0"));
  EXPECT_EQ(res.verdict, Verdict::Refused) << res.reason;
  EXPECT_NE(res.reason.find("bit-level"), std::string::npos) << res.reason;
  EXPECT_EQ(check_instance(instance_for(ptx)).verdict, Verdict::Equivalent);
}

// A copy subtracts the hoisted polynomial itself, skipping the special cases: where a sum can
// be 0 the routine's intermediate value reaches a store, so no part of it is read as log; where
// none can, that value is log on every input the kernel gets.
TEST_F(SplitRoutine, HoistedPartUsedAloneStaysRefused) {
  const fs::path ptx = edited({{"sub.f32 \t%f69, %f13, %f68", "sub.f32 \t%f69, %f13, %f9"}});
  EXPECT_EQ(check_instance(instance_for(ptx, "0.0")).verdict, Verdict::Refused);
  EXPECT_EQ(check_instance(instance_for(ptx)).verdict, Verdict::Equivalent) << "no special case is reachable";
}

// A hoisted coefficient scaled by 1.25 moves every copy's value away from log: never
// equivalent, and a refutation's witness separates the programs when run.
TEST_F(SplitRoutine, ChangedHoistedCoefficientIsNotLog) {
  instance::Instance inst = instance_for(edited({{"0f3EAAAA78", "0f3ED55516"}}));
  CheckResult res = check_instance(inst);
  EXPECT_NE(res.verdict, Verdict::Equivalent) << res.reason;
  if (res.verdict == Verdict::Inequivalent) {
    ASSERT_TRUE(res.counterexample.has_value());
    ReplayResult rr = replay(inst, res.counterexample->cell, res.counterexample->values);
    EXPECT_GT(rr.differing_count, 0u);
  }
}

}  // namespace
}  // namespace racer::check
