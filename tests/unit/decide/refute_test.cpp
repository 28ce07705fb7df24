// Step 4: refutations carry admissible witnesses that reproduce the reported values, and
// nothing is refuted where the sides agree on the domain.
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

TEST_F(DecideTest, RefutesSwappedOperand) {
  // A rope-style rotation with x1 where the reference reads x2.
  ExprId x0 = sym("x0"), x1 = sym("x1"), x2 = sym("x2"), co = sym("cos"), si = sym("sin");
  ExprId a = s.sub(s.mul(x0, co), s.mul(x1, si));
  ExprId b = s.sub(s.mul(x0, co), s.mul(x2, si));
  for (ExprId v : {x0, x1, x2, co, si}) domains[v] = SymbolDomain{mpq_class(-1), mpq_class(1), Grid::F32};
  CellDecision r = decide(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.step, "refuted by exact evaluation");
  EXPECT_NE(witness(r, si), 0);
  EXPECT_NE(witness(r, x1), witness(r, x2));
  EXPECT_EQ(r.witness.size(), 5u);
}

TEST_F(DecideTest, RefutesEpsilonSignSlip) {
  // rsqrt-free normalisation with the f32 constant 1e-5 added on one side, subtracted on
  // the other; r ranges over [1, 2] in f32.
  ExprId r_ = sym("r");
  ExprId eps = q("2748779/274877906944");  // 0f3727C5AC, the f32 nearest 1e-5
  ExprId inv = s.recip(s.mul(r_, r_));
  domains[r_] = SymbolDomain{mpq_class(1), mpq_class(2), Grid::F32};
  CellDecision r = decide(s.add(inv, eps), s.sub(inv, eps));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  mpq_class w = witness(r, r_);
  EXPECT_TRUE(w >= 1 && w <= 2);
  EXPECT_EQ(*r.value_a - *r.value_b, mpq_class("2748779/137438953472"));
}

TEST_F(DecideTest, RefutesAnInfinityAgainstAFiniteValue) {
  // A masked logit: -inf on one side where the other keeps the input (an off-by-one mask).
  domains[x] = SymbolDomain{mpq_class(-8), mpq_class(8), Grid::F32};
  CellDecision r = decide(s.neg_inf(), x);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_NE(r.step.find("program a's value is -inf there"), std::string::npos) << r.step;
  EXPECT_FALSE(r.value_a) << "an infinity is no rational value";
  EXPECT_TRUE(r.value_b);
  // Only where the mask differs: select(x < 1, -inf, x) against select(x < 0, -inf, x).
  ExprId a = s.select(s.cmp(expr::CmpOp::Lt, x, c(1)), s.neg_inf(), x);
  ExprId b = s.select(s.cmp(expr::CmpOp::Lt, x, c(0)), s.neg_inf(), x);
  r = decide(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  mpq_class w = witness(r, x);
  EXPECT_TRUE(w >= 0 && w < 1) << w;
  EXPECT_EQ(decide(s.neg_inf(), s.neg_inf()).status, CellStatus::Proved);
  EXPECT_NE(decide(s.select(s.cmp(expr::CmpOp::Lt, x, c(0)), s.neg_inf(), x), x).status, CellStatus::Proved);
}

TEST_F(DecideTest, FindsTheBoundaryOfAComparison) {
  // x >= c against x > c with c = 77/64: they differ at x = c only. 77/64 is no simple
  // value, so only the boundary search can find it.
  mpq_class cv("77/64");
  ExprId cc = s.constant(cv);
  domains[x] = SymbolDomain{std::nullopt, std::nullopt, Grid::F16};
  ExprId a = s.select(s.cmp(expr::CmpOp::Ge, x, cc), x, c(0));
  ExprId b = s.select(s.cmp(expr::CmpOp::Gt, x, cc), x, c(0));
  CellDecision r = decide(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, x), cv);
  EXPECT_EQ(*r.value_a, cv);
  EXPECT_EQ(*r.value_b, 0);
}

