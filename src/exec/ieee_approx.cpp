// The .approx instructions (model in ieee.hpp): the correctly rounded (RN) value of the real
// function; rcp, sqrt and rsqrt computed exactly, ex2, lg2, sin, cos and tanh in x87 long
// double (64-bit significand) and rounded once. The f64 forms with .ftz run on the upper
// 32-bit word only (20 fraction bits in, 20 out, low word zero), as the hardware does.
#include <gmp.h>

#include <cmath>

#include "exec/ieee.hpp"
#include "exec/ieee_internal.hpp"

namespace racer::ieee {

using detail::Exact;

namespace {

// The upper word of an f64: sign, 11 exponent bits, 20 fraction bits, above 32 zero bits.
constexpr FormatInfo kF64Hi = {"f64hi", 64, 11, 20, 1023, true, 32};
constexpr std::uint64_t kF64HiNaN = 0x7FFFFFFF00000000;

Exact exact_of_long_double(long double x) {
  int e = 0;
  long double m = std::frexp(std::fabs(x), &e);  // m in [0.5, 1)
  auto mant = static_cast<std::uint64_t>(std::ldexp(m, 64));
  return Exact{std::signbit(x), mant, e - 64, false};
}

// Rounds a long double result to f (RN), NaN to the canonical NaN.
std::uint64_t from_long_double(Format f, long double v, bool ftz) {
  if (std::isnan(v)) return canonical_nan(f);
  if (std::isinf(v)) return infinity(f, std::signbit(v));
  if (v == 0) return zero(f, std::signbit(v));
  Exact e = exact_of_long_double(v);
  return round_from_exact(f, e.neg, e.mant, e.exp, false, Rounding::RN, ftz);
}

// Applies a long double function to a (flushed when ftz) and rounds the result.
template <class Fn>
std::uint64_t via_long_double(Format f, std::uint64_t a, bool ftz, Fn fn) {
  a = flush(f, a, ftz);
  if (is_nan(f, a)) return canonical_nan(f);
  return from_long_double(f, fn(static_cast<long double>(to_double(f, a))), ftz);
}

// floor(sqrt(2^pow2 / d)) (pow2 even, the result below 2^128); *inexact says whether the
// real square root differs from it.
u128 sqrt_of_quotient(unsigned long pow2, std::uint64_t d, bool* inexact) {
  mpz_t n, q, r;
  mpz_inits(n, q, r, nullptr);
  mpz_ui_pow_ui(n, 2, pow2);
  mpz_fdiv_qr_ui(q, r, n, d);
  bool sticky = mpz_sgn(r) != 0;
  mpz_sqrtrem(n, r, q);
  sticky = sticky || mpz_sgn(r) != 0;
  std::uint64_t limbs[2] = {0, 0};
  std::size_t count = 0;
  mpz_export(limbs, &count, -1, sizeof(std::uint64_t), 0, 0, n);
  mpz_clears(n, q, r, nullptr);
  *inexact = sticky;
  return static_cast<u128>(limbs[1]) << 64 | limbs[0];
}

// 1/sqrt(m 2^e) for a positive finite value, exactly (with a sticky bit).
Exact exact_rsqrt(std::uint64_t m, int e) {
  // With e even: 2^(-e/2) * sqrt(2^192 / m) * 2^-96.
  if ((e & 1) != 0) {
    m <<= 1;
    --e;
  }
  bool sticky = false;
  u128 r = sqrt_of_quotient(192, m, &sticky);
  return Exact{false, r, -96 - e / 2, sticky};
}

// 1/x for a positive finite value, exactly (with a sticky bit).
Exact exact_rcp(std::uint64_t m, int e) {
  const u128 num = u128{1} << 127;
  return Exact{false, num / m, -127 - e, num % m != 0};
}

// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64: the upper word of a, the function truncated to
// 20 fraction bits, the low word zero. NaN (judged on the upper word) gives 0x7FFFFFFF00000000.
std::uint64_t f64_upper_word(std::uint64_t a, bool rsqrt) {
  const Format f = Format::F64;
  std::uint64_t hi = flush(f, a & 0xFFFFFFFF00000000ull, true);
  Decoded x = decode(f, hi);
  if (x.nan) return kF64HiNaN;
  bool is_zero_in = !x.inf && x.mantissa == 0;
  if (rsqrt && x.neg && !is_zero_in) return kF64HiNaN;
  if (is_zero_in) return infinity(f, x.neg);
  if (x.inf) return zero(f, x.neg);
  Exact r = rsqrt ? exact_rsqrt(x.mantissa, x.exponent) : exact_rcp(x.mantissa, x.exponent);
  return detail::round_info(kF64Hi, x.neg, r.mant, r.exp, r.sticky, Rounding::RZ, true, false,
                            kF64HiNaN);
}

}  // namespace

std::uint64_t rcp_approx(Format f, std::uint64_t a, bool ftz) {
  if (f == Format::F64) return f64_upper_word(a, false);
  return rcp(f, a, Mode{Rounding::RN, ftz});
}

std::uint64_t sqrt_approx(Format f, std::uint64_t a, bool ftz) {
  return sqrt(f, a, Mode{Rounding::RN, ftz});
}

std::uint64_t rsqrt_approx(Format f, std::uint64_t a, bool ftz) {
  if (f == Format::F64 && ftz) return f64_upper_word(a, true);
  Decoded x = detail::operand(f, a, ftz);
  if (x.nan) return detail::propagate_nan(f, {a});
  if (!x.inf && x.mantissa == 0) return infinity(f, x.neg);  // 1/sqrt(-0) = -inf
  if (x.neg) return canonical_nan(f);
  if (x.inf) return zero(f, false);
  Exact r = exact_rsqrt(x.mantissa, x.exponent);
  return round_from_exact(f, false, r.mant, r.exp, r.sticky, Rounding::RN, ftz);
}

std::uint64_t ex2_approx(Format f, std::uint64_t a, bool ftz) {
  return via_long_double(f, a, ftz, [](long double v) { return std::exp2(v); });
}
std::uint64_t lg2_approx(Format f, std::uint64_t a, bool ftz) {
  return via_long_double(f, a, ftz, [](long double v) { return std::log2(v); });
}
std::uint64_t sin_approx(Format f, std::uint64_t a, bool ftz) {
  return via_long_double(f, a, ftz, [](long double v) { return std::sin(v); });
}
std::uint64_t cos_approx(Format f, std::uint64_t a, bool ftz) {
  return via_long_double(f, a, ftz, [](long double v) { return std::cos(v); });
}
std::uint64_t tanh_approx(Format f, std::uint64_t a, bool ftz) {
  return via_long_double(f, a, ftz, [](long double v) { return std::tanh(v); });
}

}  // namespace racer::ieee
