// Steps 1-3: what is proved, and by which step.
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

TEST_F(DecideTest, IdenticalAndCanonical) {
  ExprId a = s.add(s.mul(x, y), c(1));
  EXPECT_EQ(decide(a, s.add(c(1), s.mul(y, x))).step, "identical") << "hash-consing makes this one id";
  CellDecision r = decide(a, a);
  EXPECT_EQ(r.status, CellStatus::Proved);
  EXPECT_EQ(r.step, "identical");
}

TEST_F(DecideTest, ProvesByExpansion) {
  ExprId a = s.pow_int(s.add(x, y), 2);
  ExprId b = s.add(std::vector<ExprId>{s.mul(x, x), s.mul(std::vector<ExprId>{c(2), x, y}), s.mul(y, y)});
  CellDecision r = decide(a, b);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "polynomial normal form");
}

// (x^2 - 1)/(x - 1) and x + 1 are the same rational function; they differ only at x = 1,
// where the left side is undefined (0/0). A proof means "equal wherever both sides are
// defined", so this is Proved, by the normal form; the Store itself does not cancel it.
TEST_F(DecideTest, ProvesRemovableSingularityWhereDefined) {
  ExprId a = s.div(s.sub(s.mul(x, x), c(1)), s.sub(x, c(1)));
  CellDecision r = decide(a, s.add(x, c(1)));
  EXPECT_EQ(r.status, CellStatus::Proved);
  EXPECT_EQ(r.step, "polynomial normal form");
}

TEST_F(DecideTest, StoreCancellationIsIdentity) {
  // x*y/y = x is the Store's convention (where y != 0), so the two sides are one node.
  CellDecision r = decide(s.div(s.mul(x, y), y), x);
  EXPECT_EQ(r.status, CellStatus::Proved);
  EXPECT_EQ(r.step, "identical");
}

TEST_F(DecideTest, ProvesSumsInAnyOrder) {
  std::vector<ExprId> xs, ys;
  for (int i = 0; i < 64; ++i) {
    xs.push_back(sym("a" + std::to_string(i)));
    ys.push_back(sym("b" + std::to_string(i)));
  }
  // A sequential accumulation against a pairwise tree, of nonlinear terms written two ways:
  // (a+b)^2 on one side, a^2 + 2ab + b^2 on the other.
  ExprId seq = c(0);
  for (int i = 0; i < 64; ++i) seq = s.add(seq, s.pow_int(s.add(xs[i], ys[i]), 2));
  std::vector<ExprId> level;
  for (int i = 63; i >= 0; --i) {
    level.push_back(s.add(std::vector<ExprId>{s.mul(xs[i], xs[i]), s.mul(std::vector<ExprId>{c(2), xs[i], ys[i]}),
                                              s.mul(ys[i], ys[i])}));
  }
  while (level.size() > 1) {
    std::vector<ExprId> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(s.add(level[i], level[i + 1]));
    level = next;
  }
  CellDecision r = decide(seq, level[0]);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "polynomial normal form");
  // Linear terms in two orders are one node already.
  ExprId l1 = c(0), l2 = c(0);
  for (int i = 0; i < 64; ++i) l1 = s.add(l1, s.mul(xs[i], ys[i]));
  for (int i = 63; i >= 0; --i) l2 = s.add(s.mul(ys[i], xs[i]), l2);
  EXPECT_EQ(decide(l1, l2).step, "identical");
}

TEST_F(DecideTest, ProvesRationalFunctionsWithCommonDenominators) {
  // softmax-like: a/(a+b) + b/(a+b) = 1; and x/(x+y) - y/(x-y) against its single fraction.
  ExprId sum = s.add(x, y);
  CellDecision r = decide(s.add(s.div(x, sum), s.div(y, sum)), c(1));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  ExprId lhs = s.sub(s.div(x, s.add(x, y)), s.div(y, s.sub(x, y)));
  ExprId num = s.sub(s.sub(s.mul(x, x), s.mul(c(2), s.mul(x, y))), s.mul(y, y));
  ExprId rhs = s.div(num, s.sub(s.mul(x, x), s.mul(y, y)));
  r = decide(lhs, rhs);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "polynomial normal form");
}

TEST_F(DecideTest, ProvesThroughAtomArguments) {
  // exp((x+1)^2) vs exp(x^2 + 2x + 1): the atoms meet once their arguments are expanded.
  ExprId a = s.exp(s.pow_int(s.add(x, c(1)), 2));
  ExprId b = s.exp(s.add(std::vector<ExprId>{s.mul(x, x), s.mul(c(2), x), c(1)}));
  CellDecision r = decide(s.mul(a, y), s.mul(y, b));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  // Nested two deep, inside a comparison and a select.
  ExprId inner1 = s.tanh(s.div(s.sub(s.mul(x, x), c(1)), s.sub(x, c(1))));
  ExprId inner2 = s.tanh(s.add(x, c(1)));
  ExprId sel1 = s.select(s.cmp(expr::CmpOp::Lt, s.pow_int(s.add(y, c(1)), 2), c(4)), s.exp(inner1), z);
  ExprId sel2 = s.select(s.cmp(expr::CmpOp::Lt, s.add(std::vector<ExprId>{s.mul(y, y), s.mul(c(2), y), c(1)}), c(4)),
                         s.exp(inner2), z);
  r = decide(sel1, sel2);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
}

TEST_F(DecideTest, LargeExpansionGivesUpInsteadOfHanging) {
  // big*(x+1) vs big*x + big with big = (x+y+z+1)^60: true, but proving it by expansion
  // needs ~40000-term polynomials. The decider must stop at its limits, say so, and
  // (the sides being equal) refute nothing.
  ExprId big = s.pow_int(s.add(std::vector<ExprId>{x, y, z, c(1)}), 60);
  DeciderOptions o;
  o.points = 4;
  o.use_z3 = false;
  CellDecision r = decide(s.mul(big, s.add(x, c(1))), s.add(s.mul(big, x), big), o);
  ASSERT_EQ(r.status, CellStatus::Unknown);
  EXPECT_NE(r.reason.find("gave up"), std::string::npos) << r.reason;
  // Z3 does not expand: it treats the power as a product of one shared term and proves it.
  o.use_z3 = true;
  r = decide(s.mul(big, s.add(x, c(1))), s.add(s.mul(big, x), big), o);
  EXPECT_NE(r.status, CellStatus::Refuted);
}

}  // namespace
}  // namespace racer::decide::test
