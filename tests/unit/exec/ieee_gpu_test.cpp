// Hardware results recorded on an NVIDIA H200 (ieee_gpu_probe.cu, ieee_gpu_vectors.py)
// replayed through the models of ieee_ops.hpp: bit-exact for every correctly rounded
// instruction, NaN rule and conversion; within the measured distance for .approx ones.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "ieee_host.hpp"
#include "ieee_ops.hpp"

namespace racer::ieee::test {
namespace {

struct Vector {
  const char* id;
  std::uint64_t a, b, c, hw;
};

const Vector kVectors[] = {
#include "ieee_gpu_vectors.inc"
};

// How far an approximate model may be from the hardware: in ulps of the result, or (for the
// functions whose PTX bound is absolute) in absolute value. Measured over the probe's sweeps
// (every 509th f32 bit pattern; all 2^16 f16/bf16 inputs) and stated in ieee.hpp.
struct Bound {
  long ulps;
  double abs;
};
const std::map<std::string, Bound>& bounds() {
  static const std::map<std::string, Bound> b = {
      {"div_approx_f32", {2, 0}},        {"div_approx_ftz_f32", {2, 0}},
      {"div_full_f32", {2, 0}},          {"div_full_ftz_f32", {2, 0}},
      {"rcp_approx_f32", {1, 0}},        {"rcp_approx_ftz_f32", {1, 0}},
      {"sqrt_approx_f32", {1, 0}},       {"sqrt_approx_ftz_f32", {1, 0}},
      {"rsqrt_approx_f32", {2, 0}},      {"rsqrt_approx_ftz_f32", {2, 0}},
      {"ex2_approx_f32", {2, 0}},        {"ex2_approx_ftz_f32", {2, 0}},
      {"lg2_approx_f32", {2, 0x1p-22}},  {"lg2_approx_ftz_f32", {2, 0x1p-22}},
      {"sin_approx_f32_pi", {0, 0x1p-21}}, {"cos_approx_f32_pi", {0, 0x1p-21}},
      {"sin_approx_f32_100pi", {0, 0x1p-14}}, {"cos_approx_f32_100pi", {0, 0x1p-14}},
      {"tanh_approx_f32", {128, 0}},
      {"rcp_approx_ftz_f64", {1L << 32, 0}}, {"rsqrt_approx_ftz_f64", {1L << 32, 0}},
      {"rsqrt_approx_f64", {1, 0}},
      {"ex2_approx_f16", {1, 0}},        {"tanh_approx_f16", {1, 0}},
      {"ex2_approx_ftz_bf16", {1, 0}},   {"tanh_approx_bf16", {1, 0}},
  };
  return b;
}

long ordinal(Format f, std::uint64_t b) {
  long m = static_cast<long>((b & ~sign_bit(f)) >> info(f).shift);
  return is_neg(f, b) ? -m : m;
}

TEST(IeeeGpu, ExactInstructionsMatchHardware) {
  int checked = 0, failures = 0;
  for (const Vector& v : kVectors) {
    const OpModel* op = find_op(v.id);
    ASSERT_NE(op, nullptr) << v.id;
    if (op->approx) continue;
    ++checked;
    std::uint64_t got = op->fn(v.a, v.b, v.c);
    if (got != v.hw && ++failures <= 10) {
      ADD_FAILURE() << v.id << " " << hex(v.a) << " " << hex(v.b) << " " << hex(v.c)
                    << ": model " << hex(got) << " hardware " << hex(v.hw);
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 3000);
}

TEST(IeeeGpu, ApproximateInstructionsWithinMeasuredDistance) {
  int checked = 0, failures = 0;
  for (const Vector& v : kVectors) {
    const OpModel* op = find_op(v.id);
    ASSERT_NE(op, nullptr) << v.id;
    auto it = bounds().find(v.id);
    if (!op->approx || it == bounds().end()) continue;  // sin/cos over the whole f32 range
    ++checked;
    const Format f = op->out;
    std::uint64_t got = op->fn(v.a, v.b, v.c);
    bool ok = got == v.hw;
    if (!ok && !is_nan(f, got) && !is_nan(f, v.hw) && !is_inf(f, got) && !is_inf(f, v.hw)) {
      long ulps = std::labs(ordinal(f, got) - ordinal(f, v.hw));
      double abs = std::fabs(to_double(f, got) - to_double(f, v.hw));
      ok = ulps <= it->second.ulps || abs <= it->second.abs;
    }
    if (!ok && ++failures <= 10) {
      ADD_FAILURE() << v.id << " " << hex(v.a) << " " << hex(v.b) << ": model " << hex(got)
                    << " hardware " << hex(v.hw);
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 300);
}

// Every instruction the probe ran has recorded vectors, and every model has been probed.
TEST(IeeeGpu, EveryModelHasVectors) {
  std::map<std::string, int> count;
  for (const Vector& v : kVectors) ++count[v.id];
  for (const OpModel& op : all_ops()) EXPECT_GT(count[op.id], 0) << op.id;
}

}  // namespace
}  // namespace racer::ieee::test
