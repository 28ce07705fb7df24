// Deferred running sums (exec/deferred_sums.hpp): a sum whose steps were records must settle
// to exactly the node the steps would have built one fma at a time, whatever its length, its
// base and its terms, and nothing may read one as a number before it is settled.
#include <gtest/gtest.h>

#include <random>

#include "exec/refusal.hpp"
#include "exec/symbolic_domain.hpp"

namespace racer::exec {
namespace {

using expr::ExprId;

class DeferredSumsTest : public ::testing::Test {
 protected:
  expr::Store s;
  DeferredSums sums{s};
  ExprId x = s.symbol("x"), y = s.symbol("y"), z = s.symbol("z"), w = s.symbol("w");
  // Operands an fma meets: inputs, constants, products, sums, functions, a negated input, and
  // the same ones again, so that terms merge and cancel.
  std::vector<ExprId> pool{x, y, z, w, s.constant(3), s.constant(mpq_class(-1, 8)), s.mul(x, y), s.add(y, z), s.exp(z),
                           s.neg(x), s.mul(s.constant(-2), w), s.add(s.mul(x, y), s.constant(1))};

  // The sum the steps (a_i, b_i) build from base one fma at a time, as the engine always did.
  ExprId step_by_step(ExprId base, const std::vector<std::pair<ExprId, ExprId>>& steps) {
    ExprId acc = base;
    for (auto [a, b] : steps) acc = s.add(s.mul(a, b), acc);
    return acc;
  }
  Value deferred(ExprId base, const std::vector<std::pair<ExprId, ExprId>>& steps) {
    Value v = sums.start(base, steps[0].first, steps[0].second);
    for (size_t i = 1; i < steps.size(); ++i) v = sums.extend(v, steps[i].first, steps[i].second);
    return v;
  }
};

TEST_F(DeferredSumsTest, SettledSumsAreTheSumsBuiltStepByStep) {
  std::mt19937 rng(11);
  const std::vector<ExprId> bases{s.zero(), s.constant(5), x, s.add(x, s.mul(y, z)), s.mul(s.constant(mpq_class(1, 3)), w)};
  for (int trial = 0; trial < 400; ++trial) {
    // Lengths on both sides of the steps settled one by one and those settled all at once.
    const size_t n = 1 + rng() % (trial % 2 ? 6 : 90);
    std::vector<std::pair<ExprId, ExprId>> steps;
    for (size_t i = 0; i < n; ++i) steps.emplace_back(pool[rng() % pool.size()], pool[rng() % pool.size()]);
    // A term and its negation: the sum must come out without it.
    if (trial % 7 == 0) steps.emplace_back(steps[0].first, s.neg(steps[0].second));
    const ExprId base = bases[rng() % bases.size()];
    Value v = deferred(base, steps);
    ASSERT_TRUE(v.is_deferred());
    EXPECT_EQ(sums.settle(v), step_by_step(base, steps)) << "trial " << trial << ", " << steps.size() << " steps";
  }
}

TEST_F(DeferredSumsTest, ChainsThatShareAPrefixSettleApart) {
  Value prefix = deferred(s.zero(), {{x, y}, {y, z}, {z, w}, {w, x}, {x, x}});
  Value one = sums.extend(prefix, y, y), other = sums.extend(prefix, z, s.constant(2));
  EXPECT_EQ(sums.settle(one), step_by_step(s.zero(), {{x, y}, {y, z}, {z, w}, {w, x}, {x, x}, {y, y}}));
  EXPECT_EQ(sums.settle(other), step_by_step(s.zero(), {{x, y}, {y, z}, {z, w}, {w, x}, {x, x}, {z, s.constant(2)}}));
  EXPECT_EQ(sums.settle(prefix), step_by_step(s.zero(), {{x, y}, {y, z}, {z, w}, {w, x}, {x, x}}));
}

TEST_F(DeferredSumsTest, SumsAcrossPagesOfStepsAndAfterAClearSettleWhole) {
  int checks = 0;
  sums.set_limits_check([&] { ++checks; });
  for (int round = 0; round < 2; ++round) {
    const size_t n = 3 * (size_t{1} << 16) + 5;  // steps in four pages of the arena
    Value v = sums.start(s.constant(7), x, y);
    for (size_t i = 1; i < n; ++i) v = i % 3 ? sums.extend(v, x, y) : sums.extend(v, z, s.constant(-1));
    const size_t z_steps = (n - 1) / 3, xy_steps = n - z_steps;
    const std::vector<ExprId> terms{s.constant(7), s.mul(s.constant(long(xy_steps)), s.mul(x, y)), s.mul(s.constant(-long(z_steps)), z)};
    EXPECT_EQ(sums.settle(v), s.add(terms));
    EXPECT_EQ(sums.steps(), n + 1);  // (the base's record)
    EXPECT_GE(checks, 4 * (round + 1)) << "the limits are checked while a long sum settles";
    sums.clear();
    EXPECT_EQ(sums.steps(), 0u);
  }
}

TEST_F(DeferredSumsTest, ADeferredSumIsNoNumberUntilSettled) {
  Value v = deferred(s.zero(), {{x, y}});
  EXPECT_TRUE(v.is_symbolic());
  EXPECT_FALSE(v.is_concrete());
  EXPECT_THROW(v.expr(), Refusal);
}

class DeferringDomainTest : public ::testing::Test {
 protected:
  expr::Store s;
  SymbolicDomain dom{s};
  Value x = Value::of_expr(s.symbol("x")), y = Value::of_expr(s.symbol("y")), z = Value::of_expr(s.symbol("z"));
  static constexpr ptx::Type F32 = ptx::Type::F32;
  // fma_deferred steps from `c`, settled by dom, against fma's steps.
  Value chain(Value c, int n, bool deferring) {
    for (int i = 0; i < n; ++i) c = deferring ? dom.fma_deferred(F32, i % 2 ? x : y, z, c, {}) : dom.fma(F32, i % 2 ? x : y, z, c, {});
    return c;
  }
};

TEST_F(DeferringDomainTest, EveryOperationSettlesADeferredOperand) {
  Value deferred = chain(Value::of_bits(0), 9, true), eager = chain(Value::of_bits(0), 9, false);
  ASSERT_TRUE(deferred.is_deferred());
  EXPECT_EQ(dom.fbin(FBin::Mul, F32, deferred, x, {}).expr(), dom.fbin(FBin::Mul, F32, eager, x, {}).expr());
  EXPECT_EQ(dom.fun(FUn::Neg, F32, deferred, {}).expr(), dom.fun(FUn::Neg, F32, eager, {}).expr());
  EXPECT_EQ(dom.settle(deferred).expr(), eager.expr());
  // A non-deferring step on a deferred sum, and a saturating one, give plain values.
  EXPECT_EQ(dom.fma(F32, x, y, deferred, {}).expr(), dom.fma(F32, x, y, eager, {}).expr());
  Value sat = dom.fma_deferred(F32, x, y, deferred, FloatMods{.sat = true});
  EXPECT_FALSE(sat.is_deferred());
  EXPECT_EQ(sat.expr(), dom.fma(F32, x, y, eager, FloatMods{.sat = true}).expr());
}

TEST_F(DeferringDomainTest, StepsWithAnInfinityAreTakenAtOnce) {
  const Value inf = Value::of_bits(0x7F800000u);  // +inf as f32 bits
  Value started = chain(Value::of_bits(0), 3, true);
  Value with_inf = dom.fma_deferred(F32, inf, x, started, {});
  EXPECT_FALSE(with_inf.is_deferred());
  EXPECT_EQ(with_inf.expr(), dom.fma(F32, inf, x, chain(Value::of_bits(0), 3, false), {}).expr());
  EXPECT_FALSE(dom.fma_deferred(F32, x, y, inf, {}).is_deferred());
}

}  // namespace
}  // namespace racer::exec
