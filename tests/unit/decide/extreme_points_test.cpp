// Differences that random points miss and the ends of the ranges show: a max over many cells
// that dropped one (at random points the dropped cell is rarely the largest), and a sign that
// shows only where every product of a row is negative. The witnesses are admissible points.
#include "decide/extreme_points.hpp"
#include "decide/grid.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class ExtremePointsTest : public DecideTest {
 protected:
  std::vector<ExprId> row(const std::string& name, size_t n, long lo_num, long lo_den, long hi) {
    std::vector<ExprId> vs;
    for (size_t j = 0; j < n; ++j) {
      vs.push_back(sym(name + std::to_string(j)));
      domains[vs.back()] = {mpq_class(lo_num, lo_den), mpq_class(hi), Grid::F32};
    }
    return vs;
  }
};

TEST_F(ExtremePointsTest, AMaxThatDroppedACellIsRefuted) {
  std::vector<ExprId> vs = row("v", 48, -4, 1, 4), all, dropped;
  for (ExprId v : vs) all.push_back(s.mul(q(3, 4), s.erf(v)));
  dropped.assign(all.begin() + 1, all.end());
  CellDecision r = decide(s.max(all), s.max(dropped));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.step.rfind("at the ends of the ranges", 0), 0u) << r.step;
  EXPECT_GT(witness(r, vs[0]), witness(r, vs[1]));
  // The same max written the other way round is never refuted.
  std::vector<ExprId> reversed(all.rbegin(), all.rend());
  EXPECT_NE(decide(s.max(all), s.max(reversed)).status, CellStatus::Refuted);
}

TEST_F(ExtremePointsTest, AMaxOfMagnitudesThatDroppedItsLastCellIsRefuted) {
  // max |v_j| over 300 cells against the first 299: at every corner all |v_j| tie, and a random
  // point makes the last one the largest once in 300. The cell only one side reads, at an end
  // with the others at 0, shows it; in a cell this large only such points are tried.
  std::vector<ExprId> vs = row("m", 300, -8, 1, 8), all, dropped;
  for (ExprId v : vs) all.push_back(s.abs(v));
  dropped.assign(all.begin(), all.end() - 1);
  CellDecision r = decide(s.max(all), s.max(dropped));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.step.rfind("at the ends of the ranges", 0), 0u) << r.step;
  EXPECT_EQ(mpq_class(abs(witness(r, vs.back()))), mpq_class(8));
}

TEST_F(ExtremePointsTest, ASignShownOnlyWhereEveryProductIsNegativeIsRefuted) {
  // s = max_j a_j c_j with a_j in [1/2, 4], c_j in [-4, 4]: s + s^2 against |s| + s^2 differ
  // only where every c_j is negative.
  std::vector<ExprId> as = row("a", 24, 1, 2, 4), cs = row("c", 24, -4, 1, 4), prods;
  for (size_t j = 0; j < as.size(); ++j) prods.push_back(s.mul(as[j], cs[j]));
  ExprId m = s.max(prods);
  CellDecision r = decide(s.add(s.mul(m, m), m), s.add(s.mul(m, m), s.func(expr::FuncKind::Abs, m)));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  for (ExprId c : cs) EXPECT_LT(witness(r, c), 0);
}

TEST_F(ExtremePointsTest, EveryPointIsAdmissible) {
  std::vector<ExprId> syms = row("p", 6, 1, 10, 3);  // 1/10 is not an f32: snapped up
  ExprId free_symbol = sym("free");
  syms.push_back(free_symbol);
  std::vector<SymbolDomain> doms;
  for (ExprId v : syms) doms.push_back(domain_of(v));
  PointSource src(syms, doms, 1);
  std::vector<Point> pts = extreme_points(src, 100);
  EXPECT_EQ(pts.size(), 4u + 2 * syms.size());  // two domains' corners, each symbol flipped twice
  for (const Point& p : pts)
    for (size_t k = 0; k < p.size(); ++k) EXPECT_TRUE(admissible(p[k], src.domain(k))) << p[k];
  EXPECT_EQ(extreme_points(src, 5).size(), 5u);
  // A symbol listed first also rests the others at 0 (or the end nearest 0) while it takes
  // either end: two points more.
  std::vector<Point> first = extreme_points(src, 100, {0});
  EXPECT_EQ(first.size(), 6u + 2 * syms.size());
  for (const Point& p : first)
    for (size_t k = 0; k < p.size(); ++k) EXPECT_TRUE(admissible(p[k], src.domain(k))) << p[k];
}

}  // namespace
}  // namespace racer::decide::test
