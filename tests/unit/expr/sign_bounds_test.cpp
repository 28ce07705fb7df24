// Bounds over the symbols' ranges say "positive" only where the value is: sums of squares plus
// a constant, exps, square roots, logs and quotients of ranged values; never a value that can
// reach 0 or below somewhere in the box.
#include "expr/sign_bounds.hpp"
#include "fixture.hpp"

namespace racer::expr::test {
namespace {

TEST_F(ExprTest, SignBoundsProvePositiveOnlyWhatIs) {
  SignBounds b(s);
  ExprId r = s.symbol("r_range", expr::Range{mpq_class(1, 4), mpq_class(3)});
  ExprId n = s.symbol("n_range", expr::Range{mpq_class(-2), mpq_class(-1, 2)});
  EXPECT_TRUE(b.positive(s.add(s.mul(x, x), q(1, 100))));
  EXPECT_TRUE(b.positive(s.exp(x)));
  EXPECT_TRUE(b.positive(s.mul(s.exp(x), r)));
  EXPECT_TRUE(b.positive(r));
  EXPECT_TRUE(b.positive(s.div(r, s.add(r, c(1)))));
  EXPECT_TRUE(b.positive(s.sqrt(r)));
  EXPECT_TRUE(b.positive(s.log(s.add(r, c(1)))));   // log(r + 1) >= 1 - 1/(5/4)
  EXPECT_TRUE(b.positive(s.mul(n, n)));
  EXPECT_TRUE(b.positive(s.neg(n)));
  EXPECT_TRUE(b.positive(s.max(x, r)));
  EXPECT_TRUE(b.positive(s.exp(s.mul(c(-50), r))));  // a tiny positive lower bound
  EXPECT_FALSE(b.positive(x));
  EXPECT_FALSE(b.positive(n));
  EXPECT_FALSE(b.positive(s.sub(r, c(1))));
  EXPECT_FALSE(b.positive(s.mul(x, x)));             // 0 at x = 0
  EXPECT_FALSE(b.positive(s.log(r)));                // below 0 for r < 1
  EXPECT_FALSE(b.positive(s.tanh(r)));               // bounded by 0 only
  EXPECT_FALSE(b.positive(s.min(x, r)));
  EXPECT_FALSE(b.positive(s.div(c(1), x)));
  Bounds nb = b.of(s.mul(n, r));
  ASSERT_TRUE(nb.lo && nb.hi);
  EXPECT_EQ(*nb.lo, -6);
  EXPECT_EQ(*nb.hi, mpq_class(-1, 8));
}

// A value over the largest magnitude of a set it belongs to (absmax scaling) lies in [-1, 1],
// also where the value is a product whose factors the quotient holds; a set that misses the
// value, or may reach 0, gives no such bound.
TEST_F(ExprTest, SignBoundsOfAValueOverItsSetsLargestMagnitude) {
  SignBounds b(s);
  ExprId u = s.symbol("u_range", expr::Range{mpq_class(-8), mpq_class(8)});
  ExprId v = s.symbol("v_range", expr::Range{mpq_class(-8), mpq_class(8)});
  ExprId p = s.symbol("p_range", expr::Range{mpq_class(1, 2), mpq_class(8)});
  ExprId absmax = s.max(std::vector<ExprId>{s.abs(u), s.abs(v), q(1, 1000)});
  Bounds r = b.of(s.mul(c(127), s.div(u, absmax)));
  ASSERT_TRUE(r.lo && r.hi);
  EXPECT_EQ(*r.lo, -127);
  EXPECT_EQ(*r.hi, 127);
  // |3 u p| among the set: 5 u p / max(...) = 5/3 (3 u p / max(...)).
  ExprId scaled_set = s.max(std::vector<ExprId>{s.abs(s.mul(c(3), s.mul(u, p))), s.abs(v), q(1, 1000)});
  Bounds w = b.of(s.mul(c(5), s.div(s.mul(u, p), scaled_set)));
  ASSERT_TRUE(w.lo && w.hi);
  EXPECT_EQ(*w.lo, mpq_class(-5, 3));
  EXPECT_EQ(*w.hi, mpq_class(5, 3));
  // p is never negative: the set may hold p itself; the quotient is then in [0, 1].
  Bounds pp = b.of(s.div(p, s.max(p, v)));
  ASSERT_TRUE(pp.lo && pp.hi);
  EXPECT_EQ(*pp.lo, 0);
  EXPECT_EQ(*pp.hi, 1);
  // u is not in the set: 127 u / max(|v|, 1/1000) reaches 127 * 8 * 1000.
  Bounds miss = b.of(s.mul(c(127), s.div(u, s.max(s.abs(v), q(1, 1000)))));
  EXPECT_TRUE(!miss.hi || *miss.hi > 127);
  // The set's largest magnitude may be 0 (no positive member): there u = 0 and 0/0 has no value;
  // wherever the quotient has one it lies in [-1, 1].
  Bounds zero = b.of(s.div(u, s.max(s.abs(u), s.abs(v))));
  ASSERT_TRUE(zero.lo && zero.hi);
  EXPECT_EQ(*zero.lo, -1);
  EXPECT_EQ(*zero.hi, 1);
  // A set that may be negative as a whole (u itself, not |u|, and u may be negative): no bound.
  Bounds signed_set = b.of(s.div(u, s.max(u, v)));
  EXPECT_FALSE(signed_set.lo && signed_set.hi);
}

// A value's offset from its set's least member over the set's span (asymmetric min-max scaling:
// q = 255 (k - min) / (max - min) + 1/2, written as the kernel computes it, 255 min/(min - max)
// - 255 k/(min - max) + 1/2) lies in [1/2, 255 + 1/2]; from the largest member likewise. A value
// not in the set, or terms whose weights do not cancel, give no such bound.
TEST_F(ExprTest, SignBoundsOfAnOffsetOverItsSetsSpan) {
  SignBounds b(s);
  ExprId u = s.symbol("u_span", expr::Range{mpq_class(-8), mpq_class(8)});
  ExprId v = s.symbol("v_span", expr::Range{mpq_class(-8), mpq_class(8)});
  ExprId w = s.symbol("w_span", expr::Range{mpq_class(-8), mpq_class(8)});
  std::vector<ExprId> set{u, v, w};
  ExprId lo = s.min(set), hi = s.max(set);
  ExprId down = s.sub(lo, hi);  // min - max, as lmdeploy's int8 KV quantization divides by it
  ExprId code = s.add(s.sub(s.div(s.mul(c(255), lo), down), s.div(s.mul(c(255), v), down)), q(1, 2));
  Bounds r = b.of(code);
  ASSERT_TRUE(r.lo && r.hi) << str(code);
  EXPECT_EQ(*r.lo, mpq_class(1, 2));
  EXPECT_EQ(*r.hi, mpq_class(511, 2));
  // (max - k) / (max - min) * 15: in [0, 15].
  ExprId up = s.sub(hi, lo);
  Bounds m = b.of(s.sub(s.div(s.mul(c(15), hi), up), s.div(s.mul(c(15), w), up)));
  ASSERT_TRUE(m.lo && m.hi);
  EXPECT_EQ(*m.lo, 0);
  EXPECT_EQ(*m.hi, 15);
  // x is not in the set: (x - min) / (max - min) is unbounded (max - min may be tiny).
  ExprId outside = s.sub(s.div(s.mul(c(255), lo), down), s.div(s.mul(c(255), x), down));
  Bounds o = b.of(outside);
  EXPECT_FALSE(o.lo && o.hi);
  // Weights that do not cancel: 255 min / D - 254 v / D.
  Bounds uneven = b.of(s.sub(s.div(s.mul(c(255), lo), down), s.div(s.mul(c(254), v), down)));
  EXPECT_FALSE(uneven.lo && uneven.hi);
}

// A wrap lies in its type's range, and is its operand where the operand already does.
TEST_F(ExprTest, SignBoundsOfWraps) {
  SignBounds b(s);
  ExprId u = s.symbol("u_range", expr::Range{mpq_class(-8), mpq_class(8)});
  Bounds small = b.of(s.wrap(u, 8, true));
  ASSERT_TRUE(small.lo && small.hi);
  EXPECT_EQ(*small.lo, -8);
  EXPECT_EQ(*small.hi, 8);
  Bounds whole = b.of(s.wrap(s.mul(c(100), u), 8, false));
  ASSERT_TRUE(whole.lo && whole.hi);
  EXPECT_EQ(*whole.lo, 0);
  EXPECT_EQ(*whole.hi, 256);
  Bounds free = b.of(s.wrap(x, 4, true));
  ASSERT_TRUE(free.lo && free.hi);
  EXPECT_EQ(*free.lo, -8);
  EXPECT_EQ(*free.hi, 8);
}

}  // namespace
}  // namespace racer::expr::test
