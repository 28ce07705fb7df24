// The concrete domain tells its observer when a float operation of finite operands makes NaN
// or an infinity, and when a product, quotient, ex2 or narrowing of nonzero values gives zero:
// what the float hazard report names as where a hazard starts.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "exec/concrete_domain.hpp"

namespace racer::exec {
namespace {

Value f32(float x) { return Value::of_bits(std::bit_cast<uint32_t>(x)); }

struct Events {
  int nonfinite = 0, underflow = 0;
};

ConcreteDomain watched(Events& e) {
  ConcreteDomain d;
  d.on_nonfinite = [&] { ++e.nonfinite; };
  d.on_underflow = [&] { ++e.underflow; };
  return d;
}

TEST(FloatEvents, OverflowAndInvalidFromFiniteOperands) {
  Events e;
  ConcreteDomain d = watched(e);
  d.fbin(FBin::Mul, ptx::Type::F32, f32(1e30f), f32(1e30f), {});  // overflows to +inf
  EXPECT_EQ(e.nonfinite, 1);
  d.fbin(FBin::Div, ptx::Type::F32, f32(0.0f), f32(0.0f), {});    // 0/0 = NaN
  EXPECT_EQ(e.nonfinite, 2);
  d.fbin(FBin::Add, ptx::Type::F32, f32(static_cast<float>(INFINITY)), f32(1.0f), {});  // inf in, inf out: not new
  EXPECT_EQ(e.nonfinite, 2);
  d.cvt(ptx::Type::F16, ptx::Type::F32, f32(70000.0f), {});       // past f16's 65504
  EXPECT_EQ(e.nonfinite, 3);
  EXPECT_EQ(e.underflow, 0);
}

TEST(FloatEvents, UnderflowToZeroButNotCancellation) {
  Events e;
  ConcreteDomain d = watched(e);
  d.fbin(FBin::Mul, ptx::Type::F32, f32(1e-30f), f32(1e-30f), {});  // 1e-60 rounds to 0
  EXPECT_EQ(e.underflow, 1);
  d.fun(FUn::Ex2, ptx::Type::F32, f32(-200.0f), {});                 // 2^-200 in f32: 0
  EXPECT_EQ(e.underflow, 2);
  d.fbin(FBin::Add, ptx::Type::F32, f32(1.0f), f32(-1.0f), {});      // exact cancellation
  d.fbin(FBin::Mul, ptx::Type::F32, f32(0.0f), f32(5.0f), {});       // zero in, zero out
  EXPECT_EQ(e.underflow, 2);
  d.cvt(ptx::Type::F16, ptx::Type::F32, f32(1e-10f), {});            // below f16's smallest subnormal
  EXPECT_EQ(e.underflow, 3);
  EXPECT_EQ(e.nonfinite, 0);
}

TEST(FloatEvents, NobodyListeningCostsNothingAndChangesNoValue) {
  ConcreteDomain d;
  Value r = d.fbin(FBin::Mul, ptx::Type::F32, f32(1e30f), f32(1e30f), {});
  EXPECT_EQ(r.bits, std::bit_cast<uint32_t>(static_cast<float>(INFINITY)));
}

}  // namespace
}  // namespace racer::exec
