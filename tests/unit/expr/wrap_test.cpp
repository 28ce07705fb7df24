// Two's-complement wrap-around nodes (expr/build_wrap.cpp): exact values, the identities of
// arithmetic mod 2^w that make differently ordered programs one node, the cases where those
// identities do not hold (narrower inner wraps, non-integer factors and weights), and random
// straight-line integer programs evaluated through the Store against native 32/64-bit
// arithmetic.
#include <cstdint>
#include <random>

#include "expr/rational_ops.hpp"
#include "fixture.hpp"

namespace racer::expr::test {
namespace {

class WrapTest : public ExprTest {
 protected:
  ExprId a = s.symbol("a", std::nullopt, true);
  ExprId b = s.symbol("b", std::nullopt, true);
  ExprId k = s.symbol("k", std::nullopt, true);
  ExprId s32(ExprId e) { return s.wrap(e, 32, true); }
  ExprId u32(ExprId e) { return s.wrap(e, 32, false); }
  ExprId big(const char* text) { return s.constant(mpq_class(text)); }
};

TEST_F(WrapTest, ConstantsFoldToTheirResidue) {
  EXPECT_EQ(s32(big("2147483648")), big("-2147483648"));
  EXPECT_EQ(s32(big("-2147483649")), big("2147483647"));
  EXPECT_EQ(u32(c(-1)), big("4294967295"));
  EXPECT_EQ(s.wrap(c(200), 8, true), c(-56));
  EXPECT_EQ(s.wrap(c(-1), 8, false), c(255));
  EXPECT_EQ(s.wrap(c(300), 1, false), c(0));
  // A real is wrapped too: x - 2^w floor((x - lo) / 2^w).
  EXPECT_EQ(s.wrap(q(513, 2), 8, false), q(1, 2));
  EXPECT_EQ(s.wrap(s.pos_inf(), 32, true), s.undefined());
  EXPECT_EQ(str(s32(s.add(a, b))), "wrap_s32(a + b)");
}

TEST_F(WrapTest, AssociationOrdersMeet) {
  ExprId left = s32(s.add(s32(s.add(a, b)), k));
  ExprId right = s32(s.add(a, s32(s.add(b, k))));
  EXPECT_EQ(left, right);
  EXPECT_EQ(left, s32(s.add(s.add(a, b), k)));
  // A 64-bit accumulation truncated, and a narrower result of a wider wrap.
  EXPECT_EQ(s32(s.wrap(s.add(s.wrap(s.add(a, b), 64, true), k), 64, false)), left);
  EXPECT_EQ(s.wrap(s.add(s32(a), b), 8, true), s.wrap(s.add(a, b), 8, true));
  // Subtraction and negation are sums with integer weights.
  EXPECT_EQ(s32(s.sub(s32(s.add(a, b)), b)), s32(a));
  EXPECT_EQ(s32(s.neg(s32(s.neg(a)))), s32(a));
}

TEST_F(WrapTest, ProductsOfIntegersMeet) {
  EXPECT_EQ(s32(s.mul(s32(s.mul(a, b)), k)), s32(s.mul(s.mul(a, b), k)));
  // (a + b) * 31 with the sum wrapped first.
  EXPECT_EQ(s32(s.mul(s32(s.add(a, b)), c(31))), s32(s.mul(s.add(a, b), c(31))));
  // The square of a wrapped value.
  EXPECT_EQ(s32(s.pow_int(s32(s.add(a, b)), 2)), s32(s.pow_int(s.add(a, b), 2)));
}

TEST_F(WrapTest, ConstantsAndIntegerWeightsReduceModTheWidth) {
  EXPECT_EQ(u32(s.add(a, big("4294967296"))), u32(a));
  EXPECT_EQ(u32(s.add(a, big("4294967295"))), u32(s.sub(a, c(1))));
  // 2654435761 and 2654435761 - 2^32: one hash, multiplied either way.
  EXPECT_EQ(u32(s.mul(a, big("2654435761"))), u32(s.mul(a, big("-1640531535"))));
  EXPECT_EQ(u32(s.mul(s.mul(a, b), big("4294967296"))), c(0));
}

TEST_F(WrapTest, IdentitiesThatDoNotHoldAreNotApplied) {
  // A narrower inner wrap changes the value mod 2^32.
  EXPECT_NE(s32(s.add(s.wrap(a, 8, false), b)), s32(s.add(a, b)));
  // x is a real symbol: 2^32 x is no multiple of 2^32, and neither is x * (a + 2^32 k).
  EXPECT_NE(u32(s.mul(x, big("4294967297"))), u32(x));
  EXPECT_NE(s32(s.mul(s32(a), x)), s32(s.mul(a, x)));
  // Half of a wrapped value: 2^31 k is no multiple of 2^32.
  EXPECT_NE(s32(s.mul(s32(a), q(1, 2))), s32(s.mul(a, q(1, 2))));
  // A constant's fractional part stays.
  EXPECT_EQ(eval_exact(s, u32(s.add(a, q(1, 2))), {{a, mpq_class(-1)}}), mpq_class("8589934591/2"));
}

TEST_F(WrapTest, EvaluationIsExact) {
  ExprId sum = s32(s.add(a, b));
  EXPECT_EQ(eval_exact(s, sum, {{a, mpq_class(1L << 30)}, {b, mpq_class(1L << 30)}}), mpq_class(-(1L << 31)));
  EXPECT_EQ(eval_exact(s, sum, {{a, mpq_class(-5)}, {b, mpq_class(3)}}), mpq_class(-2));
  ExprId cmp = s.select(s.cmp(CmpOp::Gt, sum, s.zero()), s.one(), s.zero());
  EXPECT_EQ(eval_exact(s, cmp, {{a, mpq_class(2147483647)}, {b, mpq_class(1)}}), mpq_class(0));
}

// A random straight-line program over three int32 inputs: each step applies add, sub, mul,
// neg or a constant multiple to earlier values and wraps the result to a random type, once
// through the Store (then evaluated exactly) and once natively on 64-bit words.
TEST_F(WrapTest, RandomIntegerProgramsAgreeWithNativeArithmetic) {
  struct Type {
    unsigned bits;
    bool is_signed;
  };
  const Type types[] = {{8, true}, {8, false}, {16, true}, {32, true}, {32, false}, {64, true}, {64, false}};
  auto native_wrap = [](uint64_t v, Type t) -> mpq_class {
    if (t.bits < 64) v &= (uint64_t{1} << t.bits) - 1;
    if (t.is_signed && t.bits < 64 && (v >> (t.bits - 1)) & 1) return mpq_class(mpz_class(std::to_string(v))) - mpq_class(mpz_class(1) << t.bits);
    if (t.is_signed && t.bits == 64) return mpq_class(static_cast<long>(v));
    return mpq_class(mpz_class(std::to_string(v)));
  };
  auto word = [](const mpq_class& q) {  // the low 64 bits of an integer
    mpz_class r = q.get_num() % (mpz_class(1) << 64);
    if (r < 0) r += mpz_class(1) << 64;
    return static_cast<uint64_t>(std::stoull(r.get_str()));
  };
  std::mt19937_64 rng(19);
  const ExprId inputs[] = {a, b, k};
  for (int program = 0; program < 200; ++program) {
    std::vector<ExprId> vals(inputs, inputs + 3);
    std::vector<std::pair<int, int>> steps;  // (op, type) with operand indices drawn below
    std::vector<std::array<size_t, 2>> args;
    std::vector<uint64_t> consts;
    for (int i = 0; i < 8; ++i) {
      int op = static_cast<int>(rng() % 5), ty = static_cast<int>(rng() % std::size(types));
      size_t u = rng() % vals.size(), v = rng() % vals.size();
      uint64_t m = rng() % 5 == 0 ? rng() : rng() % 100;
      ExprId e;
      switch (op) {
        case 0: e = s.add(vals[u], vals[v]); break;
        case 1: e = s.sub(vals[u], vals[v]); break;
        case 2: e = s.mul(vals[u], vals[v]); break;
        case 3: e = s.neg(vals[u]); break;
        default: e = s.mul(vals[u], s.constant(m)); break;
      }
      vals.push_back(s.wrap(e, types[ty].bits, types[ty].is_signed));
      steps.push_back({op, ty});
      args.push_back({u, v});
      consts.push_back(m);
    }
    for (int point = 0; point < 5; ++point) {
      Assignment at;
      std::vector<mpq_class> native;
      for (ExprId in : inputs) {
        int64_t v = static_cast<int32_t>(rng());
        at.set(in, mpq_class(v));
        native.push_back(mpq_class(v));
      }
      for (size_t i = 0; i < steps.size(); ++i) {
        uint64_t x = word(native[args[i][0]]), y = word(native[args[i][1]]), r = 0;
        switch (steps[i].first) {
          case 0: r = x + y; break;
          case 1: r = x - y; break;
          case 2: r = x * y; break;
          case 3: r = 0 - x; break;
          default: r = x * consts[i]; break;
        }
        native.push_back(native_wrap(r, types[steps[i].second]));
      }
      for (size_t i = 3; i < vals.size(); ++i)
        ASSERT_EQ(eval_exact(s, vals[i], at), native[i]) << "program " << program << ", value " << i << ": " << str(vals[i]);
    }
  }
  expect_all_canonical();
}

}  // namespace
}  // namespace racer::expr::test
