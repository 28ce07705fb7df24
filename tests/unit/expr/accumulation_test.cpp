// A sum accumulated one term at a time (a dot product in a register) takes the Store's
// one-term path; it must give exactly the node the general path builds from all terms at
// once, including merged, cancelled and scaled terms.
#include <random>

#include "fixture.hpp"

namespace racer::expr::test {
namespace {

// 2 to 1 + max_more operands drawn from pool, and the node built from them one at a time by
// two(acc, x) or two(x, acc) from `start`.
struct Chain {
  std::vector<ExprId> operands;
  ExprId built;
};
template <class Two>
Chain random_chain(const std::vector<ExprId>& pool, ExprId start, Two two, std::mt19937& rng, unsigned max_more) {
  Chain ch{{}, start};
  const size_t n = 2 + rng() % max_more;
  for (size_t i = 0; i < n; ++i) {
    ExprId t = pool[rng() % pool.size()];
    ch.operands.push_back(t);
    ch.built = (rng() % 2) ? two(ch.built, t) : two(t, ch.built);
  }
  return ch;
}

TEST_F(ExprTest, TermByTermSumsAreTheSumsBuiltAtOnce) {
  std::vector<ExprId> pool{x, y, z, s.exp(x), s.mul(x, y), s.mul(c(3), s.mul(x, y)), s.mul(c(-2), z),
                           s.mul(q(1, 8), s.mul(y, z)), s.neg(x), s.sin(y), s.mul(c(-3), s.mul(x, y))};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    Chain ch = random_chain(pool, s.zero(), [&](ExprId l, ExprId r) { return s.add(l, r); }, rng, 12);
    if (rng() % 3 == 0) {
      ch.operands.push_back(c(5));
      ch.built = s.add(ch.built, c(5));
    }
    EXPECT_EQ(ch.built, s.add(ch.operands)) << str(ch.built) << " vs " << str(s.add(ch.operands));
  }
  expect_all_canonical();
}

// The same for products: a factor multiplied into a product takes the one-factor path, which
// must give the node the general path builds from all factors at once (merged exponents,
// cancelled factors, coefficients).
TEST_F(ExprTest, FactorByFactorProductsAreTheProductsBuiltAtOnce) {
  std::vector<ExprId> pool{x, y, z, s.exp(x), s.sin(y), s.pow_int(z, -1), s.mul(c(3), x), s.add(x, y), s.pow_int(x, -2), s.sqrt(z)};
  std::mt19937 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    Chain ch = random_chain(pool, s.one(), [&](ExprId l, ExprId r) { return s.mul(l, r); }, rng, 10);
    EXPECT_EQ(ch.built, s.mul(ch.operands)) << str(ch.built) << " vs " << str(s.mul(ch.operands));
  }
  expect_all_canonical();
}

TEST_F(ExprTest, TermByTermCancellationLeavesTheRemainingTerms) {
  ExprId sum = s.add(s.add(x, y), z);
  EXPECT_EQ(s.add(sum, s.neg(z)), s.add(x, y));
  EXPECT_EQ(s.add(s.add(x, y), s.neg(y)), x);
  EXPECT_EQ(s.add(s.add(s.add(x, c(1)), y), s.neg(y)), s.add(x, c(1)));
  EXPECT_EQ(s.add(s.add(sum, z), s.mul(c(-2), z)), s.add(x, y));
  // A zero-coefficient product is the Store's NaN guard: it is not dropped as a zero term.
  ExprId inf_term = s.add(sum, s.mul(c(0), s.pos_inf()));
  EXPECT_EQ(inf_term, s.add(std::vector<ExprId>{x, y, z, s.mul(c(0), s.pos_inf())}));
}

// A long running sum shares its prefix with the sum before it. Sharing must never show: every
// intermediate sum keeps its own terms when another sum extends the same prefix differently
// (two paths of a branch), and each equals the sum built at once.
TEST_F(ExprTest, LongRunningSumsThatBranchKeepEveryIntermediate) {
  std::vector<ExprId> xs;
  for (int i = 0; i < 200; ++i) xs.push_back(s.symbol("v[" + std::to_string(i) + "]"));
  std::vector<ExprId> prefix_sums{s.zero()};
  for (int i = 0; i < 200; ++i) prefix_sums.push_back(s.add(prefix_sums.back(), s.mul(xs[i], x)));
  // Branches off the middle: the same prefix extended by another term, twice.
  ExprId left = s.add(prefix_sums[100], s.mul(c(3), z));
  ExprId right = s.add(prefix_sums[100], s.mul(c(-1), z));
  ExprId with_constant = s.add(prefix_sums[150], c(7));
  ExprId onto_constant = s.add(with_constant, s.mul(xs[0], y));
  for (int k = 1; k <= 200; k += 11) {
    std::vector<ExprId> terms;
    for (int i = 0; i < k; ++i) terms.push_back(s.mul(xs[i], x));
    EXPECT_EQ(prefix_sums[k], s.add(terms)) << k;
    if (k == 100) {
      terms.push_back(s.mul(c(3), z));
      EXPECT_EQ(left, s.add(terms));
      terms.back() = s.mul(c(-1), z);
      EXPECT_EQ(right, s.add(terms));
    }
  }
  std::vector<ExprId> terms;
  for (int i = 0; i < 150; ++i) terms.push_back(s.mul(xs[i], x));
  terms.push_back(c(7));
  EXPECT_EQ(with_constant, s.add(terms));
  terms.push_back(s.mul(xs[0], y));
  EXPECT_EQ(onto_constant, s.add(terms));
  EXPECT_EQ(s.arity(prefix_sums[200]), 200u);
  EXPECT_EQ(s.operand(prefix_sums[100], 99), s.operand(prefix_sums[200], 99));
  expect_all_canonical();
}

