// Plans read off hand-made probe runs: what a plan may step over.
#include <gtest/gtest.h>

#include <cmath>

#include "idiom/plan.hpp"
#include "exec/ieee.hpp"
#include "ptx/parser.hpp"
#include "support/error.hpp"

namespace racer::idiom {
namespace {

ptx::Module parse(const std::string& body) {
  std::string text =
      ".version 8.7\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k(.param .u64 p)\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .f32 %f<8>;\n" +
      body + "\tret;\n}\n";
  return ptx::parse_ptx(SourceText("t.ptx", text)).module;
}

uint32_t reg(const ptx::Function& fn, const std::string& name) {
  for (uint32_t r = 0; r < fn.regs.size(); ++r)
    if (fn.regs[r].name == name) return r;
  ADD_FAILURE() << "no register " << name;
  return 0;
}

// The recognition began at an integer step on a float's bits (pc 0) that the probed input
// does not reach, while a register computed from that input before (the rescaling factor
// exp2(m_old - m_new) of an online softmax) holds a family function where the probes meet
// the next instruction. Stepping over pc 0 would leave %r2 unset for pc 1, which reads it:
// no plan.
TEST(PlanFromRuns, TheFirstStepIsNotSteppedOverWhereItsWriteIsStillRead) {
  ptx::Module m = parse(
      "\tadd.s32 %r2, %r1, -1059760811;\n"
      "\tand.b32 %r3, %r2, -8388608;\n"
      "\tst.global.b32 [p], %r3;\n"
      "\tst.global.f32 [p+4], %f5;\n");
  const ptx::Function& fn = m.functions.at(0);
  ptx::Liveness live(fn);
  const uint32_t r2 = reg(fn, "%r2"), f5 = reg(fn, "%f5");
  std::vector<idiom::Run> runs;
  static const uint32_t writes[] = {r2};
  static const uint64_t value[] = {0x3f000000};
  for (long double t : probe_points()) {
    idiom::Run r;
    r.t = t;
    r.events.push_back(Event{.pc = 0, .writes = writes, .values = value, .absorbed = false});
    r.order = {0, 1};
    r.visits[0] = idiom::Run::Visit{0, {}};
    const double y = std::exp2(static_cast<double>(t));
    r.visits[1] = idiom::Run::Visit{1, {{f5, ieee::from_double(ieee::Format::F32, y)}}};
    r.stop = 1;
    runs.push_back(std::move(r));
  }
  PlanSearch search{fn, live, runs, 0, false, Tolerance::Loose, false};
  EXPECT_FALSE(plan_from_runs(search).has_value());
}

}  // namespace
}  // namespace racer::idiom
