// Points (check/points.hpp) keep one value per symbol and derive the emulator's inputs from
// them: those inputs must be exactly what the witness-value list of the same point gives
// run_concrete (the route replay and reports take), for float, integer and unknown-memory
// symbols, at every style the sampler draws.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <optional>

#include "check/concrete_run.hpp"
#include "check/execution.hpp"
#include "check/points.hpp"
#include "instance/load.hpp"
#include "support/error.hpp"

namespace racer::check {
namespace {

void expect_same_inputs(const ConcreteInputs& derived, const ConcreteInputs& listed, const std::string& where) {
  ASSERT_EQ(derived.cells.size(), listed.cells.size()) << where;
  for (size_t t = 0; t < derived.cells.size(); ++t) EXPECT_EQ(derived.cells[t], listed.cells[t]) << where << ", tensor " << t;
  EXPECT_EQ(derived.unknowns, listed.unknowns) << where;
}

TEST(Points, EmulatorInputsAreTheWitnessValuesOfThePoint) {
  const std::string root = std::string(RACER_SOURCE_DIR) + "/tests/";
  for (std::string file : {"hazards/h03_variance_one_pass_vs_two_pass", "cases/t_intd_06_int_clamp_minmax",
                           "cases/t_mem_08_accumulate_uninit", "cases/t_mem_05_smem_half_loaded"}) {
    instance::Instance inst = instance::load_instance(root + file + ".toml");
    Execution ex(inst, exec::Limits{});
    bool refused = false;
    ex.run(refused);
    ex.output_cells();  // (cells no program wrote become symbols too)
    PointSampler sampler(ex, 11);
    std::vector<Point> points;
    for (PointStyle s : {PointStyle::Spread, PointStyle::Ends, PointStyle::Small, PointStyle::NearlyEqual, PointStyle::Largest,
                         PointStyle::NearlyEqualLargest})
      points.push_back(sampler.draw(s));
    points.push_back(sampler.uniform(0.3));
    points.push_back(sampler.crossed(0.7));
    points.push_back(sampler.around(points[0].values()));
    size_t unknowns = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      const Point& p = points[i];
      std::vector<WitnessValue> values = p.values();
      EXPECT_EQ(values.size(), ex.session().symbols().size()) << file;
      EXPECT_EQ(p.at.size(), values.size()) << file;
      for (const WitnessValue& w : values) unknowns += w.kind != "input";
      expect_same_inputs(p.concrete(), concrete_inputs(ex.prep(), values), file + ", point " + std::to_string(i));
    }
    if (file.find("uninit") != std::string::npos) {
      EXPECT_GT(unknowns, 0u) << "the case should read unknown memory";
    }
  }
}

// The self-check's first emulation runs before the symbolic run, at keyed_inputs; the point it
// is compared at is drawn afterwards by draw_keyed. The two must be one point: every input cell
// and every unknown the run made gets the same bits (the cells the run never read may differ:
// no program reads them), whatever else was drawn from the sampler before.
TEST(Points, TheKeyedPointIsTheInputsGivenBeforeTheRun) {
  const std::string root = std::string(RACER_SOURCE_DIR) + "/tests/";
  for (std::string file : {"hazards/h03_variance_one_pass_vs_two_pass", "cases/t_intd_06_int_clamp_minmax",
                           "cases/t_mem_08_accumulate_uninit", "cases/t_mem_05_smem_half_loaded", "cases/t_scal_01_axpy_symbolic_alpha"}) {
    instance::Instance inst = instance::load_instance(root + file + ".toml");
    Execution ex(inst, exec::Limits{});
    bool refused = false;
    ex.run(refused);
    ex.output_cells();
    // (seed, narrowing; NaN: the Largest point)
    for (auto [seed, narrowing] : {std::pair{1u, 1.0}, {7u, 1.0}, {7u, 0.125}, {7u, std::nan("")}, {3u, std::nan("")}}) {
      const bool largest = std::isnan(narrowing);
      ConcreteInputs before = largest ? keyed_largest_inputs(ex.prep(), seed) : keyed_inputs(ex.prep(), seed, nullptr, narrowing);
      PointSampler sampler(ex, seed);
      sampler.draw(PointStyle::Ends);  // (an earlier draw moves the sampler's generator, not the keyed values)
      ConcreteInputs after = (largest ? sampler.draw_keyed_largest() : sampler.draw_keyed(narrowing)).concrete();
      size_t cells = 0;
      ASSERT_EQ(after.cells.size(), before.cells.size()) << file;
      for (size_t t = 0; t < after.cells.size(); ++t)
        for (size_t c = 0; c < after.cells[t].size(); ++c) {
          ASSERT_LT(c, before.cells[t].size()) << file;
          if (after.cells[t][c] == 0 && before.cells[t][c] != 0) continue;  // (a cell the run never read)
          EXPECT_EQ(after.cells[t][c], before.cells[t][c]) << file << ", tensor " << t << ", cell " << c << (largest ? " (largest)" : "");
          ++cells;
        }
      EXPECT_GT(cells, 0u) << file;
      for (const auto& [name, value] : after.unknowns) EXPECT_EQ(value, before.unknown_value(name)) << file << ": " << name;
      if (file.find("uninit") != std::string::npos) {
        EXPECT_FALSE(after.unknowns.empty()) << file;
      }
    }
  }
}

// The keyed Largest point is still the Largest point: float cells at their range's end of
// largest magnitude, integer cells drawn within their range.
TEST(Points, TheKeyedLargestPointPutsFloatCellsAtTheirLargestEnd) {
  size_t floats = 0, integers = 0;
  for (std::string file : {"hazards/h03_variance_one_pass_vs_two_pass", "cases/t_intd_06_int_clamp_minmax"}) {
    instance::Instance inst = instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/" + file + ".toml");
    Execution ex(inst, exec::Limits{});
    bool refused = false;
    ex.run(refused);
    ex.output_cells();
    PointSampler sampler(ex, 5);
    std::set<double> drawn;  // (integer cells)
    for (const WitnessValue& w : sampler.draw_keyed_largest().values()) {
      if (w.tensor < 0) continue;
      const exec::TensorSpec& t = ex.prep().tensors()[static_cast<size_t>(w.tensor)];
      const bool is_float = ptx::is_float(t.elem);
      double lo = t.range ? t.range->lo.get_d() : is_float ? -2 : -4, hi = t.range ? t.range->hi.get_d() : is_float ? 2 : 4;
      double v = w.value.get_d();
      if (is_float) {
        EXPECT_EQ(v, std::fabs(lo) > std::fabs(hi) ? lo : hi) << file << ": " << w.name;
        ++floats;
      } else {
        EXPECT_TRUE(v >= lo && v <= hi && v == std::floor(v)) << file << ": " << w.name << " = " << v;
        drawn.insert(v);
        ++integers;
      }
    }
    if (!drawn.empty()) {
      EXPECT_GT(drawn.size(), 1u) << file << ": integer cells are drawn, not all at one end";
    }
  }
  EXPECT_GT(floats, 0u);
  EXPECT_GT(integers, 0u);
}

TEST(Points, CellBitsFromADoubleAreTheRationalsBits) {
  for (ptx::Type t : {ptx::Type::F16, ptx::Type::BF16, ptx::Type::F32, ptx::Type::F64, ptx::Type::E4M3, ptx::Type::E5M2,
                      ptx::Type::S32, ptx::Type::U8, ptx::Type::S64})
    for (double v : {0.0, -0.0, 1.0, -1.0, 0.5, -2.75, 3.0, 0.1, 1e-3, 65504.0, 448.0, 1e30, -7.0, 255.0, 1e-45})
      if (ptx::is_float(t) || (v == std::floor(v) && std::fabs(v) < 0x1p63)) {  // (an integer cell holds 64 bits at most)
        std::optional<uint64_t> from_rational;
        try {
          from_rational = cell_bits(t, mpq_class(v));
        } catch (const Error&) {
          EXPECT_THROW(cell_bits(t, v), Error) << ptx::type_name(t) << " " << v;
          continue;
        }
        EXPECT_EQ(cell_bits(t, v), *from_rational) << ptx::type_name(t) << " " << v;
      }
}

}  // namespace
}  // namespace racer::check
