// Exact evaluation: values, where it must give up, and linear cost on shared DAGs.
#include <chrono>

#include "fixture.hpp"
#include "support/error.hpp"

namespace racer::expr::test {
namespace {

TEST_F(ExprTest, EvaluatesNestedExpressions) {
  // (x + 1/3)^2 / (y - x) + max(x, 2y) * |z| at x = 1/2, y = -1, z = -3
  ExprId e = s.add(s.div(s.pow_int(s.add(x, q(1, 3)), 2), s.sub(y, x)),
                   s.mul(s.max(x, s.mul(c(2), y)), s.abs(z)));
  Assignment at{{x, mpq_class(1, 2)}, {y, mpq_class(-1)}, {z, mpq_class(-3)}};
  mpq_class xv(1, 2), yv(-1), zv(-3);
  mpq_class expect = (xv + mpq_class(1, 3)) * (xv + mpq_class(1, 3)) / (yv - xv) + xv * 3;
  EXPECT_EQ(eval_exact(s, e, at), expect);
  // GMP does not reduce mpq_class(2, 4); the evaluator must, or arithmetic goes wrong.
  EXPECT_EQ(eval_exact(s, s.add(x, q(1, 2)), {{x, mpq_class(2, 4)}}), mpq_class(1));
}

TEST_F(ExprTest, EvaluatesExactFloatConstants) {
  ExprId f = str_q("13421773/134217728");
  ExprId e = s.mul(s.add(x, f), c(10));
  EXPECT_EQ(eval_exact(s, e, {{x, mpq_class(0)}}), mpq_class("67108865/67108864"));
}

TEST_F(ExprTest, GivesUpWhenNotRational) {
  Assignment at{{x, mpq_class(2)}, {y, mpq_class(0)}, {z, mpq_class(-1)}};
  EXPECT_EQ(eval_exact(s, s.exp(x), at), std::nullopt);
  EXPECT_EQ(eval_exact(s, s.sqrt(x), at), std::nullopt);
  EXPECT_EQ(eval_exact(s, s.sqrt(s.mul(c(8), x)), at), mpq_class(4));
  EXPECT_EQ(eval_exact(s, s.div(x, y), at), std::nullopt) << "division by zero";
  EXPECT_EQ(eval_exact(s, s.log(z), at), std::nullopt);
  EXPECT_EQ(eval_exact(s, s.log(y), at), std::nullopt) << "-inf is not a rational";
  EXPECT_EQ(eval_exact(s, s.exp(s.log(y)), at), mpq_class(0)) << "exp(log(0)) = exp(-inf) = 0";
  EXPECT_EQ(eval_exact(s, s.exp(y), at), mpq_class(1));
  EXPECT_EQ(eval_exact(s, s.tanh(y), at), mpq_class(0));
  EXPECT_EQ(eval_exact(s, s.pos_inf(), at), std::nullopt);
  EXPECT_EQ(eval_exact(s, s.undefined(), at), std::nullopt);
}

TEST_F(ExprTest, ExactValuesPassThroughUnknownParts) {
  Assignment at{{x, mpq_class(1)}, {y, mpq_class(0)}};
  EXPECT_EQ(eval_exact(s, s.mul(s.exp(x), y), at), mpq_class(0)) << "0 * exp(1) = 0";
  ExprId masked = s.select(s.cmp(CmpOp::Lt, y, c(0)), s.exp(x), s.neg_inf());
  EXPECT_EQ(eval_exact(s, s.exp(masked), at), mpq_class(0));
  EXPECT_EQ(eval_exact(s, s.max(s.exp(x), s.pos_inf()), {{x, mpq_class(1)}}), std::nullopt);
  EXPECT_EQ(eval_exact(s, s.tanh(s.max(s.exp(x), s.pos_inf())), {{x, mpq_class(1)}}), mpq_class(1));
  // A condition on an irrational is unknown, but equal branches do not care.
  ExprId p = s.cmp(CmpOp::Lt, s.exp(x), c(3));
  EXPECT_EQ(eval_exact(s, s.select(p, s.mul(y, x), c(0)), at), mpq_class(0));
  EXPECT_EQ(eval_exact(s, s.select(p, x, c(0)), at), std::nullopt);
}

TEST_F(ExprTest, SelectEvaluatesOnlyTheTakenBranch) {
  ExprId p = s.cmp(CmpOp::Ne, y, c(0));
  ExprId safe = s.select(p, s.div(x, y), c(7));
  EXPECT_EQ(eval_exact(s, safe, {{x, mpq_class(1)}, {y, mpq_class(0)}}), mpq_class(7));
  EXPECT_EQ(eval_exact(s, safe, {{x, mpq_class(1)}, {y, mpq_class(4)}}), mpq_class(1, 4));
}

TEST_F(ExprTest, MissingSymbolThrows) {
  EXPECT_THROW(eval_exact(s, s.add(x, y), {{x, mpq_class(1)}}), racer::Error);
}

TEST_F(ExprTest, DeepSharedDagEvaluatesInLinearTime) {
  // v_{i+1} = min(v_i, y) + max(v_i, z): each level uses v_i twice, so a tree walk would
  // take 2^10000 steps and a recursive one would overflow the stack.
  ExprId v = x;
  for (int i = 0; i < 10000; ++i) v = s.add(s.min(v, y), s.max(v, z));
  auto start = std::chrono::steady_clock::now();
  // x = 1, y = 0, z = 0: min(1, 0) + max(1, 0) = 1 at every level.
  EXPECT_EQ(eval_exact(s, v, {{x, mpq_class(1)}, {y, mpq_class(0)}, {z, mpq_class(0)}}), mpq_class(1));
  // x = -1, y = 0, z = 0: v_1 = -1 + 0 = -1, and so on.
  EXPECT_EQ(eval_exact(s, v, {{x, mpq_class(-1)}, {y, mpq_class(0)}, {z, mpq_class(0)}}), mpq_class(-1));
  // x = 2, y = 1, z = 0: v_1 = 1 + 2 = 3, v_{i+1} = 1 + v_i.
  EXPECT_EQ(eval_exact(s, v, {{x, mpq_class(2)}, {y, mpq_class(1)}, {z, mpq_class(0)}}), mpq_class(10002));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 2.0);
}

TEST_F(ExprTest, DoublingChainStaysOneNode) {
  // x_{i+1} = x_i + x_i canonicalizes to 2^i * x at every step: no chain at all.
  ExprId v = x;
  size_t before = s.size();
  for (int i = 0; i < 10000; ++i) v = s.add(v, v);
  EXPECT_LE(s.size() - before, 2 * 10000u) << "one coefficient and one product per step";
  ASSERT_EQ(s.kind(v), Kind::Mul);
  EXPECT_EQ(s.arity(v), 1u);
  mpz_class two_pow;
  mpz_ui_pow_ui(two_pow.get_mpz_t(), 2, 10000);
  EXPECT_EQ(s.coef(v), mpq_class(two_pow));
  EXPECT_EQ(eval_exact(s, v, {{x, mpq_class(3)}}), mpq_class(two_pow * 3));
}

}  // namespace
}  // namespace racer::expr::test
