// A softmax masked with a finite value (-1e6) carries exps no float format holds where a
// reference masked with -inf has none: the sides are equal up to those terms, a verdict of its
// own (never a proof), and a real difference beside them is still refuted. Dropping a term is
// refused wherever it could change more than its own size.
#include "decide/negligible_terms.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class NegligibleTest : public DecideTest {
 protected:
  expr::Range unit{mpq_class(-4), mpq_class(4)};
  ExprId s1 = ranged("s1"), s2 = ranged("s2"), s3 = ranged("s3");
  ExprId v1 = ranged("v1"), v2 = ranged("v2"), v3 = ranged("v3");

  ExprId ranged(const char* name) {
    ExprId v = s.symbol(name, unit);
    domains[v] = SymbolDomain{unit.lo, unit.hi, Grid::F32};
    return v;
  }

  // sum_i exp(l_i - m) v_i / sum_i exp(l_i - m), m the max of the logits.
  ExprId softmax_average(const std::vector<ExprId>& logits, const std::vector<ExprId>& values) {
    ExprId m = s.max(logits), num = s.zero(), den = s.zero();
    for (size_t i = 0; i < logits.size(); ++i) {
      ExprId p = s.exp(s.sub(logits[i], m));
      num = s.add(num, s.mul(p, values[i]));
      den = s.add(den, p);
    }
    return s.div(num, den);
  }
};

TEST_F(NegligibleTest, AFiniteMaskIsEqualUpToNegligibleTerms) {
  ExprId masked = softmax_average({s1, s2, c(-1000000)}, {v1, v2, v3});
  ExprId reference = softmax_average({s1, s2}, {v1, v2});
  CellDecision d = decide(masked, reference);
  EXPECT_EQ(d.status, CellStatus::Negligible) << d.step << d.reason;
  EXPECT_NE(d.step.find("below e^-1000"), std::string::npos) << d.step;
}

TEST_F(NegligibleTest, ADifferenceBesideTheMaskIsStillRefuted) {
  ExprId masked = softmax_average({s1, s2, c(-1000000)}, {v1, v1, v3});  // v1 where v2 belongs
  ExprId reference = softmax_average({s1, s2}, {v1, v2});
  EXPECT_EQ(decide(masked, reference).status, CellStatus::Refuted);
}

TEST_F(NegligibleTest, ATermUnderAComparisonIsNotDropped) {
  // exp(s1 - 2000) < s2 differs from 0 < s2 for s2 in (0, e^-1996]: a branch, not a small term.
  ExprId tiny = s.exp(s.sub(s1, c(2000)));
  ExprId a = s.select(s.cmp(expr::CmpOp::Lt, tiny, s2), v1, v2);
  ExprId b = s.select(s.cmp(expr::CmpOp::Lt, s.zero(), s2), v1, v2);
  std::string why;
  EXPECT_FALSE(drop_negligible_terms(s, a, b, why));
  EXPECT_NE(why.find("comparison"), std::string::npos) << why;
  EXPECT_NE(decide(a, b).status, CellStatus::Negligible);
}

TEST_F(NegligibleTest, ADenominatorThatCouldReachZeroWithoutTheTermKeepsIt) {
  // 1 / (s1 + e^(s2 - 2000)) is huge at s1 = 0, where 1 / s1 is undefined.
  ExprId a = s.div(v1, s.add(s1, s.exp(s.sub(s2, c(2000)))));
  ExprId b = s.div(v1, s1);
  std::string why;
  EXPECT_FALSE(drop_negligible_terms(s, a, b, why));
  EXPECT_NE(why.find("denominator"), std::string::npos) << why;
  EXPECT_NE(decide(a, b).status, CellStatus::Negligible);
}

TEST_F(NegligibleTest, OnlyTermsSmallOnTheWholeBoxAreDropped) {
  // Unbounded x: exp(x - 2000) = exp(x) exp(-2000) is not small everywhere, though its factor is.
  std::string why;
  EXPECT_FALSE(drop_negligible_terms(s, s.add(v1, s.exp(s.sub(x, c(2000)))), v1, why));
  EXPECT_NE(why.find("product"), std::string::npos) << why;
  // -999 + s1 <= -995 on [-4, 4]: not below e^-1000.
  EXPECT_FALSE(drop_negligible_terms(s, s.add(v1, s.exp(s.sub(s1, c(999)))), v1, why));
  // exp(s1 - 1010) is the product exp(s1) exp(-1010), at most e^-1006.
  auto w = drop_negligible_terms(s, s.add(v1, s.exp(s.sub(s1, c(1010)))), v1, why);
  ASSERT_TRUE(w) << why;
  EXPECT_EQ(w->a, v1);
  EXPECT_EQ(w->dropped, 1u);
}

TEST_F(NegligibleTest, EqualSidesWithTheSameMaskAreProvedNotNegligible) {
  ExprId masked = softmax_average({s1, s2, c(-1000000)}, {v1, v2, v3});
  ExprId again = softmax_average({s2, s1, c(-1000000)}, {v2, v1, v3});
  EXPECT_EQ(decide(masked, again).status, CellStatus::Proved);
}

}  // namespace
}  // namespace racer::decide::test
