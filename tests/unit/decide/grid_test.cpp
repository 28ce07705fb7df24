// Grid membership, rounding and neighbours per format: witness values must load exactly.
#include <gtest/gtest.h>

#include "decide/grid.hpp"

namespace racer::decide::test {
namespace {

mpq_class Q(const char* s) { return mpq_class(s); }

TEST(Grid, MembershipPerFormat) {
  EXPECT_TRUE(on_grid(Q("65504"), Grid::F16));
  EXPECT_FALSE(on_grid(Q("65505"), Grid::F16));
  EXPECT_FALSE(on_grid(Q("65536"), Grid::F16)) << "beyond the largest finite f16";
  EXPECT_TRUE(on_grid(Q("1/16777216"), Grid::F16)) << "2^-24, the smallest subnormal";
  EXPECT_FALSE(on_grid(Q("1/33554432"), Grid::F16));
  EXPECT_TRUE(on_grid(Q("2049/2048"), Grid::F32));
  EXPECT_FALSE(on_grid(Q("2049/2048"), Grid::F16)) << "12 significant bits";
  EXPECT_TRUE(on_grid(Q("1025/1024"), Grid::F16));
  EXPECT_FALSE(on_grid(Q("1/3"), Grid::F64));
  EXPECT_TRUE(on_grid(Q("13421773/134217728"), Grid::F32)) << "the f32 nearest 0.1";
  EXPECT_FALSE(on_grid(Q("13421773/134217728"), Grid::BF16));
  EXPECT_TRUE(on_grid(Q("448"), Grid::E4M3));
  EXPECT_FALSE(on_grid(Q("480"), Grid::E4M3)) << "E4M3 spends 1.875*2^8 on NaN";
  EXPECT_TRUE(on_grid(Q("57344"), Grid::E5M2));
  EXPECT_TRUE(on_grid(Q("1/512"), Grid::E4M3));
  EXPECT_FALSE(on_grid(Q("1/1024"), Grid::E4M3));
  EXPECT_TRUE(on_grid(Q("-7"), Grid::Integer));
  EXPECT_FALSE(on_grid(Q("1/2"), Grid::Integer));
  EXPECT_TRUE(on_grid(Q("1/3"), Grid::Real));
}

TEST(Grid, RoundsInEachDirection) {
  EXPECT_EQ(round_to_grid(Q("1/3"), Grid::F16, Rounding::Down), Q("1365/4096"));
  EXPECT_EQ(round_to_grid(Q("1/3"), Grid::F16, Rounding::Up), Q("683/2048"));
  EXPECT_EQ(round_to_grid(Q("-1/3"), Grid::F16, Rounding::Down), Q("-683/2048"));
  EXPECT_EQ(round_to_grid(Q("70000"), Grid::F16, Rounding::Down), Q("65504"));
  EXPECT_EQ(round_to_grid(Q("70000"), Grid::F16, Rounding::Up), std::nullopt);
  EXPECT_EQ(round_to_grid(Q("5/2"), Grid::Integer, Rounding::Nearest), Q("3"));
  EXPECT_EQ(round_to_grid(Q("-5/2"), Grid::Integer, Rounding::Nearest), Q("-3"));
  for (const char* v : {"1/3", "-7/5", "1000001/7", "1/1000000"}) {
    for (Grid g : {Grid::F32, Grid::F16, Grid::BF16, Grid::E4M3}) {
      auto d = round_to_grid(Q(v), g, Rounding::Down), u = round_to_grid(Q(v), g, Rounding::Up);
      ASSERT_TRUE(d);
      if (!u) {
        EXPECT_GT(Q(v), Q("448")) << "only beyond E4M3's largest value is there nothing above";
        continue;
      }
      EXPECT_TRUE(on_grid(*d, g) && on_grid(*u, g)) << v;
      EXPECT_TRUE(*d <= Q(v) && Q(v) <= *u) << v;
      EXPECT_EQ(next_up(*d, g), *u) << v << " in " << grid_name(g);
    }
  }
}

TEST(Grid, NeighboursStepAcrossBinades) {
  EXPECT_EQ(next_up(Q("1"), Grid::F16), Q("1025/1024"));
  EXPECT_EQ(next_down(Q("1"), Grid::F16), Q("2047/2048")) << "spacing halves below a power of two";
  EXPECT_EQ(next_down(Q("0"), Grid::F16), Q("-1/16777216"));
  EXPECT_EQ(next_up(Q("-1"), Grid::F16), Q("-2047/2048"));
  EXPECT_EQ(next_up(Q("65504"), Grid::F16), std::nullopt);
  EXPECT_EQ(next_up(Q("3"), Grid::Integer), Q("4"));
  EXPECT_EQ(next_up(Q("1/3"), Grid::F32), round_to_grid(Q("1/3"), Grid::F32, Rounding::Up));
  // Walking up from the smallest subnormal through the first normal binade stays on grid.
  mpq_class v(0);
  for (int i = 0; i < 3000; ++i) {
    std::optional<mpq_class> n = next_up(v, Grid::E5M2);
    if (!n) break;
    ASSERT_TRUE(on_grid(*n, Grid::E5M2)) << *n;
    ASSERT_GT(*n, v);
    ASSERT_EQ(next_down(*n, Grid::E5M2), v);
    v = *n;
  }
  EXPECT_EQ(v, Q("57344")) << "the walk ends at the largest finite value";
}

TEST(Grid, SnapRespectsRangeAndGrid) {
  SymbolDomain d{Q("1"), Q("2"), Grid::F16};
  EXPECT_EQ(snap(Q("5"), d), Q("2"));
  EXPECT_EQ(snap(Q("1/3"), d), Q("1"));
  EXPECT_EQ(snap(Q("4/3"), d), Q("1365/1024"));
  SymbolDomain empty{Q("1/3"), Q("1/3"), Grid::F16};
  EXPECT_EQ(snap(Q("1/3"), empty), std::nullopt) << "a point range off the grid holds nothing";
}

}  // namespace
}  // namespace racer::decide::test
