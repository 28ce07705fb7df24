// Differences that live only behind a branch no point takes: a split-K merge that forgets to
// rescale its accumulator when the second split holds the larger log-sum-exp (a condition on
// logs of sums, which the case split cannot build points for and random points rarely meet),
// found by pushing the branch point to its other branch; sides that are equal on every piece
// are never refuted. The tape's gradient is checked against finite differences.
#include <cmath>

#include "decide/branch_flips.hpp"
#include "decide/float_tape.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class BranchFlipsTest : public DecideTest {
 protected:
  std::vector<ExprId> row(const std::string& name, size_t n, long lo, long hi) {
    std::vector<ExprId> vs;
    for (size_t j = 0; j < n; ++j) {
      vs.push_back(sym(name + std::to_string(j)));
      domains[vs.back()] = {mpq_class(lo), mpq_class(hi), Grid::F32};
    }
    return vs;
  }

  ExprId log_sum_exp(const std::vector<ExprId>& xs) {
    std::vector<ExprId> e;
    for (ExprId x : xs) e.push_back(s.exp(x));
    return s.log(s.add(e));
  }

  struct Merge {
    ExprId right, forgetful;
    std::vector<ExprId> first, second;
  };

  // Two splits' partial outputs u, w with their log-sum-exps: 12 scores against 2, every score in
  // [-1, 1], so the second split's is the larger only where both of its scores are near 1 and the
  // first's near -1 (log(2e) = 1.69 against log(12/e) = 1.49): never at a corner, where all scores
  // are equal, nor with one score at the other end, and hardly ever at random.
  Merge merge() {
    Merge m{};
    m.first = row("x", 12, -1, 1);
    m.second = row("y", 2, -1, 1);
    ExprId u = sym("u"), w = sym("w");
    domains[u] = domains[w] = {mpq_class(-2), mpq_class(2), Grid::F32};
    ExprId l1 = log_sum_exp(m.first), l2 = log_sum_exp(m.second);
    ExprId top = s.max(l1, l2);
    ExprId s1 = s.exp(s.sub(l1, top)), s2 = s.exp(s.sub(l2, top));
    ExprId sum = s.add(s1, s2);
    m.right = s.div(s.add(s.mul(u, s1), s.mul(w, s2)), sum);
    m.forgetful = s.div(s.add(u, s.mul(w, s2)), sum);
    return m;
  }
};

TEST_F(BranchFlipsTest, AMergeThatForgetsToRescaleIsRefutedBehindTheBranch) {
  Merge m = merge();
  CellDecision r = decide(m.right, m.forgetful);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  // The witness lies behind the branch: the second split's log-sum-exp is the larger.
  double l1 = 0, l2 = 0;
  for (ExprId x : m.first) l1 += std::exp(witness(r, x).get_d());
  for (ExprId y : m.second) l2 += std::exp(witness(r, y).get_d());
  EXPECT_GT(std::log(l2), std::log(l1)) << r.step;
}

TEST_F(BranchFlipsTest, ARoundingLevelWitnessGivesWayToOneBehindTheBranch) {
  // The kernel's side carries a constant read with a float's error (1 + 2^-24), so the sides
  // differ at rounding level everywhere: the first witness is one of those, and a report of it
  // would be withheld as possibly rounding. Behind the branch they differ beyond it.
  Merge m = merge();
  ExprId skewed = s.mul(s.constant(mpq_class(1) + mpq_class(1, 1 << 24)), m.forgetful);
  CellDecision r = decide(m.right, skewed);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  ASSERT_TRUE(r.value_a && r.value_b);
  const mpq_class scale = std::max(abs(*r.value_a), abs(*r.value_b));
  EXPECT_GT(abs(*r.value_a - *r.value_b) * 262144, scale) << r.step;
}

TEST_F(BranchFlipsTest, APieceNoPointReachedIsSearchedWhereTheNormalFormGaveUp) {
  // With the normal form's limits too small for the merge, nothing says the sides differ as
  // functions until the case split meets the piece where the second split's log-sum-exp is the
  // larger, and none of that piece's points (its condition is on logs of sums) shows it.
  Merge m = merge();
  DeciderOptions o;
  o.max_terms = 4;
  CellDecision r = decide(m.right, m.forgetful, o);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.step.rfind("after flipping a branch", 0), 0u) << r.step;
}

