// A sum accumulated one term at a time (a dot product in a register) takes the Store's
// one-term path; it must give exactly the node the general path builds from all terms at
// once, including merged, cancelled and scaled terms.
#include <random>

#include "fixture.hpp"

namespace racer::expr::test {
namespace {

TEST_F(ExprTest, TermByTermSumsAreTheSumsBuiltAtOnce) {
  std::vector<ExprId> pool{x, y, z, s.exp(x), s.mul(x, y), s.mul(c(3), s.mul(x, y)), s.mul(c(-2), z),
                           s.mul(q(1, 8), s.mul(y, z)), s.neg(x), s.sin(y), s.mul(c(-3), s.mul(x, y))};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    size_t n = 2 + rng() % 12;
    std::vector<ExprId> terms;
    ExprId acc = s.zero();
    for (size_t i = 0; i < n; ++i) {
      ExprId t = pool[rng() % pool.size()];
      terms.push_back(t);
      acc = (rng() % 2) ? s.add(acc, t) : s.add(t, acc);
    }
    if (rng() % 3 == 0) {
      terms.push_back(c(5));
      acc = s.add(acc, c(5));
    }
    EXPECT_EQ(acc, s.add(terms)) << str(acc) << " vs " << str(s.add(terms));
  }
  expect_all_canonical();
}

TEST_F(ExprTest, TermByTermCancellationLeavesTheRemainingTerms) {
  ExprId sum = s.add(s.add(x, y), z);
  EXPECT_EQ(s.add(sum, s.neg(z)), s.add(x, y));
  EXPECT_EQ(s.add(s.add(x, y), s.neg(y)), x);
  EXPECT_EQ(s.add(s.add(s.add(x, c(1)), y), s.neg(y)), s.add(x, c(1)));
  EXPECT_EQ(s.add(s.add(sum, z), s.mul(c(-2), z)), s.add(x, y));
  // A zero-coefficient product is the Store's NaN guard: it is not dropped as a zero term.
  ExprId inf_term = s.add(sum, s.mul(c(0), s.pos_inf()));
  EXPECT_EQ(inf_term, s.add(std::vector<ExprId>{x, y, z, s.mul(c(0), s.pos_inf())}));
}

}  // namespace
}  // namespace racer::expr::test
