// Choices the input ranges make: a saturation that absmax-scaled data can never reach drops out
// (int8 quantization saturated to 16 bits on one side, to 32 on the other, is proved), and only
// where the bounds show it; the same sides over a set that misses the value are refuted.
#include "decide/bounded_choices.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class BoundedChoicesTest : public DecideTest {
 protected:
  ExprId u = s.symbol("u_r", expr::Range{mpq_class(-8), mpq_class(8)});
  ExprId v = s.symbol("v_r", expr::Range{mpq_class(-8), mpq_class(8)});

  void SetUp() override {
    for (ExprId w : {u, v}) domains[w] = SymbolDomain{mpq_class(-8), mpq_class(8), Grid::F32};
  }
  ExprId saturated(ExprId value, long lo, long hi) { return s.min(c(hi), s.max(value, c(lo))); }
  ExprId quantized(ExprId set_max) { return s.mul(c(127), s.div(u, set_max)); }
};

TEST_F(BoundedChoicesTest, SaturationTheDataCannotReachIsProvedAway) {
  ExprId absmax = s.max(std::vector<ExprId>{s.abs(u), s.abs(v), q(1, 1000)});
  ExprId a = s.wrap(saturated(quantized(absmax), -32768, 32767), 8, true);
  ExprId b = s.wrap(saturated(quantized(absmax), -2147483647 - 1, 2147483647), 8, true);
  EXPECT_EQ(settle_bounded_choices(s, a), settle_bounded_choices(s, b));
  CellDecision r = decide(a, b);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;  // (the atom normalizer drops the clamps too)
}

TEST_F(BoundedChoicesTest, SaturationTheDataCanReachStays) {
  ExprId of_v = s.max(std::vector<ExprId>{s.abs(v), q(1, 1000)});  // u is not in the set
  ExprId a = s.wrap(saturated(quantized(of_v), -32768, 32767), 8, true);
  ExprId b = s.wrap(saturated(quantized(of_v), -2147483647 - 1, 2147483647), 8, true);
  EXPECT_NE(settle_bounded_choices(s, a), settle_bounded_choices(s, b));
  EXPECT_EQ(decide(a, b).status, CellStatus::Refuted);
}

TEST_F(BoundedChoicesTest, ComparisonsAndAbsOfOneSignedValues) {
  ExprId pos = s.add(s.mul(u, u), c(1));
  EXPECT_EQ(settle_bounded_choices(s, s.abs(pos)), pos);
  EXPECT_EQ(settle_bounded_choices(s, s.select(s.cmp(expr::CmpOp::Lt, pos, c(0)), u, v)), v);
  EXPECT_EQ(settle_bounded_choices(s, s.select(s.cmp(expr::CmpOp::Lt, u, c(9)), u, v)), u);
  // u < 8 fails at u = 8 only: not settled.
  ExprId open = s.select(s.cmp(expr::CmpOp::Lt, u, c(8)), u, v);
  EXPECT_EQ(settle_bounded_choices(s, open), open);
  EXPECT_EQ(settle_bounded_choices(s, s.min(std::vector<ExprId>{u, c(8), v})), s.min(u, v));
}

}  // namespace
}  // namespace racer::decide::test

namespace racer::decide::test {
namespace {

// Asymmetric min-max quantization (lmdeploy's int8 KV cache): q = 255 (k - min) / (max - min) + 1/2
// truncated, saturated to 16 bits on one side and to 32 on the other, stored as a byte.
TEST_F(BoundedChoicesTest, OffsetOverTheSpanNeverReachesTheSaturation) {
  ExprId w = s.symbol("w_r", expr::Range{mpq_class(-8), mpq_class(8)});
  domains[w] = SymbolDomain{mpq_class(-8), mpq_class(8), Grid::F32};
  std::vector<ExprId> set{u, v, w};
  ExprId lo = s.min(set), hi = s.max(set), span = s.sub(lo, hi);
  ExprId code = s.add(s.sub(s.div(s.mul(c(255), lo), span), s.div(s.mul(c(255), v), span)), q(1, 2));
  // trunc(code) as the engine builds it for a non-negative or negative value.
  ExprId neg = s.cmp(expr::CmpOp::Lt, code, c(0));
  ExprId up = s.add(code, s.mul(q(1, 2), s.wrap(s.sub(s.mul(c(-2), code), c(0)), 1, false)));
  ExprId down = s.sub(code, s.mul(q(1, 2), s.wrap(s.mul(c(2), code), 1, false)));
  ExprId t = s.select(neg, up, down);
  ExprId a = s.wrap(s.min(c(65535), s.max(c(0), t)), 8, false);
  ExprId b = s.wrap(s.min(s.max(c(0), t), c(4294967295L)), 8, false);
  EXPECT_EQ(settle_bounded_choices(s, a), settle_bounded_choices(s, b)) << str(settle_bounded_choices(s, a));
  EXPECT_EQ(decide(a, b).status, CellStatus::Proved);
}

}  // namespace
}  // namespace racer::decide::test
