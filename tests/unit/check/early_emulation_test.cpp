// The runs made beside the symbolic run are the ones likely taken: an f32 check whose
// expressions are analytic gets its first point and the hazard search's, never a narrowed point
// or a second one (each would cost the symbolic run speed for nothing).
#include <gtest/gtest.h>

#include "check/early_emulation.hpp"
#include "check/execution.hpp"
#include "check/hazard_points.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

TEST(EarlyEmulation, MakesOnlyTheLikelyRunsOfAnAnalyticF32Check) {
  instance::Instance inst = instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/cases/t_scal_01_axpy_symbolic_alpha.toml");
  Execution ex(inst, exec::Limits{});
  EarlyEmulation early(ex.prep(), ex.session(), 3, 2, hazard_sampler_seed(3), false);
  EXPECT_TRUE(early.take(0, false).has_value());
  EXPECT_FALSE(early.take(0, true).has_value()) << "a narrowed point for programs in f32";
  EXPECT_TRUE(early.take_hazard().has_value());
  EXPECT_FALSE(early.take(1, false).has_value()) << "a second point where no expression is piecewise";
  EXPECT_FALSE(early.take(1, true).has_value());
}

TEST(EarlyEmulation, MakesNarrowedRunsForNarrowFormats) {
  instance::Instance inst = instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/cases/t_scal_01_axpy_symbolic_alpha.toml");
  Execution ex(inst, exec::Limits{});
  EarlyEmulation early(ex.prep(), ex.session(), 3, 2, std::nullopt, true);
  EXPECT_TRUE(early.take(0, false).has_value());
  EXPECT_TRUE(early.take(0, true).has_value());
  EXPECT_FALSE(early.take_hazard().has_value()) << "no hazard search asked for";
}

}  // namespace
}  // namespace racer::check
