// Comparisons that read no symbol are settled by balls where their sides differ (a rotary
// frequency 3 * 10000^(-1/16) against a sine's range-reduction bound), and left open where
// the sides are equal or a side has no value.
#include "decide/ball_eval.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

using expr::CmpOp;

TEST_F(DecideTest, GroundComparisonsAreSettledByBalls) {
  ExprId freq = s.mul(c(3), s.exp(s.mul(q(-1, 16), s.log(c(10000)))));  // about 1.687
  EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Lt, freq, c(105615))), std::optional<bool>(true));
  EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Lt, freq, q(1687, 1000))), std::optional<bool>(false));
  EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Le, q(1688, 1000), freq)), std::optional<bool>(false));
  EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Gt, freq, q(1686, 1000))), std::optional<bool>(true));
  EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Eq, freq, c(2))), std::optional<bool>(false));
  EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Ne, freq, c(2))), std::optional<bool>(true));
  // exp(log 2) = 2: equal sides never separate, so nothing is said (not even for <=).
  ExprId two = s.exp(s.log(c(2)));
  if (two != c(2)) {
    EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Le, two, c(2))), std::nullopt);
  }
  // sqrt(2)^2 against 2, and a side with no value (log of -1).
  ExprId r2 = s.sqrt(c(2));
  ExprId square = s.mul(r2, r2);
  if (square != c(2)) {
    EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Lt, square, c(2))), std::nullopt);
  }
  EXPECT_EQ(ground_comparison(s, s.cmp(CmpOp::Lt, s.log(c(-1)), c(0))), std::nullopt);
  // Not a comparison.
  EXPECT_EQ(ground_comparison(s, freq), std::nullopt);
}

}  // namespace
}  // namespace racer::decide::test
