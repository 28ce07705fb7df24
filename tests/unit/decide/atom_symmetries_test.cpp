// The atom normalizer's rewrites from what a function is: sqrt(u)^2 = u inside a product,
// erf and sin odd, cos and abs even, log increasing (through a max or a min of exps), and
// exp(q log(u)) = u^q. Each must keep the value wherever the original has one.
#include <cmath>
#include <random>

#include "decide/atom_normalizer.hpp"
#include "decide/normal_form.hpp"
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
  // exp of a sum of logs and other terms: log(a / b) taken apart comes back whole.
  const ExprId ex = s.exp(x), se = s.add(s.exp(y), s.exp(z));
  EXPECT_TRUE(same(s.exp(s.sub(s.log(s.add(ex, se)), s.log(se))), s.div(s.add(ex, se), se)));
  // The rest of such a sum in its normal form too: softcapped cross-entropy's log1p(exp(-|v|)),
  // v = tanh(x/30) - log(S)/30, read back through exp, leaves exp(-30 tanh(x/30)) beside the log
  // (tanh as 1 - 2/(exp(x/15) + 1)): one atom with exp(tanh(x/30))^30, not exp(-30) exp(1/(...))^60.
  {
    const ExprId t = s.tanh(s.mul(q(1, 30), x)), ty = s.tanh(s.mul(q(1, 30), y)), tz = s.tanh(s.mul(q(1, 30), z));
    const ExprId S = s.add(s.pow_int(s.exp(ty), 30), s.pow_int(s.exp(tz), 30)), E = s.pow_int(s.exp(t), 30);
    const ExprId v = s.sub(t, s.mul(q(1, 30), s.log(S)));
    const ExprId softplus_back = s.exp(s.log(s.add(s.pow_int(s.exp(s.neg(v)), 30), s.one())));
    EXPECT_TRUE(same(s.recip(softplus_back), s.div(E, s.add(E, S))));
  }
  EXPECT_TRUE(same(s.exp(s.add(s.log(se), y)), s.mul(se, s.exp(y))));
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Le, x, s.zero()), s.zero(), x), s.max(x, s.zero())));  // relu
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Lt, x, y), x, y), s.min(x, y)));
  EXPECT_TRUE(same(s.log(s.max(s.exp(s.add(x, c(2))), s.exp(s.add(y, c(2))))), s.max(s.add(x, c(2)), s.add(y, c(2)))));
  // |u| written as fmaxf(u, -u), -fminf(u, -u) and where(u <= 0, -u, u) (or u < 0).
  ExprId d = s.sub(y, z), absd = s.func(expr::FuncKind::Abs, d);
  EXPECT_TRUE(same(s.max(d, s.neg(d)), absd));
  EXPECT_TRUE(same(s.max(std::vector<ExprId>{s.neg(d), x, d}), s.max(x, absd)));
  EXPECT_TRUE(same(s.min(d, s.neg(d)), s.neg(absd)));
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Le, d, s.zero()), s.neg(d), d), absd));
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Lt, d, s.zero()), s.neg(d), d), absd));
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Lt, s.zero(), d), s.neg(d), d), s.neg(absd)));
  EXPECT_TRUE(same(s.select(s.cmp(expr::CmpOp::Lt, d, s.zero()), d, s.neg(d)), s.neg(absd)));
  // log of a product over its positive factors: exps, square roots, and what the symbols'
  // ranges keep above 0; log of a max of positive values. (Equal up to the Store's NaN guards,
  // 0 * log(r), which the normal form drops.)
  auto same_form = [&](ExprId a, ExprId b) { return normal_form(s, n.normalize(s.sub(a, b)), PolyLimits{}).status == FormStatus::Zero; };
  ExprId r = s.symbol("r_pos", expr::Range{mpq_class(1, 4), mpq_class(3)}), t = s.symbol("t_pos", expr::Range{mpq_class(1, 2), mpq_class(4)});
  EXPECT_TRUE(same_form(s.log(s.div(t, r)), s.sub(s.log(t), s.log(r))));
  EXPECT_TRUE(same_form(s.log(s.mul(s.exp(x), y)), s.add(x, s.log(y))));
  EXPECT_TRUE(same_form(s.log(s.sqrt(u)), s.mul(q(1, 2), s.log(u))));
  EXPECT_TRUE(same_form(s.log(s.div(r, s.mul(t, t))), s.sub(s.log(r), s.mul(c(2), s.log(t)))));
  EXPECT_TRUE(same_form(s.log(s.max(r, t)), s.max(s.log(r), s.log(t))));
  EXPECT_TRUE(same_form(s.log(s.max(s.exp(s.log(r)), s.sqrt(t))), s.max(s.log(r), s.mul(q(1, 2), s.log(t)))));
  EXPECT_TRUE(same_form(s.pow_int(s.exp(s.mul(q(-1, 4), s.log(r))), 2), s.div(c(1), s.sqrt(r))));
  EXPECT_TRUE(same_form(s.exp(s.log(s.div(c(1), s.sqrt(t)))), s.pow_int(s.exp(s.mul(q(1, 2), s.log(s.div(c(1), s.sqrt(t))))), 2)));
  // A product of sums is taken apart before it is multiplied out (a product of sums distributed
  // is one sum, which log no longer takes apart), also as exp(log(.)) factors; |erf(v)| = erf(|v|).
  ExprId r1 = s.add(r, c(1)), t2 = s.add(t, c(2));
  EXPECT_TRUE(same_form(s.log(s.mul(r1, t2)), s.add(s.log(r1), s.log(t2))));
  EXPECT_TRUE(same_form(s.log(s.mul(s.exp(s.log(r1)), s.exp(s.log(t2)))), s.add(s.log(r1), s.log(t2))));
  EXPECT_TRUE(same_form(s.log(s.mul(s.mul(r1, t2), s.add(x, c(9)))), s.add(s.add(s.log(r1), s.log(t2)), s.log(s.add(x, c(9))))));
  EXPECT_TRUE(same_form(s.func(expr::FuncKind::Abs, s.erf(x)), s.erf(s.func(expr::FuncKind::Abs, x))));
  // Factors the ranges keep below 0 (the Store takes a sum's sign out: 1/2 - v is -(v - 1/2)).
  ExprId v = s.symbol("v_neg", expr::Range{mpq_class(-4), mpq_class(-1, 2)});
  ExprId h1 = s.sub(q(1, 2), v), h2 = s.sub(q(3, 2), v);
  EXPECT_TRUE(same_form(s.log(s.mul(h1, h2)), s.add(s.log(h1), s.log(h2))));
  EXPECT_TRUE(same_form(s.log(s.mul(s.mul(h1, h2), h1)), s.add(s.mul(c(2), s.log(h1)), s.log(h2))));
  EXPECT_FALSE(same_form(s.log(s.mul(c(-1), s.mul(h1, h2))), s.add(s.log(h1), s.log(h2))));
  // A negative factor that is no sum stays under the log (its negation is a product holding it
  // again: taking it apart looped until the stack overflowed).
  ExprId v2 = s.symbol("v2_neg", expr::Range{mpq_class(-3), mpq_class(-1)});
  EXPECT_FALSE(same_form(s.log(s.mul(v, v2)), s.add(s.log(s.neg(v)), s.log(s.neg(v2)))));
  // The Store flattens max(m, -m) for m = max(S) into max(S, -m); ranges settle |u| and drop a
  // max's operand kept below another.
  ExprId m = s.max(d, x);
  EXPECT_TRUE(same_form(s.max(m, s.neg(m)), s.func(expr::FuncKind::Abs, m)));
  EXPECT_TRUE(same_form(s.func(expr::FuncKind::Abs, r), r));
  EXPECT_TRUE(same_form(s.func(expr::FuncKind::Abs, s.sub(r, c(4))), s.sub(c(4), r)));
  EXPECT_TRUE(same_form(s.max(c(-1), s.tanh(x)), s.tanh(x)));
  EXPECT_TRUE(same_form(s.min(c(1), s.add(r, c(2))), c(1)));
  // A max or min of exps, erfs or square roots is the function of the max or min.
  EXPECT_TRUE(same_form(s.max(s.erf(x), s.erf(d)), s.erf(s.max(x, d))));
  EXPECT_TRUE(same_form(s.min(s.exp(x), s.exp(d)), s.exp(s.min(x, d))));
  EXPECT_TRUE(same_form(s.min(s.sqrt(r), s.sqrt(t)), s.sqrt(s.min(t, r))));
  EXPECT_FALSE(same_form(s.max(s.erf(x), s.exp(d)), s.erf(s.max(x, d))));
  // Not the same functions: none of these may meet.
  EXPECT_FALSE(same_form(s.max(c(0), s.tanh(x)), s.tanh(x)));
  EXPECT_FALSE(same_form(s.func(expr::FuncKind::Abs, s.sub(r, c(1))), s.sub(r, c(1))));
  EXPECT_FALSE(same_form(s.max(s.max(d, x), s.neg(d)), s.func(expr::FuncKind::Abs, m)));
  EXPECT_FALSE(same_form(s.log(s.div(y, x)), s.sub(s.log(y), s.log(x))));  // x, y of either sign
  EXPECT_FALSE(same_form(s.exp(s.mul(q(-1, 2), s.log(u))), s.div(c(1), s.sqrt(u))));  // u = 0 inside x's range
  EXPECT_FALSE(same_form(s.log(s.max(x, r)), s.max(s.log(x), s.log(r))));
  EXPECT_FALSE(same_form(s.log(s.mul(r, t)), s.add(s.log(r), s.log(r))));
  EXPECT_FALSE(same_form(s.log(s.mul(s.add(x, c(1)), s.add(y, c(2)))), s.add(s.log(s.add(x, c(1))), s.log(s.add(y, c(2))))));
  EXPECT_FALSE(same_form(s.func(expr::FuncKind::Abs, s.erf(x)), s.erf(x)));
  EXPECT_FALSE(same(s.max(d, s.add(s.neg(d), q(1, 8))), absd));
  EXPECT_FALSE(same(s.select(s.cmp(expr::CmpOp::Lt, s.zero(), d), s.neg(d), d), absd));
  EXPECT_FALSE(same(s.select(s.cmp(expr::CmpOp::Lt, x, s.zero()), s.neg(d), d), absd));
  EXPECT_FALSE(same(s.select(s.cmp(expr::CmpOp::Lt, x, y), y, s.mul(c(2), x)), s.max(x, y)));
  EXPECT_FALSE(same(s.select(s.cmp(expr::CmpOp::Lt, x, y), x, y), s.max(x, y)));
  EXPECT_FALSE(same(s.func(expr::FuncKind::Erf, s.neg(y)), s.func(expr::FuncKind::Erf, y)));
  EXPECT_FALSE(same(s.log(s.max(s.exp(x), s.exp(y))), s.min(x, y)));
  EXPECT_FALSE(same(s.div(u, s.sqrt(u)), u));
  EXPECT_FALSE(same(s.exp(s.mul(q(-1, 2), s.log(u))), s.sqrt(u)));
}