TEST_F(BranchFlipsTest, TheSearchAloneFindsTheWitnessFromAPointWhereTheSidesAgree) {
  Merge m = merge();
  std::vector<ExprId> syms = expr::free_symbols(s, m.right);
  std::vector<SymbolDomain> doms;
  for (ExprId v : syms) doms.push_back(domain_of(v));
  PointSource src(syms, doms, 1);
  Point start(syms.size(), mpq_class(1, 4));  // every score 1/4: the first split's is the larger
  std::optional<Refutation> r = flip_branches(s, m.right, m.forgetful, src, start, FlipOptions{});
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(confirm_refutation(s, m.right, m.forgetful, src, *r));
  EXPECT_FALSE(rounding_level(*r));
}

TEST_F(BranchFlipsTest, SidesEqualOnEveryPieceAreNeverRefuted) {
  // The same merge written with the maximum's other argument first, and with the rescale
  // folded into the quotient: equal everywhere, so no flip may report a difference.
  Merge m = merge();
  ExprId l1 = log_sum_exp(m.first), l2 = log_sum_exp(m.second);
  ExprId u = sym("u"), w = sym("w");
  ExprId e1 = s.exp(l1), e2 = s.exp(l2);
  ExprId plain = s.div(s.add(s.mul(u, e1), s.mul(w, e2)), s.add(e1, e2));
  std::vector<ExprId> syms = expr::free_symbols(s, m.right);
  std::vector<SymbolDomain> doms;
  for (ExprId v : syms) doms.push_back(domain_of(v));
  PointSource src(syms, doms, 1);
  Point start(syms.size(), mpq_class(1, 2));
  EXPECT_FALSE(flip_branches(s, m.right, plain, src, start, FlipOptions{}).has_value());
  EXPECT_NE(decide(m.right, plain).status, CellStatus::Refuted);
}

TEST_F(BranchFlipsTest, TheTapesGradientMatchesFiniteDifferences) {
  // f = max(x y, exp(z) - 1) / (1 + |x - z|) + tanh(y) log(2 + z^2), at a point where x y wins.
  ExprId f = s.add(s.div(s.max(s.mul(x, y), s.sub(s.exp(z), c(1))), s.add(c(1), s.abs(s.sub(x, z)))),
                   s.mul(s.func(expr::FuncKind::Tanh, y), s.log(s.add(c(2), s.mul(z, z)))));
  std::vector<ExprId> syms{x, y, z};
  FloatTape tape(s, std::array{f}, syms);
  ASSERT_TRUE(tape.usable());
  std::vector<double> p{1.5, 0.75, -0.5}, grad(3);
  ASSERT_TRUE(tape.evaluate(p));
  const uint32_t root = tape.slot(f);
  const std::pair<uint32_t, double> seed{root, 1.0};
  tape.gradient(std::span(&seed, 1), grad);
  for (size_t k = 0; k < 3; ++k) {
    std::vector<double> up = p, down = p;
    up[k] += 1e-6, down[k] -= 1e-6;
    ASSERT_TRUE(tape.evaluate(up));
    const double fu = tape.value(root);
    ASSERT_TRUE(tape.evaluate(down));
    const double fd = tape.value(root);
    EXPECT_NEAR(grad[k], (fu - fd) / 2e-6, 1e-5) << "coordinate " << k;
  }
  // Two branch points (the max, then the abs inside the denominator), outermost first.
  ASSERT_EQ(tape.branch_points().size(), 2u);
  // At p the max takes x y (1.125 against e^-0.5 - 1): its margin to the other branch is negative.
  ASSERT_TRUE(tape.evaluate(p));
  double margin = 0;
  for (auto [slot, w] : tape.flip_margin(tape.branch_points()[0])) margin += w * tape.value(slot);
  EXPECT_NEAR(margin, std::exp(-0.5) - 1 - 1.125, 1e-12);
}

}  // namespace
}  // namespace racer::decide::test
