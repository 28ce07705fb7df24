// Online softmax rescales a running sum by exp(m_old - m_new). The atom normalizer distributes
// such monomial factors, so the rescaled sums and the directly summed ones become the same
// node and the difference vanishes without polynomial arithmetic; the FLINT fast paths for
// monomial denominators keep the normal form exact.
#include "decide/atom_normalizer.hpp"
#include "decide/normal_form.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

struct TwoBlocks {
  ExprId flash, naive;
};

// One query row against n keys in two blocks; the scores are symbols.
TwoBlocks attention_row(expr::Store& s, size_t n) {
  std::vector<ExprId> score, value;
  for (size_t j = 0; j < n; ++j) {
    score.push_back(s.symbol("s" + std::to_string(j)));
    value.push_back(s.symbol("v" + std::to_string(j)));
  }
  size_t half = n / 2;
  auto block_max = [&](size_t lo, size_t hi) {
    ExprId m = score[lo];
    for (size_t j = lo + 1; j < hi; ++j) m = s.max(m, score[j]);
    return m;
  };
  ExprId m1 = block_max(0, half);
  ExprId m2 = s.max(m1, block_max(half, n));
  ExprId l = s.zero(), acc = s.zero();
  for (size_t j = 0; j < half; ++j) {
    ExprId p = s.exp(s.sub(score[j], m1));
    l = s.add(l, p);
    acc = s.add(acc, s.mul(p, value[j]));
  }
  ExprId alpha = s.exp(s.sub(m1, m2));
  l = s.mul(l, alpha);
  acc = s.mul(acc, alpha);
  for (size_t j = half; j < n; ++j) {
    ExprId p = s.exp(s.sub(score[j], m2));
    l = s.add(l, p);
    acc = s.add(acc, s.mul(p, value[j]));
  }
  ExprId m = block_max(0, n);
  ExprId nl = s.zero(), nacc = s.zero();
  for (size_t j = 0; j < n; ++j) {
    ExprId p = s.exp(s.sub(score[j], m));
    nl = s.add(nl, p);
    nacc = s.add(nacc, s.mul(p, value[j]));
  }
  return {s.div(acc, l), s.div(nacc, nl)};
}

TEST_F(DecideTest, RescaledRunningSumsMeetTheDirectSumBeforeThePolynomialForm) {
  TwoBlocks t = attention_row(s, 8);
  ExprId d = s.sub(t.flash, t.naive);
  ASSERT_NE(d, s.zero()) << "the Store alone does not distribute the rescaling factor";
  AtomNormalizer normalizer(s, PolyLimits{});
  EXPECT_EQ(normalizer.normalize(d), s.zero());
  EXPECT_EQ(decide(t.flash, t.naive).status, CellStatus::Proved);
}

TEST_F(DecideTest, AWrongRescalingFactorIsNotCancelled) {
  TwoBlocks t = attention_row(s, 8);
  // The running sum rescaled twice: exp(m1 - m2)^2 is not cancelled by anything.
  ExprId wrong = s.mul(t.flash, s.exp(s.sub(s.symbol("s0"), s.max(s.symbol("s0"), s.symbol("s1")))));
  AtomNormalizer normalizer(s, PolyLimits{});
  EXPECT_NE(normalizer.normalize(s.sub(wrong, t.naive)), s.zero());
  EXPECT_NE(decide(wrong, t.naive).status, CellStatus::Proved);
}

TEST_F(DecideTest, DistributionLeavesProductsOfSumsAndInfinitiesAlone) {
  AtomNormalizer normalizer(s, PolyLimits{});
  ExprId sum = s.add(x, y);
  ExprId two_sums = s.mul(sum, s.add(x, z));
  EXPECT_EQ(normalizer.normalize(two_sums), two_sums);
  ExprId quotient = s.div(x, sum);
  EXPECT_EQ(normalizer.normalize(quotient), quotient);
  ExprId distributed = normalizer.normalize(s.mul(s.exp(z), sum));
  EXPECT_EQ(distributed, s.add(s.mul(s.exp(z), x), s.mul(s.exp(z), y)));
}

TEST_F(DecideTest, MonomialDenominatorsCancelExactly) {
  auto form = [&](ExprId e) { return normal_form(s, e, PolyLimits{}).status; };
  ExprId x2y = s.mul(s.mul(x, x), y);
  // (x^3 y + x^2 y^2) / (x^2 y) = x + y
  ExprId lhs = s.div(s.add(s.mul(x2y, x), s.mul(x2y, y)), x2y);
  EXPECT_EQ(form(s.sub(lhs, s.add(x, y))), FormStatus::Zero);
  // x / y^2 + z / (x y) = (x^2 + y z) / (x y^2)
  ExprId sum = s.add(s.div(x, s.mul(y, y)), s.div(z, s.mul(x, y)));
  ExprId joined = s.div(s.add(s.mul(x, x), s.mul(y, z)), s.mul(x, s.mul(y, y)));
  EXPECT_EQ(form(s.sub(sum, joined)), FormStatus::Zero);
  // (x + 1) / x^2 - 1 / x = 1 / x^2, not zero
  EXPECT_EQ(form(s.sub(s.div(s.add(x, c(1)), s.mul(x, x)), s.recip(x))), FormStatus::NonZero);
  // 3 / (2 x) + 1 / (6 x) = 5 / (3 x): rational leading coefficients of the denominators
  ExprId r = s.add(s.div(c(3), s.mul(c(2), x)), s.div(c(1), s.mul(c(6), x)));
  EXPECT_EQ(form(s.sub(r, s.div(c(5), s.mul(c(3), x)))), FormStatus::Zero);
  EXPECT_EQ(form(s.sub(r, s.div(c(4), s.mul(c(3), x)))), FormStatus::NonZero);
}

}  // namespace
}  // namespace racer::decide::test
