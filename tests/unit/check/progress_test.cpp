// What a check tells its progress observer: each phase as it begins, in order, the counts that
// go with it, and that it has finished (the terminal line of `racer check` is drawn from these).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "check/check.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

struct Recorder : ProgressObserver {
  std::vector<Progress> seen;
  int finished_calls = 0;
  void update(const Progress& p) override { seen.push_back(p); }
  void finished() override { ++finished_calls; }
};

std::string phases(const std::vector<Progress>& seen) {
  std::string s;
  for (const Progress& p : seen) {
    std::string name(phase_name(p.phase));
    if (p.phase == Phase::Executing) name += std::string(" ") + p.program;
    if (s.empty() || s.substr(s.rfind('|') + 1) != name) s += (s.empty() ? "" : "|") + name;
  }
  return s;
}

TEST(Progress, AnInequivalentCheckGoesThroughEveryPhaseInOrder) {
  instance::Instance inst = instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/cases/t_mem_07_overread_last.toml");
  Recorder rec;
  CheckOptions options;
  options.progress = &rec;
  CheckResult r = check_instance(inst, options);
  ASSERT_EQ(r.verdict, Verdict::Inequivalent) << r.reason;
  EXPECT_EQ(phases(rec.seen), "executing a|executing b|self-check|deciding|replaying");
  EXPECT_EQ(rec.finished_calls, 1);
  uint64_t cells = 0;
  for (const OutputStats& o : r.outputs) cells += o.cells;
  const Progress* deciding = nullptr;
  for (const Progress& p : rec.seen)
    if (p.phase == Phase::Deciding) deciding = &p;
  ASSERT_NE(deciding, nullptr);
  EXPECT_EQ(deciding->cells_total, cells);
  EXPECT_GT(rec.seen.back().thread_instructions, 0u);
  EXPECT_EQ(rec.seen.back().thread_instructions, r.thread_instructions);
}

}  // namespace
}  // namespace racer::check