// Forms the fuzzer found apart: tanh of a log against its exp form, fabsf of a where against the
// where of fabsf's, exp(s/4)^4 against the exps of s's terms, sqrt(x * x) against |x|, a row's max
// of fmaxf(w, -w) against its max of |w|, a max or min of tanh's against tanh of the max or min (and
// against the max of tanh's exp forms written by hand), tanh hoisted out of a where, and the
// difference of two selects on one comparison against the select of the differences. Each rewrite
// keeps the value wherever the original has one.
TEST_F(DecideTest, RewritesOfFunctionsThroughTheirArgumentsMeetThePlainForms) {
  AtomNormalizer n(s, PolyLimits{});
  auto same_form = [&](ExprId a, ExprId b) { return normal_form(s, n.normalize(s.sub(a, b)), PolyLimits{}).status == FormStatus::Zero; };
  const ExprId r = s.symbol("r_pos", expr::Range{mpq_class(1, 4), mpq_class(3)});
  const ExprId r2 = s.mul(r, r), one = c(1);
  EXPECT_TRUE(same_form(s.tanh(s.log(r)), s.div(s.sub(r2, one), s.add(r2, one))));
  EXPECT_FALSE(same_form(s.tanh(s.log(r)), s.div(s.sub(r2, one), s.add(r2, c(2)))));
  // log(|x| + 3/2) is finite: a positive constant plus a term at or above 0.
  const ExprId lg = s.log(s.add(s.abs(x), q(3, 2)));
  EXPECT_TRUE(s.is_finite(lg));
  EXPECT_FALSE(s.is_finite(s.log(s.add(s.abs(x), q(-1, 2)))));
  EXPECT_TRUE(s.surely_positive(s.add(s.mul(x, x), q(1, 1000000))));
  EXPECT_FALSE(s.surely_positive(s.add(s.mul(x, y), q(1, 1000000))));
  const ExprId cond = s.cmp(expr::CmpOp::Lt, s.neg(one), y);
  EXPECT_TRUE(same_form(s.add(s.abs(s.select(cond, lg, z)), q(1, 2)),
                        s.select(s.cmp(expr::CmpOp::Le, y, s.neg(one)), s.add(s.abs(z), q(1, 2)), s.add(s.abs(lg), q(1, 2)))));
  EXPECT_FALSE(same_form(s.abs(s.select(cond, lg, z)), s.select(cond, lg, z)));
  const ExprId quarter = s.exp(s.add(s.mul(q(1, 4), x), s.mul(q(1, 4), s.mul(y, z))));
  // (Through the decider, which merges exp(s/2) exp(s/4)^2 into exp(s/4)^4 first.)
  EXPECT_EQ(decide(s.mul(s.exp(s.add(s.mul(q(1, 2), x), s.mul(q(1, 2), s.mul(y, z)))), s.pow_int(quarter, 2)),
                   s.exp(s.add(x, s.mul(y, z)))).status, CellStatus::Proved);
  EXPECT_TRUE(same_form(s.pow_int(quarter, 4), s.exp(s.add(x, s.mul(y, z)))));
  EXPECT_NE(decide(s.pow_int(quarter, 2), s.exp(s.add(x, s.mul(y, z)))).status, CellStatus::Proved);
  EXPECT_TRUE(same_form(s.sqrt(s.mul(x, x)), s.abs(x)));
  EXPECT_TRUE(same_form(s.sqrt(s.mul(q(9, 4), r2)), s.mul(q(3, 2), r)));
  EXPECT_FALSE(same_form(s.sqrt(s.mul(x, x)), x));
  // sqrt(a b) stays whole (taken apart, sqrt(sigmoid(c)) = sqrt(1 / (1 + exp(-c))) no longer met
  // sqrt(exp(c) / (1 + exp(c)))); only the even powers leave it.
  EXPECT_TRUE(same_form(s.sqrt(s.recip(s.add(one, s.exp(s.neg(x))))), s.sqrt(s.div(s.exp(x), s.add(one, s.exp(x))))));
  std::vector<ExprId> both, absolute;
  for (ExprId w : {s.sub(x, y), s.sub(y, z), s.add(x, z)}) {
    both.push_back(s.max(w, s.neg(w)));
    absolute.push_back(s.abs(w));
  }
  EXPECT_TRUE(same_form(s.max(both), s.max(absolute)));
  both.back() = s.add(both.back(), q(1, 8));
  EXPECT_FALSE(same_form(s.max(both), s.max(absolute)));
  const ExprId u = s.add(x, z);
  EXPECT_TRUE(same_form(s.max(std::vector<ExprId>{s.tanh(x), s.tanh(y), s.tanh(u)}), s.tanh(s.max(std::vector<ExprId>{x, y, u}))));
  EXPECT_TRUE(same_form(s.min(s.tanh(x), s.tanh(y)), s.tanh(s.min(x, y))));
  EXPECT_FALSE(same_form(s.max(s.tanh(x), s.tanh(y)), s.tanh(s.min(x, y))));
  auto by_hand = [&](ExprId v) {
    const ExprId e = s.exp(s.mul(c(2), v));
    return s.div(s.sub(e, one), s.add(e, one));
  };
  EXPECT_TRUE(same_form(s.max(by_hand(x), by_hand(u)), s.tanh(s.max(x, u))));
  EXPECT_TRUE(same_form(s.neg(s.min(s.neg(by_hand(x)), s.neg(by_hand(u)))), s.tanh(s.max(x, u))));
  EXPECT_TRUE(same_form(by_hand(s.max(x, u)), s.tanh(s.max(x, u))));  // tanh of a max written out
  EXPECT_TRUE(same_form(s.max(by_hand(s.max(x, u)), x), s.max(s.tanh(s.max(x, u)), x)));
  EXPECT_FALSE(same_form(by_hand(s.max(x, u)), s.tanh(s.min(x, u))));
  const ExprId lt = s.cmp(expr::CmpOp::Lt, y, z), quad = s.add(y, s.mul(y, y));
  EXPECT_TRUE(same_form(s.tanh(s.sub(s.select(lt, c(0), quad), s.select(lt, x, z))),
                        s.select(lt, s.neg(s.tanh(x)), s.tanh(s.sub(quad, z)))));
  EXPECT_FALSE(same_form(s.tanh(s.sub(s.select(lt, c(0), quad), s.select(lt, x, z))),
                         s.select(lt, s.tanh(x), s.tanh(s.sub(quad, z)))));
  EXPECT_TRUE(same_form(s.sub(s.select(lt, c(0), quad), s.select(lt, x, z)), s.select(lt, s.neg(x), s.sub(quad, z))));
  // Values at points where both sides have one.
  const ExprId originals[] = {s.tanh(s.log(r)), s.abs(s.select(cond, lg, z)), s.pow_int(s.exp(s.mul(q(1, 4), s.add(x, y))), 4),
                              s.sqrt(s.mul(x, x)), s.max(absolute), s.min(s.tanh(x), s.tanh(y)),
                              s.tanh(s.sub(s.select(lt, c(0), quad), s.select(lt, x, z))), s.tanh(s.max(x, u)),
                              by_hand(s.max(x, u))};
  std::mt19937_64 rng(36);
  for (ExprId e : originals) {
    const ExprId normalized = n.normalize(e);
    for (int p = 0; p < 16; ++p) {
      expr::Assignment at;
      for (ExprId v : {x, y, z}) at.set(v, mpq_class(static_cast<long>(rng() % 33) - 16, 4));
      at.set(r, mpq_class(static_cast<long>(rng() % 11) + 1, 4));
      RoundingBound vo(s, FloatModel{}, at), vr(s, FloatModel{}, at);
      auto want = vo.at(e), got = vr.at(normalized);
      ASSERT_TRUE(want && got) << str(e);
      EXPECT_LE(std::fabs(got->value - want->value), 1e-12L * (1 + std::fabs(want->value))) << str(e) << " -> " << str(normalized);
    }
  }
}

