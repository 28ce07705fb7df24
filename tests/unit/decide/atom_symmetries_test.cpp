// The atom normalizer's rewrites from what a function is: sqrt(u)^2 = u inside a product,
// erf and sin odd, cos and abs even, log increasing (through a max or a min of exps), and
// exp(q log(u)) = u^q. Each must keep the value wherever the original has one.
#include <cmath>
#include <random>

#include "decide/atom_normalizer.hpp"
#include "decide/rounding_bound.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

TEST_F(DecideTest, AFunctionsSymmetriesMeetItsPlainForms) {
  AtomNormalizer n(s, PolyLimits{});
  auto same = [&](ExprId a, ExprId b) { return n.normalize(s.sub(a, b)) == s.zero(); };
  ExprId u = s.add(x, s.constant(3));
  EXPECT_TRUE(same(s.div(u, s.sqrt(u)), s.sqrt(u)));                         // u / sqrt(u)
  EXPECT_TRUE(same(s.mul(s.sqrt(u), s.sqrt(u)), u));                         // sqrt(u)^2
  EXPECT_TRUE(same(s.mul(u, s.pow_int(s.sqrt(u), -3)), s.pow_int(s.sqrt(u), -1)));
  EXPECT_TRUE(same(s.neg(s.func(expr::FuncKind::Erf, s.neg(y))), s.func(expr::FuncKind::Erf, y)));
  EXPECT_TRUE(same(s.func(expr::FuncKind::Abs, s.sub(z, y)), s.func(expr::FuncKind::Abs, s.sub(y, z))));
  EXPECT_TRUE(same(s.cos(s.neg(x)), s.cos(x)));
  EXPECT_TRUE(same(s.log(s.max(s.exp(x), s.exp(y))), s.max(x, y)));
  EXPECT_TRUE(same(s.log(s.min(s.exp(x), s.exp(y))), s.min(x, y)));
  EXPECT_TRUE(same(s.exp(s.mul(q(3, 2), s.log(u))), s.mul(u, s.sqrt(u))));
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Le, x, s.zero()), s.zero(), x), s.max(x, s.zero())));  // relu
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Lt, x, y), x, y), s.min(x, y)));
  EXPECT_TRUE(same(s.log(s.max(s.exp(s.add(x, c(2))), s.exp(s.add(y, c(2))))), s.max(s.add(x, c(2)), s.add(y, c(2)))));
  // Not the same functions: none of these may meet.
  EXPECT_FALSE(same(s.select(s.cmp(expr::CmpOp::Lt, x, y), y, s.mul(c(2), x)), s.max(x, y)));
  EXPECT_FALSE(same(s.select(s.cmp(expr::CmpOp::Lt, x, y), x, y), s.max(x, y)));
  EXPECT_FALSE(same(s.func(expr::FuncKind::Erf, s.neg(y)), s.func(expr::FuncKind::Erf, y)));
  EXPECT_FALSE(same(s.log(s.max(s.exp(x), s.exp(y))), s.min(x, y)));
  EXPECT_FALSE(same(s.div(u, s.sqrt(u)), u));
  EXPECT_FALSE(same(s.exp(s.mul(q(-1, 2), s.log(u))), s.sqrt(u)));
}

// Random products and functions of the shapes rewritten, at random points: wherever the
// original has a value, the rewrite has the same one.
TEST_F(DecideTest, TheSymmetryRewritesKeepTheValue) {
  std::mt19937_64 rng(5);
  auto pick = [&] {
    const ExprId choices[] = {x, y, s.add(x, y), s.sub(y, x), s.mul(q(-3, 2), x), s.add(s.mul(x, x), q(1, 4))};
    return choices[rng() % 6];
  };
  int rewritten = 0, compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ExprId a = pick(), b = pick(), e;
    switch (rng() % 6) {
      case 0: e = s.mul(s.pow_int(a, static_cast<long>(rng() % 5) - 2), s.pow_int(s.sqrt(a), static_cast<long>(rng() % 7) - 3)); break;
      case 1: e = s.func(expr::FuncKind::Erf, s.neg(a)); break;
      case 2: e = s.add(s.cos(s.neg(a)), s.func(expr::FuncKind::Abs, s.neg(b))); break;
      case 3: e = s.log(rng() % 2 ? s.max(s.exp(a), s.exp(b)) : s.min(s.exp(a), s.exp(b))); break;
      case 4: e = rng() % 2 ? s.log(s.max(s.exp(a), s.min(s.exp(b), s.mul(q(3, 2), s.exp(a)))))
                            : s.add(s.select(s.cmp(expr::CmpOp::Le, a, b), b, a), s.select(s.cmp(expr::CmpOp::Lt, a, b), a, b));
        break;
      default: e = s.exp(s.mul(s.constant(mpq_class(static_cast<long>(rng() % 6) + 1, 2)), s.log(a))); break;
    }
    AtomNormalizer n(s, PolyLimits{});
    ExprId r = n.normalize(e);
    rewritten += r != e;
    for (int p = 0; p < 8; ++p) {
      expr::Assignment at;
      at.set(x, mpq_class(static_cast<long>(rng() % 33) - 16, 4));
      at.set(y, mpq_class(static_cast<long>(rng() % 33) - 16, 4));
      RoundingBound vo(s, FloatModel{}, at), vr(s, FloatModel{}, at);
      auto want = vo.at(e);
      if (!want) continue;
      auto got = vr.at(r);
      ASSERT_TRUE(got) << str(e) << " -> " << str(r) << " has no value where the original has " << static_cast<double>(want->value);
      ++compared;
      EXPECT_LE(std::fabs(got->value - want->value), 1e-12L * (1 + std::fabs(want->value))) << str(e) << " -> " << str(r);
    }
  }
  EXPECT_GT(rewritten, 150);
  EXPECT_GT(compared, 1000);
}

}  // namespace
}  // namespace racer::decide::test
