// The FLINT normal form on its own: expansion, cancellation, canonical expanded forms,
// and limits that stop early instead of hanging.
#include <chrono>

#include "decide/normal_form.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

FormStatus status(const expr::Store& s, ExprId e, PolyLimits lim = {}) { return normal_form(s, e, lim).status; }

TEST_F(DecideTest, NormalFormExpandsAndCancels) {
  ExprId sq = s.pow_int(s.add(x, y), 2);
  ExprId expanded = s.add(std::vector<ExprId>{s.mul(x, x), s.mul(std::vector<ExprId>{c(2), x, y}), s.mul(y, y)});
  ASSERT_NE(s.sub(sq, expanded), s.zero()) << "the Store alone does not expand";
  EXPECT_EQ(status(s, s.sub(sq, expanded)), FormStatus::Zero);
  EXPECT_EQ(status(s, s.sub(sq, s.add(expanded, c(1)))), FormStatus::NonZero);
}

TEST_F(DecideTest, NormalFormCancelsCommonFactors) {
  // (x^2 - 1)/(x - 1) - (x + 1): zero as a rational function.
  ExprId lhs = s.div(s.sub(s.mul(x, x), c(1)), s.sub(x, c(1)));
  EXPECT_EQ(status(s, s.sub(lhs, s.add(x, c(1)))), FormStatus::Zero);
  // 1/(x+1) + x/(x+1) = 1, and 1/x - 1/y = (y - x)/(x y).
  ExprId d = s.add(s.recip(s.add(x, c(1))), s.div(x, s.add(x, c(1))));
  EXPECT_EQ(status(s, s.sub(d, c(1))), FormStatus::Zero);
  ExprId e = s.sub(s.sub(s.recip(x), s.recip(y)), s.div(s.sub(y, x), s.mul(x, y)));
  EXPECT_EQ(status(s, e), FormStatus::Zero);
}

TEST_F(DecideTest, NormalFormTreatsAtomsAsVariables) {
  ExprId ex = s.exp(x);
  ExprId e = s.sub(s.pow_int(s.add(ex, c(1)), 2), s.add(std::vector<ExprId>{s.mul(ex, ex), s.mul(c(2), ex), c(1)}));
  EXPECT_EQ(status(s, e), FormStatus::Zero);
  FormResult r = normal_form(s, s.sub(s.exp(x), s.exp(y)), {});
  EXPECT_EQ(r.status, FormStatus::NonZero);
  EXPECT_FALSE(r.symbols_only);
  EXPECT_TRUE(normal_form(s, s.sub(x, y), {}).symbols_only);
}

// sqrt(c) of a rational constant is an atom whose square is c: (sqrt(2) + x)(sqrt(2) - x) is
// 2 - x^2, and bitsandbytes' LAMB divides by sqrt(c) where its reference multiplies (the terms
// meet only once sqrt(c)^2 is c). A real difference stays nonzero.
TEST_F(DecideTest, NormalFormKnowsTheSquareOfAConstantsRoot) {
  const ExprId r2 = s.sqrt(c(2)), ru = s.sqrt(s.add(y, c(3))), rc = s.sqrt(q(3, 7)), e = q(1, 1000);
  EXPECT_EQ(status(s, s.sub(s.mul(s.add(r2, x), s.sub(r2, x)), s.sub(c(2), s.mul(x, x)))), FormStatus::Zero);
  const ExprId divided = s.div(x, s.add(s.div(ru, rc), e)), multiplied = s.div(s.mul(x, rc), s.add(ru, s.mul(e, rc)));
  EXPECT_EQ(status(s, s.sub(divided, multiplied)), FormStatus::Zero);
  EXPECT_EQ(status(s, s.sub(s.pow_int(s.add(r2, x), 2), s.add(c(2), s.mul(x, x)))), FormStatus::NonZero);
  EXPECT_EQ(status(s, s.sub(divided, s.mul(c(2), multiplied))), FormStatus::NonZero);
}

TEST_F(DecideTest, NormalFormRefusesInfinitiesAndZeroDivisors) {
  EXPECT_EQ(status(s, s.add(x, s.pos_inf())), FormStatus::NotRational);
  // 1/(x - x) is folded by the Store already; 1/((x+1)^2 - x^2 - 2x - 1) is not.
  ExprId zero_fn = s.sub(s.pow_int(s.add(x, c(1)), 2), s.add(std::vector<ExprId>{s.mul(x, x), s.mul(c(2), x), c(1)}));
  ASSERT_NE(zero_fn, s.zero());
  EXPECT_EQ(status(s, s.recip(zero_fn)), FormStatus::NotRational);
}

TEST_F(DecideTest, ExpandedFormsMeet) {
  ExprId a = s.pow_int(s.add(x, c(1)), 2);
  ExprId b = s.add(std::vector<ExprId>{s.mul(x, x), s.mul(c(2), x), c(1)});
  ASSERT_NE(a, b);
  EXPECT_EQ(expanded_form(s, a, {}), expanded_form(s, b, {}));
  ExprId r1 = s.div(s.sub(s.mul(x, x), c(1)), s.sub(s.mul(c(2), x), c(2)));  // (x^2-1)/(2x-2)
  ExprId r2 = s.div(s.add(x, c(1)), c(2));
  EXPECT_EQ(expanded_form(s, r1, {}), expanded_form(s, r2, {}));
  ExprId r3 = s.div(c(3), s.add(s.mul(c(2), x), y));
  ExprId r4 = s.div(s.mul(c(6), z), s.add(s.mul(c(4), s.mul(x, z)), s.mul(c(2), s.mul(y, z))));
  EXPECT_EQ(expanded_form(s, r3, {}), expanded_form(s, r4, {}));
}

TEST_F(DecideTest, NormalFormStopsAtLimitsQuickly) {
  // (x + y + z + 1)^40 has 135751 terms: far beyond the term limit.
  std::vector<ExprId> terms{x, y, z, c(1)};
  ExprId big = s.pow_int(s.add(terms), 40);
  auto t0 = std::chrono::steady_clock::now();
  FormResult r = normal_form(s, s.sub(big, x), {});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.status, FormStatus::TooLarge);
  EXPECT_FALSE(r.why.empty());
  EXPECT_LT(secs, 2.0);
  EXPECT_EQ(normal_form(s, s.pow_int(x, 100000), {}).status, FormStatus::TooLarge) << "degree limit";
  EXPECT_EQ(normal_form(s, s.sub(s.pow_int(x, 100000), s.pow_int(x, 100000)), {}).status, FormStatus::Zero)
      << "the Store cancels equal powers before any expansion";
}

}  // namespace
}  // namespace racer::decide::test