// Accumulating K products term by term costs operand slots linear in K, not K^2 / 2.
TEST_F(ExprTest, RunningSumsCostLinearOperandSlots) {
  constexpr int kTerms = 4000;
  std::vector<ExprId> products;
  for (int i = 0; i < kTerms; ++i) products.push_back(s.mul(s.symbol("a" + std::to_string(i)), s.symbol("b" + std::to_string(i))));
  size_t before = s.operand_slots();
  // Four accumulators interleaved, as a thread's register tile is updated.
  std::vector<ExprId> acc(4, s.zero());
  for (int i = 0; i < kTerms; ++i) acc[i % 4] = s.add(acc[i % 4], products[i]);
  size_t used = s.operand_slots() - before;
  EXPECT_LT(used, size_t(8) * 2 * kTerms) << "quadratic would be about " << kTerms * kTerms / 4;
  for (int j = 0; j < 4; ++j) EXPECT_EQ(s.arity(acc[j]), uint32_t(kTerms / 4));
}

// Sums and products whose weights are all 1 keep their operand ids alone: one slot per term.
// Whatever path builds them (at once, term by term, a weight cancelled to 1, a weight other
// than 1 appended after unit ones), equal expressions are one node.
TEST_F(ExprTest, UnitWeightsTakeOneSlotPerOperand) {
  constexpr int kTerms = 2000;
  std::vector<ExprId> products;
  for (int i = 0; i < kTerms; ++i) products.push_back(s.mul(s.symbol("u" + std::to_string(i)), s.symbol("v" + std::to_string(i))));
  size_t before = s.operand_slots();
  ExprId acc = s.zero();
  for (ExprId p : products) acc = s.add(acc, p);
  EXPECT_LT(s.operand_slots() - before, size_t(kTerms) * 5 / 4) << "as (id, weight) pairs: about " << 2 * kTerms;
  EXPECT_EQ(acc, s.add(products));
  for (int i = 0; i < kTerms; i += 97) {
    EXPECT_EQ(s.operand(acc, static_cast<uint32_t>(i)), products[static_cast<size_t>(i)]);
    EXPECT_EQ(s.weight(acc, static_cast<uint32_t>(i)), 1);
  }
  // A weight of 3 after 2000 unit ones (appended, and inserted before them), then cancelled back to 1.
  ExprId w = s.symbol("w");
  ExprId appended = s.add(acc, s.mul(c(3), w));
  EXPECT_EQ(s.operand(appended, kTerms), w);
  EXPECT_EQ(s.weight(appended, kTerms), 3);
  EXPECT_EQ(s.add(s.add(appended, s.mul(c(-2), w)), s.neg(w)), acc);
  ExprId three = s.add(acc, s.mul(c(3), x));
  EXPECT_EQ(s.operand(three, 0), x);
  EXPECT_EQ(s.weight(three, 0), 3);
  ExprId back = s.add(three, s.mul(c(-2), x));
  std::vector<ExprId> with_x = products;
  with_x.push_back(x);
  EXPECT_EQ(back, s.add(with_x));
  EXPECT_EQ(back, s.add(acc, x));
  // A weight other than 1 in the middle of unit ones, cancelled to 1 by a later term.
  ExprId mixed = s.add(std::vector<ExprId>{x, s.mul(c(2), y), z});
  EXPECT_EQ(s.add(mixed, s.neg(y)), s.add(std::vector<ExprId>{x, y, z}));
  // Products: x * y * z and the unit part of 5 x y z are one node.
  ExprId xyz = s.mul(std::vector<ExprId>{x, y, z});
  EXPECT_EQ(s.mul(c(5), xyz), s.mul(std::vector<ExprId>{c(5), x, y, z}));
  EXPECT_EQ(s.add(s.mul(c(5), xyz), s.mul(c(-4), xyz)), xyz);
  EXPECT_EQ(s.mul(xyz, s.pow_int(y, -1)), s.mul(x, z));
  expect_all_canonical();
}

}  // namespace
}  // namespace racer::expr::test
