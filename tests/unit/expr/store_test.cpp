#include <gmpxx.h>

#include <set>

#include "fixture.hpp"
#include "support/error.hpp"

namespace racer::expr::test {
namespace {

// A double must never reach constant(): it would be truncated, not read exactly.
template <class T>
concept ConstantAccepts = requires(Store& s, T v) { s.constant(v); };
static_assert(ConstantAccepts<int> && ConstantAccepts<unsigned> && ConstantAccepts<mpq_class>);
static_assert(!ConstantAccepts<double> && !ConstantAccepts<float>);

TEST_F(ExprTest, SameStructureSameId) {
  ExprId a = s.add(s.mul(c(2), x), s.exp(y));
  size_t n = s.size();
  ExprId b = s.add(s.mul(c(2), x), s.exp(y));
  EXPECT_EQ(a, b);
  EXPECT_EQ(s.size(), n) << "rebuilding an existing expression must not add nodes";
  EXPECT_EQ(s.constant(mpq_class(6, 8)), q(3, 4));
  EXPECT_EQ(s.sin(x), s.sin(x));
  EXPECT_EQ(s.max(x, y), s.max(x, y));
}

// Store::mul(a, b) of two plain bases skips the general accumulator: it must build the very
// node the accumulator builds, whatever the order, and for equal bases the square.
TEST_F(ExprTest, AProductOfTwoBasesIsTheNodeTheGeneralPathBuilds) {
  const ExprId e = s.exp(y), m = s.max(x, y);
  const std::vector<std::pair<ExprId, ExprId>> pairs = {{x, y}, {y, x}, {x, e}, {e, m}, {m, x}, {x, x}, {e, e}};
  for (auto [a, b] : pairs) {
    const std::vector<ExprId> both = {a, b};
    EXPECT_EQ(s.mul(a, b), s.mul(std::span<const ExprId>(both))) << to_string(s, a) << " * " << to_string(s, b);
    EXPECT_EQ(s.mul(a, b), s.mul(b, a));
  }
  EXPECT_EQ(s.mul(x, x), s.pow_int(x, 2));
  EXPECT_EQ(s.div(s.mul(x, y), y), x);
  EXPECT_THROW(s.mul(s.cmp(CmpOp::Lt, x, y), x), racer::Error) << "a condition is not a factor";
}

TEST_F(ExprTest, DifferentStructureDifferentId) {
  EXPECT_NE(s.add(x, y), s.mul(x, y));
  EXPECT_NE(s.exp(x), s.log(x));
  EXPECT_NE(s.exp(x), s.exp(y));
  EXPECT_NE(s.min(x, y), s.max(x, y));
  EXPECT_NE(s.cmp(CmpOp::Lt, x, y), s.cmp(CmpOp::Le, x, y));
  EXPECT_NE(s.add(x, c(1)), s.add(x, c(2)));
  EXPECT_NE(s.mul(c(2), x), s.mul(c(3), x));
  EXPECT_NE(s.pow_int(x, 2), s.pow_int(x, 3));
  EXPECT_NE(s.pow_int(x, 2), s.mul(c(2), x));
  EXPECT_NE(s.pos_inf(), s.neg_inf());
  EXPECT_NE(s.zero(), s.false_value());
}

TEST_F(ExprTest, SymbolsInternByOrigin) {
  EXPECT_EQ(s.symbol("x[0]"), x);
  EXPECT_NE(s.symbol("x[1]"), x);
  EXPECT_EQ(s.symbol_name(x), "x[0]");
  EXPECT_EQ(s.symbol_info(x).range, nullptr);

  ExprId u = s.symbol("uninit global 0x1000+12", Range{mpq_class(-1), mpq_class(1)});
  ASSERT_NE(s.symbol_info(u).range, nullptr);
  EXPECT_EQ(s.symbol_info(u).range->hi, 1);
  EXPECT_EQ(s.symbol("uninit global 0x1000+12", Range{mpq_class(-1), mpq_class(1)}), u);
  EXPECT_THROW(s.symbol("uninit global 0x1000+12"), racer::Error);
  EXPECT_THROW(s.symbol("w", Range{mpq_class(2), mpq_class(1)}), racer::Error);
}

// A family's symbols: named by their key only when asked, sharing the family's range and
// integrality, numbered with the named ones, and never found by name.
TEST_F(ExprTest, AFamilysSymbolsAreNamedByTheirKey) {
  int named = 0;
  uint16_t v = s.add_symbol_family([&](uint32_t key) { return ++named, "v[" + std::to_string(key) + "]"; },
                                   Range{mpq_class(-3), mpq_class(3)}, true);
  ExprId v7 = s.family_symbol(v, 7), v2 = s.family_symbol(v, 2);
  EXPECT_EQ(named, 0) << "a name made before it was asked for";
  EXPECT_NE(v7, v2);
  EXPECT_EQ(s.symbol_name(v7), "v[7]");
  ASSERT_TRUE(s.family_key(v2));
  EXPECT_EQ(s.family_key(v2)->family, v);
  EXPECT_EQ(s.family_key(v2)->key, 2u);
  EXPECT_FALSE(s.family_key(x));
  EXPECT_EQ(s.symbol_info(v7).range, s.symbol_info(v2).range);
  EXPECT_EQ(s.symbol_info(v7).range->hi, 3);
  EXPECT_TRUE(s.symbol_info(v7).integer);
  EXPECT_EQ(s.symbol_at(s.symbol_number(v2)), v2);
  EXPECT_EQ(s.symbol_count(), s.symbol_number(v2) + 1);
  EXPECT_NE(s.symbol("v[7]"), v7);  // (a named symbol of that name is another variable)
  EXPECT_EQ(s.add(v7, v2), s.add(v2, v7));
  EXPECT_THROW(s.add_symbol_family([](uint32_t) { return std::string("e"); }, Range{mpq_class(2), mpq_class(1)}, false), racer::Error);
}

TEST_F(ExprTest, SymbolsShareOneCopyOfEqualRanges) {
  ExprId a0 = s.symbol("a[0]", Range{mpq_class(-1), mpq_class(1)});
  ExprId a1 = s.symbol("a[1]", Range{mpq_class(-2, 2), mpq_class(2, 2)});  // equal, not canonical
  ExprId b0 = s.symbol("b[0]", Range{mpq_class(0), mpq_class(1)});
  ExprId a2 = s.symbol("a[2]", Range{mpq_class(-1), mpq_class(1)});
  EXPECT_EQ(s.symbol_info(a0).range, s.symbol_info(a1).range);
  EXPECT_EQ(s.symbol_info(a0).range, s.symbol_info(a2).range);
  EXPECT_NE(s.symbol_info(a0).range, s.symbol_info(b0).range);
  EXPECT_EQ(s.symbol_info(a1).range->lo, -1);
  EXPECT_EQ(s.symbol_info(b0).range->lo, 0);
  EXPECT_EQ(s.symbol("a[1]", Range{mpq_class(-1), mpq_class(1)}), a1);
  EXPECT_THROW(s.symbol("a[0]", Range{mpq_class(0), mpq_class(1)}), racer::Error);
  EXPECT_THROW(s.symbol("a[0]"), racer::Error);
}

TEST_F(ExprTest, ManyNodesSurviveTableGrowth) {
  // Enough distinct nodes to force several unique-table and rational-table rehashes; every
  // one must still be found afterwards.
  std::vector<ExprId> ids;
  for (long i = 0; i < 5000; ++i) ids.push_back(s.add(s.mul(q(i, 7), x), c(i)));
  for (long i = 0; i < 5000; ++i) EXPECT_EQ(s.add(s.mul(q(i, 7), x), c(i)), ids[i]);
  EXPECT_EQ(std::set<ExprId>(ids.begin(), ids.end()).size(), ids.size());
}

TEST_F(ExprTest, InspectionOfCanonicalSum) {
  ExprId e = s.add(std::vector<ExprId>{s.mul(c(3), y), x, c(5)});
  ASSERT_EQ(s.kind(e), Kind::Add);
  EXPECT_EQ(s.coef(e), 5);
  ASSERT_EQ(s.arity(e), 2u);
  EXPECT_EQ(s.operand(e, 0), x);  // sorted by id: x was made before y
  EXPECT_EQ(s.weight(e, 0), 1);
  EXPECT_EQ(s.operand(e, 1), y);
  EXPECT_EQ(s.weight(e, 1), 3);
  EXPECT_TRUE(s.is_finite(e));
}

TEST_F(ExprTest, ConditionsAreNotNumbers) {
  ExprId p = s.cmp(CmpOp::Lt, x, y);
  EXPECT_TRUE(s.is_condition(p));
  EXPECT_THROW(s.add(p, x), racer::Error);
  EXPECT_THROW(s.mul(p, x), racer::Error);
  EXPECT_THROW(s.exp(p), racer::Error);
  EXPECT_THROW(s.select(x, y, z), racer::Error);
  EXPECT_THROW(s.select(p, y, p), racer::Error);
  EXPECT_THROW(s.max(std::vector<ExprId>{}), racer::Error);
}

}  // namespace
}  // namespace racer::expr::test