// Random products and functions of the shapes rewritten, at random points: wherever the
// original has a value, the rewrite has the same one.
TEST_F(DecideTest, SquareRootPowersMeetWhereTheBaseReadsALog) {
  // u * rsqrt(u) per element of a product reduction, u = |log(|z_j - w_j| + 1/2)| + 1/2: a log of
  // data may be -inf, so the product is not finite; it still meets the product of sqrt(u_j).
  std::vector<ExprId> roots, written;
  for (int j = 0; j < 4; ++j) {
    ExprId z = sym("z" + std::to_string(j)), w = sym("w" + std::to_string(j));
    ExprId u = s.add(s.abs(s.log(s.add(s.abs(s.sub(z, w)), q(1, 2)))), q(1, 2));
    roots.push_back(s.sqrt(u));
    written.push_back(s.mul(u, s.pow_int(s.sqrt(u), -1)));
  }
  EXPECT_EQ(decide(s.mul(roots), s.mul(written)).status, CellStatus::Proved);
  written.back() = s.mul(s.add(x, written.back()), s.pow_int(s.sqrt(x), -1));  // one factor changed
  EXPECT_NE(decide(s.mul(roots), s.mul(written)).status, CellStatus::Proved);
}

TEST_F(DecideTest, TheSymmetryRewritesKeepTheValue) {
  std::mt19937_64 rng(5);
  auto pick = [&] {
    const ExprId choices[] = {x, y, s.add(x, y), s.sub(y, x), s.mul(q(-3, 2), x), s.add(s.mul(x, x), q(1, 4))};
    return choices[rng() % 6];
  };
  int rewritten = 0, compared = 0;
  for (int trial = 0; trial < 400; ++trial) {
    ExprId a = pick(), b = pick(), e;
    switch (rng() % 8) {
      case 7: {
        // Logs of products and maxima over exps, square roots, a ranged symbol and sums of squares.
        const ExprId pos = s.symbol("p_pos", expr::Range{mpq_class(1, 8), mpq_class(5)}), sq = s.add(s.mul(a, a), q(1, 3));
        const ExprId factors[] = {s.exp(b), s.sqrt(sq), pos, sq, s.add(a, c(2)), s.pow_int(pos, -2),
                                  s.pow_int(s.exp(s.mul(q(-1, 4), s.log(pos))), 2)};
        ExprId prod = s.mul(factors[rng() % 7], factors[rng() % 7]);
        e = rng() % 2 ? s.log(s.mul(prod, q(static_cast<long>(rng() % 5) + 1, 3))) : s.log(s.max(prod, factors[rng() % 7]));
        break;
      }
      case 6: {
        const ExprId zero = s.zero(), na = s.neg(a);
        const ExprId ma = s.max(a, b), pos = s.symbol("p_pos", expr::Range{mpq_class(1, 8), mpq_class(5)});
        if (rng() % 4 == 0) {
          const ExprId fa = rng() % 2 ? s.exp(a) : s.erf(a), fb = rng() % 2 ? s.exp(b) : s.erf(b);
          e = rng() % 2 ? s.max(fa, fb) : s.min(fa, fb);
          break;
        }
        if (rng() % 3 == 0) {
          e = s.add(std::vector<ExprId>{s.max(ma, s.neg(ma)), s.max(q(-1, 1), s.tanh(a)), s.func(expr::FuncKind::Abs, s.sub(pos, c(6)))});
          break;
        }
        e = rng() % 2 ? s.add(s.max(a, na), s.min(std::vector<ExprId>{na, b, a}))
                      : s.select(s.cmp(rng() % 2 ? expr::CmpOp::Le : expr::CmpOp::Lt, a, zero), rng() % 2 ? na : a, rng() % 2 ? a : na);
        break;
      }
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
      at.set(s.symbol("p_pos", expr::Range{mpq_class(1, 8), mpq_class(5)}), mpq_class(static_cast<long>(rng() % 40) + 1, 8));
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
