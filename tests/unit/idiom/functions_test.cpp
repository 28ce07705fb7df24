// Fitting a routine's probe samples to a member of the function family.
#include <gtest/gtest.h>

#include <cmath>

#include "idiom/functions.hpp"

namespace racer::idiom {
namespace {

// The probe points inside [lo, hi], each with f(t) as a float holds it.
template <class F>
std::vector<Sample> float_samples(long double lo, long double hi, F f) {
  std::vector<Sample> out;
  for (long double t : probe_points())
    if (t >= lo && t <= hi) out.push_back({t, static_cast<long double>(static_cast<float>(f(t)))});
  return out;
}

// erf over an input range above 1.6 (erff's 1 - 2^(...) path): the first two samples, at 2 and
// 3, are 0.0047 apart, and their float rounding puts a 1e-5 from 1; the fit still finds erf.
TEST(FitRoutine, ErfNearOneOverARangeAboveOnePointSix) {
  std::vector<Sample> s = float_samples(1.6L, 729, [](long double t) { return std::erf(t); });
  ASSERT_GE(s.size(), 8u);
  std::optional<Fit> f = fit_routine(s);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->describe(), "erf(t)");
}

// The same samples scaled by 1 + 1e-4 are no family member: the pair's looser snap to a small
// rational is checked against every sample.
TEST(FitRoutine, ErfScaledByOnePlusATenThousandthIsNoFit) {
  std::vector<Sample> s = float_samples(1.6L, 729, [](long double t) { return (1 + 1e-4L) * std::erf(t); });
  EXPECT_FALSE(fit_routine(s));
}

// 1 - erf on the same range: small values, each well conditioned relative to itself.
TEST(FitRoutine, OneMinusErfOverTheSameRange) {
  std::vector<Sample> s = float_samples(1.6L, 729, [](long double t) { return std::erfc(t); });
  std::optional<Fit> f = fit_routine(s);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->describe(), "1 + -1*erf(t)");
}

}  // namespace
}  // namespace racer::idiom
