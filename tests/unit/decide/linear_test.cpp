// Exact Fourier-Motzkin (linear.hpp): feasibility with strict and non-strict rows,
// implied equalities, and points built by back-substitution.
#include <gtest/gtest.h>

#include "decide/linear.hpp"

namespace racer::decide {
namespace {

// sum(k_i * v_i) + c  rel  0
LinConstraint row(std::initializer_list<std::pair<uint32_t, long>> terms, long c, Rel rel) {
  LinConstraint k;
  for (auto [v, a] : terms) k.e.coef.emplace(v, mpq_class(a));
  k.e.c = c;
  k.rel = rel;
  return k;
}

std::optional<mpq_class> midpoint_or_end(uint32_t, const Bound& lo, const Bound& hi) {
  if (lo.v && hi.v) return mpq_class((*lo.v + *hi.v) / 2);
  if (lo.v) return mpq_class(*lo.v + 1);
  if (hi.v) return mpq_class(*hi.v - 1);
  return mpq_class(0);
}

TEST(Linear, StrictnessDecidesFeasibility) {
  // x >= 0 and -x >= 0: x = 0, feasible; x > 0 and -x >= 0: infeasible.
  EXPECT_EQ(check_feasible({row({{1, 1}}, 0, Rel::Ge), row({{1, -1}}, 0, Rel::Ge)}, 100), Feasibility::Feasible);
  EXPECT_EQ(check_feasible({row({{1, 1}}, 0, Rel::Gt), row({{1, -1}}, 0, Rel::Ge)}, 100), Feasibility::Infeasible);
  // A cycle x < y < z < x through three variables.
  EXPECT_EQ(check_feasible({row({{2, 1}, {1, -1}}, 0, Rel::Gt), row({{3, 1}, {2, -1}}, 0, Rel::Gt),
                            row({{1, 1}, {3, -1}}, 0, Rel::Gt)},
                           100),
            Feasibility::Infeasible);
  // Equalities: x = y + 1, y = 2, x < 3 is infeasible; x <= 3 is not.
  EXPECT_EQ(check_feasible({row({{1, 1}, {2, -1}}, -1, Rel::Eq), row({{2, 1}}, -2, Rel::Eq), row({{1, -1}}, 3, Rel::Gt)}, 100),
            Feasibility::Infeasible);
  EXPECT_EQ(check_feasible({row({{1, 1}, {2, -1}}, -1, Rel::Eq), row({{2, 1}}, -2, Rel::Eq), row({{1, -1}}, 3, Rel::Ge)}, 100),
            Feasibility::Feasible);
}

TEST(Linear, DisequalitiesAreExact) {
  // x >= 0, x <= 0, x != 0: empty. x >= 0, x <= 1, x != 0, x != 1: not empty.
  EXPECT_EQ(check_feasible({row({{1, 1}}, 0, Rel::Ge), row({{1, -1}}, 0, Rel::Ge), row({{1, 1}}, 0, Rel::Ne)}, 100),
            Feasibility::Infeasible);
  EXPECT_EQ(check_feasible({row({{1, 1}}, 0, Rel::Ge), row({{1, -1}}, 1, Rel::Ge), row({{1, 1}}, 0, Rel::Ne),
                            row({{1, 1}}, -1, Rel::Ne)},
                           100),
            Feasibility::Feasible);
  // x = z, y + 1 = x, y + 1 != z: empty (the tie piece of max written two ways).
  EXPECT_EQ(check_feasible({row({{1, 1}, {3, -1}}, 0, Rel::Eq), row({{2, 1}, {1, -1}}, 1, Rel::Eq),
                            row({{2, 1}, {3, -1}}, 1, Rel::Ne)},
                           100),
            Feasibility::Infeasible);
}

TEST(Linear, FindsImpliedEqualities) {
  // x <= 1, y >= 1, x >= y: x = y = 1.
  std::vector<LinConstraint> cs{row({{1, -1}}, 1, Rel::Ge), row({{2, 1}}, -1, Rel::Ge), row({{1, 1}, {2, -1}}, 0, Rel::Ge)};
  std::vector<LinForm> eqs = implied_equalities(cs, 100);
  EXPECT_EQ(eqs.size(), 3u);
  auto solved = solve_equalities(eqs);
  ASSERT_EQ(solved.size(), 2u);
  for (const auto& [v, f] : solved) {
    EXPECT_TRUE(f.coef.empty());
    EXPECT_EQ(f.c, 1) << v;
  }
}

TEST(Linear, PointsSatisfyEveryRow) {
  // 0 < x < y, y <= 4, z = x + y, w unconstrained after cancelling.
  std::vector<LinConstraint> cs{row({{1, 1}}, 0, Rel::Gt), row({{2, 1}, {1, -1}}, 0, Rel::Gt),
                                row({{2, -1}}, 4, Rel::Ge), row({{3, 1}, {1, -1}, {2, -1}}, 0, Rel::Eq),
                                row({{4, 1}, {4, -1}}, 0, Rel::Ge)};
  auto p = find_point(cs, midpoint_or_end, 100);
  ASSERT_TRUE(p);
  for (const LinConstraint& k : cs) {
    mpq_class v = evaluate(k.e, *p);
    switch (k.rel) {
      case Rel::Gt: EXPECT_GT(v, 0); break;
      case Rel::Ge: EXPECT_GE(v, 0); break;
      case Rel::Eq: EXPECT_EQ(v, 0); break;
      case Rel::Ne: EXPECT_NE(v, 0); break;
    }
  }
  // A variable that leaves every row along with another still gets a value.
  auto q = find_point({row({{1, 1}, {2, -1}}, 0, Rel::Ge)}, midpoint_or_end, 100);
  ASSERT_TRUE(q);
  EXPECT_GE(q->at(1), q->at(2));
  // Too many rows: Unknown, not a guess.
  std::vector<LinConstraint> many;
  for (uint32_t v = 0; v < 12; ++v) {
    for (uint32_t u = 0; u < 12; ++u) {
      if (u != v) many.push_back(row({{v, 1}, {u, -2}}, long(v + u), Rel::Ge));
    }
  }
  EXPECT_EQ(check_feasible(many, 50), Feasibility::Unknown);
}

}  // namespace
}  // namespace racer::decide
