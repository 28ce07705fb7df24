// The concrete domain tells its observer when a float operation of finite operands makes NaN
// or an infinity, and when a product, quotient, ex2 or narrowing of nonzero values gives zero:
// what the float hazard report names as where a hazard starts.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "exec/concrete_domain.hpp"
#include "ptx/modifiers.hpp"

namespace racer::exec {
namespace {

Value f32(float x) { return Value::of_bits(std::bit_cast<uint32_t>(x)); }

struct Events {
  int nonfinite = 0, underflow = 0;
  uint64_t last_bits = 0;  // the result of the latest event
};

ConcreteDomain watched(Events& e) {
  ConcreteDomain d;
  d.on_nonfinite = [&](ptx::Type, uint64_t bits) {
    ++e.nonfinite;
    e.last_bits = bits;
  };
  d.on_underflow = [&](ptx::Type, uint64_t bits) {
    ++e.underflow;
    e.last_bits = bits;
  };
  return d;
}

TEST(FloatEvents, OverflowAndInvalidFromFiniteOperands) {
  Events e;
  ConcreteDomain d = watched(e);
  d.fbin(FBin::Mul, ptx::Type::F32, f32(-1e30f), f32(1e30f), {});  // overflows to -inf, told with its bits
  EXPECT_EQ(e.nonfinite, 1);
  EXPECT_EQ(e.last_bits, 0xff800000u);
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

TEST(FloatEvents, SameFormatConversionsToZeroAreAsAsked) {
  Events e;
  ConcreteDomain d = watched(e);
  FloatMods sat;
  sat.sat = true;
  d.cvt(ptx::Type::F32, ptx::Type::F32, f32(-3.0f), sat);  // cvt.sat clamps to [0, 1]: 0 by design
  FloatMods to_integer;
  to_integer.rounding = ptx::rnd::RZI;
  d.cvt(ptx::Type::F32, ptx::Type::F32, f32(0.25f), to_integer);  // cvt.rzi rounds to an integer: 0
  EXPECT_EQ(e.underflow, 0);
  d.cvt(ptx::Type::F16, ptx::Type::F32, f32(-1e-10f), {});  // narrowed below f16: -0, told
  EXPECT_EQ(e.underflow, 1);
  EXPECT_EQ(e.last_bits, 0x8000u);
}

TEST(FloatEvents, NobodyListeningCostsNothingAndChangesNoValue) {
  ConcreteDomain d;
  Value r = d.fbin(FBin::Mul, ptx::Type::F32, f32(1e30f), f32(1e30f), {});
  EXPECT_EQ(r.bits, std::bit_cast<uint32_t>(static_cast<float>(INFINITY)));
}

}  // namespace
}  // namespace racer::exec