TEST_F(DecideTest, FindsTheHalfBoundary) {
  ExprId half = q(1, 2);
  ExprId a = s.select(s.cmp(expr::CmpOp::Ge, x, half), x, c(0));
  ExprId b = s.select(s.cmp(expr::CmpOp::Gt, x, half), x, c(0));
  CellDecision r = decide(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, x), mpq_class(1, 2));
}

TEST_F(DecideTest, FindsBoundariesBetweenSymbolsAndInsideSums) {
  // min(x, y + 3/7) written as a select with the tie sent the other way is the same
  // function: no refutation. With < against <= in front of different branches it is not.
  domains[x] = SymbolDomain{mpq_class(-4), mpq_class(4), Grid::Real};
  domains[y] = SymbolDomain{mpq_class(-4), mpq_class(4), Grid::Real};
  ExprId ys = s.add(y, q(3, 7));
  ExprId m = s.min(x, ys);
  ExprId sel = s.select(s.cmp(expr::CmpOp::Le, x, ys), x, ys);
  CellDecision r = decide(m, sel);
  EXPECT_NE(r.status, CellStatus::Refuted);
  ExprId a = s.select(s.cmp(expr::CmpOp::Lt, x, ys), c(1), s.mul(c(2), z));
  ExprId b = s.select(s.cmp(expr::CmpOp::Le, x, ys), c(1), s.mul(c(2), z));
  r = decide(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, x), witness(r, y) + mpq_class(3, 7));
}

TEST_F(DecideTest, FindsNonlinearBoundaries) {
  // x*x < 9/16 against x*x <= 9/16: equal except at x = +-3/4.
  ExprId sq = s.mul(x, x);
  domains[x] = SymbolDomain{mpq_class(1, 2), mpq_class(1), Grid::BF16};
  ExprId a = s.select(s.cmp(expr::CmpOp::Lt, sq, q(9, 16)), x, c(5));
  ExprId b = s.select(s.cmp(expr::CmpOp::Le, sq, q(9, 16)), x, c(5));
  CellDecision r = decide(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, x), mpq_class(3, 4));
}

// abs is an atom to the normal form: abs(x) - x is a nonzero rational function of the
// atoms, and any negative x refutes abs(x) = x. On [0, 1] the two agree everywhere, which
// the case split proves: its piece x < 0 is infeasible with the range.
TEST_F(DecideTest, RangeDecidesWhetherAbsIsRefuted) {
  CellDecision r = decide(s.abs(x), x);
  ASSERT_EQ(r.status, CellStatus::Refuted);
  EXPECT_LT(witness(r, x), 0);
  domains[x] = SymbolDomain{mpq_class(0), mpq_class(1), Grid::F32};
  r = decide(s.abs(x), x);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "case split");
}

TEST_F(DecideTest, WitnessesLieOnTheGrid) {
  // 3x vs 3x + 1/1000 on [1/3, 1/2] in f16: every witness value must load exactly in f16,
  // which 1/3 does not.
  domains[x] = SymbolDomain{mpq_class(1, 3), mpq_class(1, 2), Grid::F16};
  domains[y] = SymbolDomain{mpq_class(1, 3), mpq_class(1, 3), Grid::F16};
  CellDecision r = decide(s.mul(c(3), x), s.add(s.mul(c(3), x), q(1, 1000)));
  ASSERT_EQ(r.status, CellStatus::Refuted);
  EXPECT_TRUE(on_grid(witness(r, x), Grid::F16));
  // A point range off the grid has no admissible value at all.
  r = decide(s.mul(c(3), y), s.add(s.mul(c(3), y), q(1, 1000)));
  EXPECT_EQ(r.status, CellStatus::Unknown);
  EXPECT_NE(r.reason.find("no value on its f16 grid"), std::string::npos) << r.reason;
  // Integer grids get integers; E4M3 values with 4 significant bits.
  domains[z] = SymbolDomain{mpq_class(10), mpq_class(20), Grid::Integer};
  r = decide(s.mul(z, z), s.mul(c(15), z));
  ASSERT_EQ(r.status, CellStatus::Refuted);
  EXPECT_EQ(witness(r, z).get_den(), 1);
  EXPECT_NE(witness(r, z), 15);
  domains[x] = SymbolDomain{std::nullopt, std::nullopt, Grid::E4M3};
  r = decide(s.select(s.cmp(expr::CmpOp::Lt, x, q(13, 4)), c(0), x), s.select(s.cmp(expr::CmpOp::Le, x, q(13, 4)), c(0), x));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, x), mpq_class(13, 4));
}

