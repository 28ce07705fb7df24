// Sides with irrational values: never Proved without a proof, Refuted only through exact
// values or disjoint Arb balls.
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

ExprId tiny(expr::Store& s) { return s.constant(mpq_class("1/1000000000000000000000000000000")); }  // 1e-30

TEST_F(DecideTest, ExpOffByTinyIsRefutedExactlyAtZero) {
  // exp(0) = 1 exactly, so the simple point x = 0 refutes without balls.
  CellDecision r = decide(s.exp(x), s.add(s.exp(x), tiny(s)));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.step, "refuted by exact evaluation");
  EXPECT_EQ(witness(r, x), 0);
}

TEST_F(DecideTest, ExpOffByTinyNeedsBallsAwayFromZero) {
  domains[x] = SymbolDomain{mpq_class(1), mpq_class(2), Grid::F32};
  DeciderOptions no_balls;
  no_balls.balls = false;
  CellDecision r = decide(s.exp(x), s.add(s.exp(x), tiny(s)), no_balls);
  EXPECT_EQ(r.status, CellStatus::Unknown) << "without balls nothing is exact, and nothing is proved";
  EXPECT_NE(r.reason.find("transcendental"), std::string::npos) << r.reason;
  r = decide(s.exp(x), s.add(s.exp(x), tiny(s)));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_NE(r.step.find("ball"), std::string::npos) << r.step;
  EXPECT_TRUE(on_grid(witness(r, x), Grid::F32));
  EXPECT_LT(*r.value_a, *r.value_b);
}

TEST_F(DecideTest, BallsRefuteTranscendentalSlips) {
  // GELU with erf against the same with tanh: different functions, irrational everywhere
  // but at 0 (where both are 0).
  domains[x] = SymbolDomain{mpq_class(1, 4), mpq_class(3), Grid::BF16};
  ExprId half_x = s.mul(q(1, 2), x);
  ExprId a = s.mul(half_x, s.add(c(1), s.erf(s.mul(x, q("7071067811865476/10000000000000000")))));
  ExprId b = s.mul(half_x, s.add(c(1), s.tanh(s.mul(x, q("7978845608/10000000000")))));
  CellDecision r = decide(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_NE(r.step.find("ball"), std::string::npos);
  // log(exp(x) + 1) against x + log(1 + exp(-x)) is an identity: exp(-x) is exp(x)^-1, and
  // log((exp(x) + 1) / exp(x)) sheds its exp factor. It is proved, never refuted.
  ExprId sp1 = s.log(s.add(s.exp(x), c(1)));
  ExprId sp2 = s.add(x, s.log(s.add(c(1), s.exp(s.neg(x)))));
  r = decide(sp1, sp2);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.step;
}

TEST_F(DecideTest, TranscendentalIdentitiesOfAtomsAreProved) {
  // Polynomial identities over transcendental atoms are proved; so is sqrt(x)^2 = x, which the
  // atom normalizer reduces (equal wherever sqrt(x) is defined: the normal form's cancellation
  // convention, as (x^2 - 1)/(x - 1) = x + 1).
  ExprId e = s.exp(x), l = s.log(y);
  ExprId a = s.mul(s.add(e, l), s.sub(e, l));
  ExprId b = s.sub(s.mul(e, e), s.mul(l, l));
  CellDecision r = decide(a, b);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  r = decide(s.pow_int(s.sqrt(x), 2), x);
  EXPECT_EQ(r.status, CellStatus::Proved) << "sqrt(x)^2 = x wherever sqrt(x) is defined: " << r.reason;
  r = decide(s.pow_int(s.sqrt(x), 2), s.add(x, c(1)));
  EXPECT_NE(r.status, CellStatus::Proved);
}

TEST_F(DecideTest, LogisticAndHyperbolicFormsMeet) {
  // Compiled sigmoids come as 1/(1 + exp(-x)), exp(x)/(1 + exp(x)), 1/2 + tanh(x/2)/2; tanh
  // as 2*sigmoid(2x) - 1. All are one function; each pair is proved.
  domains[x] = SymbolDomain{mpq_class(-20), mpq_class(20), Grid::F32};
  ExprId e = s.exp(x);
  ExprId sig1 = s.recip(s.add(c(1), s.exp(s.neg(x))));
  ExprId sig2 = s.div(e, s.add(c(1), e));
  ExprId sig3 = s.add(q(1, 2), s.mul(q(1, 2), s.tanh(s.mul(q(1, 2), x))));
  EXPECT_EQ(decide(sig1, sig2).status, CellStatus::Proved);
  EXPECT_EQ(decide(sig1, sig3).status, CellStatus::Proved);
  ExprId sig_2x = s.recip(s.add(c(1), s.exp(s.mul(c(-2), x))));
  EXPECT_EQ(decide(s.tanh(x), s.sub(s.mul(c(2), sig_2x), c(1))).status, CellStatus::Proved);
  // The slip: 2*sigmoid(x) - 1 is tanh(x/2), not tanh(x).
  CellDecision r = decide(s.tanh(x), s.sub(s.mul(c(2), sig1), c(1)));
  EXPECT_EQ(r.status, CellStatus::Refuted) << r.reason;
}

TEST_F(DecideTest, PythagoreanAndDoubleAngleIdentitiesAreProved) {
  // Compiled sinf/cosf pairs share one range reduction and are read as sin and cos; the
  // normal form knows cos^2 = 1 - sin^2 and the double angle, and still refutes a slip.
  domains[x] = SymbolDomain{mpq_class(-8), mpq_class(8), Grid::F32};
  ExprId sx = s.sin(x), cx = s.cos(x);
  ExprId pyth = s.add(s.pow_int(sx, 2), s.pow_int(cx, 2));
  EXPECT_EQ(decide(pyth, c(1)).status, CellStatus::Proved);
  ExprId half_minus_cos2x = s.sub(q(1, 2), s.mul(q(1, 2), s.cos(s.mul(c(2), x))));
  EXPECT_EQ(decide(half_minus_cos2x, s.pow_int(sx, 2)).status, CellStatus::Proved);
  EXPECT_EQ(decide(s.sin(s.mul(c(2), x)), s.mul(c(2), s.mul(sx, cx))).status, CellStatus::Proved);
  // sin^2 - cos^2 is -cos(2x), not cos(2x).
  CellDecision r = decide(s.sub(s.pow_int(sx, 2), s.pow_int(cx, 2)), s.cos(s.mul(c(2), x)));
  EXPECT_EQ(r.status, CellStatus::Refuted) << r.reason;
}

}  // namespace
}  // namespace racer::decide::test
