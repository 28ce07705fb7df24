// A sum accumulated under a data-dependent branch (if (x > 0) s += y) is a chain of selects
// whose branches share the sum so far; the same sum taken through selects (s += x > 0 ? y : 0)
// is a flat sum of selects. The atom normalizer orients each select's comparison one way and
// takes the shared terms out of its branches, so the two meet, and it keeps the value at every
// point: where either condition holds, and where the branch not taken is undefined.
#include <random>

#include "decide/atom_normalizer.hpp"
#include "expr/eval.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

struct Row {
  std::vector<ExprId> x, y;
};

Row row(expr::Store& s, size_t n) {
  Row r;
  for (size_t j = 0; j < n; ++j) {
    r.x.push_back(s.symbol("x" + std::to_string(j)));
    r.y.push_back(s.symbol("y" + std::to_string(j)));
  }
  return r;
}

// The branch as a compiler lays it out: skip the addition where x <= 0.
ExprId branch_sum(expr::Store& s, const Row& r, ExprId step_weight) {
  ExprId sum = s.zero();
  for (size_t j = 0; j < r.x.size(); ++j) {
    ExprId skip = s.cmp(expr::CmpOp::Le, r.x[j], s.zero());
    sum = s.select(skip, sum, s.add(sum, s.mul(step_weight, r.y[j])));
  }
  return sum;
}

ExprId select_sum(expr::Store& s, const Row& r) {
  ExprId sum = s.zero();
  for (size_t j = 0; j < r.x.size(); ++j) sum = s.add(sum, s.select(s.cmp(expr::CmpOp::Lt, s.zero(), r.x[j]), r.y[j], s.zero()));
  return sum;
}

TEST_F(DecideTest, ASumUnderABranchMeetsTheSumOfSelects) {
  Row r = row(s, 12);
  ExprId d = s.sub(branch_sum(s, r, s.one()), select_sum(s, r));
  ASSERT_NE(d, s.zero()) << "the Store alone keeps the chain of selects";
  AtomNormalizer normalizer(s, PolyLimits{});
  EXPECT_EQ(normalizer.normalize(d), s.zero()) << str(normalizer.normalize(d));
  // A count accumulated the same way, and a mean over the support.
  ExprId k_branch = s.zero(), k_select = s.zero();
  for (size_t j = 0; j < r.x.size(); ++j) {
    k_branch = s.select(s.cmp(expr::CmpOp::Le, r.x[j], s.zero()), k_branch, s.add(k_branch, s.one()));
    k_select = s.add(k_select, s.select(s.cmp(expr::CmpOp::Lt, s.zero(), r.x[j]), s.one(), s.zero()));
  }
  ExprId mean_branch = s.div(branch_sum(s, r, s.one()), s.max(k_branch, q(1, 1000000)));
  ExprId mean_select = s.div(select_sum(s, r), s.max(k_select, q(1, 1000000)));
  EXPECT_EQ(normalizer.normalize(s.sub(mean_branch, mean_select)), s.zero());
  EXPECT_EQ(decide(mean_branch, mean_select).status, CellStatus::Proved);
}

TEST_F(DecideTest, ASumUnderABranchThatAddsOtherTermsStaysDifferent) {
  Row r = row(s, 12);
  AtomNormalizer normalizer(s, PolyLimits{});
  EXPECT_NE(normalizer.normalize(s.sub(branch_sum(s, r, s.constant(2)), select_sum(s, r))), s.zero());
  // x >= 0 against x > 0: the conditions differ at x = 0, and so do the selects.
  ExprId ge = s.zero();
  for (size_t j = 0; j < r.x.size(); ++j) ge = s.select(s.cmp(expr::CmpOp::Lt, r.x[j], s.zero()), ge, s.add(ge, r.y[j]));
  EXPECT_NE(normalizer.normalize(s.sub(ge, select_sum(s, r))), s.zero());
  EXPECT_EQ(decide(ge, select_sum(s, r)).status, CellStatus::Refuted);
}

TEST_F(DecideTest, ANotEqualSelectMeetsTheEqualOneWithItsBranchesSwapped) {
  AtomNormalizer normalizer(s, PolyLimits{});
  ExprId ne = s.select(s.cmp(expr::CmpOp::Ne, x, s.zero()), s.add(z, y), z);
  ExprId eq = s.add(z, s.select(s.cmp(expr::CmpOp::Eq, x, s.zero()), s.zero(), y));
  EXPECT_EQ(normalizer.normalize(s.sub(ne, eq)), s.zero());
}

// Random selects whose branches share terms, some branches undefined somewhere (a division by
// a symbol that may be 0): wherever the original is defined, the rewrite has its value.
TEST_F(DecideTest, TakingSharedTermsOutOfSelectsKeepsTheValue) {
  std::mt19937_64 rng(7);
  const std::vector<ExprId> atoms{x, y, z, s.mul(x, y), s.div(s.one(), z), s.div(y, x)};
  auto pick = [&] { return atoms[rng() % atoms.size()]; };
  auto small = [&] { return s.constant(static_cast<long>(rng() % 5) - 2); };
  const expr::CmpOp ops[] = {expr::CmpOp::Lt, expr::CmpOp::Le, expr::CmpOp::Eq, expr::CmpOp::Ne};
  int rewrites = 0, compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ExprId shared = s.add(s.mul(small(), pick()), small());
    ExprId t = s.add(shared, s.mul(small(), pick())), e = s.add(shared, s.mul(small(), pick()));
    ExprId cond = s.cmp(ops[rng() % 4], pick(), small());
    ExprId original = s.add(s.select(cond, t, e), s.mul(small(), pick()));
    if (rng() % 2) original = s.select(s.cmp(ops[rng() % 4], pick(), small()), original, s.add(original, pick()));
    AtomNormalizer normalizer(s, PolyLimits{});
    ExprId rewritten = normalizer.normalize(original);
    rewrites += rewritten != original;
    for (int p = 0; p < 12; ++p) {
      expr::Assignment at;
      for (ExprId v : {x, y, z}) at.set(v, mpq_class(static_cast<long>(rng() % 5) - 2));  // (0 often: undefined branches)
      std::optional<mpq_class> want = expr::eval_exact(s, original, at);
      if (!want) continue;
      std::optional<mpq_class> got = expr::eval_exact(s, rewritten, at);
      ASSERT_TRUE(got) << str(original) << " -> " << str(rewritten);
      ++compared;
      EXPECT_EQ(*got, *want) << str(original) << " -> " << str(rewritten);
    }
  }
  EXPECT_GT(rewrites, 150) << "the selects were rewritten";
  EXPECT_GT(compared, 1500);
}

}  // namespace
}  // namespace racer::decide::test
