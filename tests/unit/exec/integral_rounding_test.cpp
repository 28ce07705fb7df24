// Symbolic float data rounded to an integral value (cvt.rni/.rzi/.rmi/.rpi, into a float or an
// integer type): an exact expression through the 1-bit wrap that, evaluated anywhere, is what
// round_integral gives a constant, ties included; into an integer type, saturated, with
// bounds the clamp proves whatever the value's own.
#include <gtest/gtest.h>

#include "exec/symbolic_domain.hpp"
#include "expr/eval.hpp"
#include "ptx/modifiers.hpp"

namespace racer::exec {
namespace {

class IntegralRoundingTest : public ::testing::Test {
 protected:
  expr::Store s;
  SymbolicDomain d{s};
  expr::ExprId x = s.symbol("x");

  FloatMods mode(uint8_t rnd) {
    FloatMods m;
    m.rounding = rnd;
    return m;
  }
  // The expression's value where x = v, and the constant the same conversion of v gives.
  std::pair<mpq_class, mpq_class> both(ptx::Type dst, uint8_t rnd, const mpq_class& v) {
    Value sym = d.cvt(dst, ptx::Type::F32, Value::of_expr(x), mode(rnd));
    expr::Assignment at;
    at.set(x, v);
    std::optional<mpq_class> got = expr::eval_exact(s, sym.expr(), at);
    EXPECT_TRUE(got) << v;
    Value folded = d.cvt(dst, ptx::Type::F32, Value::of_expr(s.constant(v)), mode(rnd));
    mpq_class want = folded.is_concrete() ? mpq_class(static_cast<int64_t>(static_cast<int32_t>(folded.bits)))
                                          : s.rational(folded.expr());
    return {got.value_or(mpq_class(999)), want};
  }
};

TEST_F(IntegralRoundingTest, EveryModeAgreesWithTheConstantsRoundingTiesIncluded) {
  const char* values[] = {"0", "1/2", "-1/2", "3/2", "-3/2", "5/2", "-5/2", "7/10", "-7/10", "2", "-2", "1000001/1000", "-1000001/1000"};
  for (uint8_t rnd : {ptx::rnd::RNI, ptx::rnd::RZI, ptx::rnd::RMI, ptx::rnd::RPI})
    for (const char* v : values) {
      auto [got, want] = both(ptx::Type::F32, rnd, mpq_class(v));
      EXPECT_EQ(got, want) << "mode " << int(rnd) << " at " << v;
      auto [got_int, want_int] = both(ptx::Type::S32, rnd, mpq_class(v));
      EXPECT_EQ(got_int, want_int) << "to .s32, mode " << int(rnd) << " at " << v;
    }
}

TEST_F(IntegralRoundingTest, IntegerConversionsSaturate) {
  auto [got, want] = both(ptx::Type::S8, ptx::rnd::RNI, mpq_class(300));
  EXPECT_EQ(got, 127);
  auto [low, want_low] = both(ptx::Type::S8, ptx::rnd::RZI, mpq_class(-1000));
  EXPECT_EQ(low, -128);
  auto [u, want_u] = both(ptx::Type::U8, ptx::rnd::RMI, mpq_class(-3));
  EXPECT_EQ(u, 0) << "an unsigned type's saturation at 0";
}

TEST_F(IntegralRoundingTest, TheClampBoundsTheIntegerWhateverTheFloat) {
  // x has no range: only the saturation bounds the result, which then needs no wrap-around
  // when used as .s32 (a wrap here would be refused: data not from integer inputs).
  Value q = d.cvt(ptx::Type::S16, ptx::Type::F32, Value::of_expr(x), mode(ptx::rnd::RNI));
  EXPECT_TRUE(q.integer);
  Value widened = d.cvt(ptx::Type::F32, ptx::Type::S32, q, mode(ptx::rnd::RN));
  expr::Assignment at;
  at.set(x, mpq_class(-70000));
  EXPECT_EQ(expr::eval_exact(s, widened.expr(), at), mpq_class(-32768));
}

}  // namespace
}  // namespace racer::exec
