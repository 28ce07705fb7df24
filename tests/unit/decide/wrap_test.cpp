// Deciding cells with two's-complement wrap-around (expr/build_wrap.cpp): refutations whose
// witnesses overflow (the wrap's boundaries are search points), Z3's exact encoding
// (u - 2^w k) proving a wrap equal to its case analysis, and an Unknown rather than a guess.
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

using expr::CmpOp;

class WrapDecideTest : public DecideTest {
 protected:
  ExprId a = s.symbol("a", std::nullopt, true);
  ExprId b = s.symbol("b", std::nullopt, true);
  void int_domain(ExprId v, long lo, long hi) { domains[v] = SymbolDomain{mpq_class(lo), mpq_class(hi), Grid::Integer}; }
  void int32(ExprId v) { int_domain(v, -2147483648L, 2147483647L); }
  // wrap_s8(sum) by cases: sum - 256 above `top` (127 is right), sum + 256 below -128.
  ExprId int8_cases(ExprId sum, long top = 127) {
    return s.select(s.cmp(CmpOp::Gt, sum, c(top)), s.sub(sum, c(256)),
                    s.select(s.cmp(CmpOp::Lt, sum, c(-128)), s.add(sum, c(256)), sum));
  }
};

TEST_F(WrapDecideTest, AWrappedSumAgainstTheExactSumIsRefutedWhereItOverflows) {
  int32(a);
  int32(b);
  ExprId sum = s.add(a, b);
  CellDecision r = decide(s.wrap(sum, 32, true), sum);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  mpq_class total = witness(r, a) + witness(r, b);
  EXPECT_TRUE(total > 2147483647 || total < -2147483648L) << total;
}

TEST_F(WrapDecideTest, ATestOfTheWrappedSumDiffersOnlyWhereItOverflows) {
  int32(a);
  int32(b);
  auto positive = [&](ExprId v) { return s.select(s.cmp(CmpOp::Gt, v, s.zero()), s.one(), s.zero()); };
  ExprId sum = s.add(a, b);
  CellDecision r = decide(positive(s.wrap(sum, 32, true)), positive(sum));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  mpq_class total = witness(r, a) + witness(r, b);
  EXPECT_TRUE(total > 2147483647 || total < -2147483648L) << total;
}

TEST_F(WrapDecideTest, Z3ProvesAWrapEqualToItsCases) {
  // int8 sums: wrap_s8(a + b) is a + b - 256 above 127, a + b + 256 below -128.
  int_domain(a, -128, 127);
  int_domain(b, -128, 127);
  ExprId sum = s.add(a, b);
  CellDecision r = decide(s.wrap(sum, 8, true), int8_cases(sum));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  // With the threshold off by one, the witness is the sum 127 itself.
  CellDecision w = decide(s.wrap(sum, 8, true), int8_cases(sum, 126));
  ASSERT_EQ(w.status, CellStatus::Refuted) << w.reason;
  EXPECT_EQ(witness(w, a) + witness(w, b), 127);
}

TEST_F(WrapDecideTest, WithoutZ3AWrapAgainstItsCasesIsNotProvedOnAGuess) {
  int_domain(a, -128, 127);
  int_domain(b, -128, 127);
  DeciderOptions o;
  o.use_z3 = false;
  ExprId sum = s.add(a, b);
  CellDecision r = decide(s.wrap(sum, 8, true), int8_cases(sum), o);
  EXPECT_NE(r.status, CellStatus::Refuted) << r.reason;  // they are equal: never refuted
}

}  // namespace
}  // namespace racer::decide::test
