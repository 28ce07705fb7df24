// The concrete domain computes f32 add, sub, mul and fma rounded to nearest on the host's float
// (exec/host_f32.hpp). That is sound only where the host's result is the emulator's bit for bit:
// every operand pair and triple of special values, subnormals, halfway and cancelling cases, and
// random ones, must agree, and the host must leave exactly the NaN results to the emulator.
#include <gtest/gtest.h>

#include "exec/host_f32.hpp"
#include "ieee_gen.hpp"

namespace racer::exec {
namespace {

using ieee::Format;

template <class Host, class Emulated>
void expect_same(const char* what, int arity, Host host, Emulated emulated) {
  int compared = 0;
  for (const auto& [a, b, c] : ieee::test::operands(Format::F32, arity, 200000, 29)) {
    std::optional<uint64_t> h = host(a, b, c);
    uint64_t e = emulated(a, b, c);
    if (ieee::is_nan(Format::F32, e)) {
      EXPECT_FALSE(h) << what << " " << std::hex << a << " " << b << " " << c << ": the host gave a NaN's bits";
      continue;
    }
    ASSERT_TRUE(h) << what << " " << std::hex << a << " " << b << " " << c;
    ASSERT_EQ(*h, e) << what << " " << std::hex << a << " " << b << " " << c;
    ++compared;
  }
  EXPECT_GT(compared, 150000) << what;
}

TEST(HostF32, ArithmeticIsTheEmulatorsBitForBit) {
  const ieee::Mode rn{};
  expect_same("add", 2, [](uint64_t a, uint64_t b, uint64_t) { return host_f32::add(a, b); },
              [&](uint64_t a, uint64_t b, uint64_t) { return ieee::add(Format::F32, a, b, rn); });
  expect_same("sub", 2, [](uint64_t a, uint64_t b, uint64_t) { return host_f32::sub(a, b); },
              [&](uint64_t a, uint64_t b, uint64_t) { return ieee::sub(Format::F32, a, b, rn); });
  expect_same("mul", 2, [](uint64_t a, uint64_t b, uint64_t) { return host_f32::mul(a, b); },
              [&](uint64_t a, uint64_t b, uint64_t) { return ieee::mul(Format::F32, a, b, rn); });
  expect_same("fma", 3, [](uint64_t a, uint64_t b, uint64_t c) { return host_f32::fma(a, b, c); },
              [&](uint64_t a, uint64_t b, uint64_t c) { return ieee::fma(Format::F32, a, b, c, rn); });
}

}  // namespace
}  // namespace racer::exec