TEST_F(DecideTest, SkipsUndefinedPoints) {
  // 1/x against select(x == 0, 7, 1/x): they differ only at x = 0, where 1/x has no value.
  // The boundary search tries x = 0 and must skip it rather than report 7 against nothing.
  ExprId b = s.select(s.cmp(expr::CmpOp::Eq, x, c(0)), c(7), s.recip(x));
  CellDecision r = decide(s.recip(x), b);
  EXPECT_EQ(r.status, CellStatus::Unknown);
  // (y^2 - 1)/(y - 1) against y + 7 with y confined to {1}: the only admissible point is
  // the pole, so there is nothing to compare at.
  domains[y] = SymbolDomain{mpq_class(1), mpq_class(1), Grid::F32};
  ExprId p = s.div(s.sub(s.mul(y, y), c(1)), s.sub(y, c(1)));
  r = decide(p, s.add(y, c(7)));
  EXPECT_EQ(r.status, CellStatus::Unknown);
  EXPECT_NE(r.reason.find("both sides are defined"), std::string::npos) << r.reason;
}

TEST_F(DecideTest, UndefinedPointsDoNotHideOthers) {
  // 1/(x - 0) vs 1/(x - 1): the first simple point x = 0 and the point x = 1 are poles;
  // others refute.
  CellDecision r = decide(s.recip(x), s.recip(s.sub(x, c(1))));
  ASSERT_EQ(r.status, CellStatus::Refuted);
  EXPECT_NE(witness(r, x), 0);
  EXPECT_NE(witness(r, x), 1);
}

}  // namespace
}  // namespace racer::decide::test

namespace racer::decide::test {
namespace {

TEST_F(DecideTest, ConstantsAndConditions) {
  CellDecision r = decide(c(1), q(3, 2));
  ASSERT_EQ(r.status, CellStatus::Refuted);
  EXPECT_TRUE(r.witness.empty()) << "no symbols, nothing to assign";
  // Conditions are compared by value (0/1); the tie x = 5/8 tells < from <=.
  r = decide(s.cmp(expr::CmpOp::Lt, x, q(5, 8)), s.cmp(expr::CmpOp::Le, x, q(5, 8)));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, x), mpq_class(5, 8));
}

TEST_F(DecideTest, SeedsMakeDecisionsReproducible) {
  // A piece that shows only for x + y >= 310 on [100, 200]^2; two deciders with one seed
  // pick the same witness.
  domains[x] = SymbolDomain{mpq_class(100), mpq_class(200), Grid::F32};
  domains[y] = SymbolDomain{mpq_class(100), mpq_class(200), Grid::F32};
  ExprId a = s.add(s.mul(x, y), s.select(s.cmp(expr::CmpOp::Lt, s.add(x, y), c(310)), c(0), c(1)));
  ExprId b = s.mul(y, x);
  Decider d1(s, [this](ExprId v) { return domain_of(v); }, 42), d2(s, [this](ExprId v) { return domain_of(v); }, 42);
  CellDecision r1 = d1.decide(a, b), r2 = d2.decide(a, b);
  ASSERT_EQ(r1.status, CellStatus::Refuted) << r1.reason;
  check(a, b, r1);
  EXPECT_EQ(r1.witness, r2.witness);
  EXPECT_GE(witness(r1, x) + witness(r1, y), 310);
}

}  // namespace
}  // namespace racer::decide::test
