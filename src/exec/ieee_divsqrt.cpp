// Correctly rounded division, reciprocal and square root (integer quotient / integer square
// root with a sticky remainder), and the div.approx / div.full models.
#include <cmath>

#include "exec/ieee.hpp"
#include "exec/ieee_internal.hpp"

namespace racer::ieee {

using detail::Exact;

namespace {

// floor(sqrt(x)) for x < 2^126.
std::uint64_t isqrt(u128 x) {
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<long double>(x)));
  while (static_cast<u128>(r) * r > x) --r;
  while (static_cast<u128>(r + 1) * (r + 1) <= x) ++r;
  return r;
}

}  // namespace

std::uint64_t div(Format f, std::uint64_t a, std::uint64_t b, const Mode& m) {
  Decoded x = detail::operand(f, a, m.ftz), y = detail::operand(f, b, m.ftz);
  auto nan = [&] { return detail::post(f, detail::propagate_nan(f, {a, b}), m); };
  if (x.nan || y.nan) return nan();
  bool neg = x.neg != y.neg;
  bool xz = !x.inf && x.mantissa == 0, yz = !y.inf && y.mantissa == 0;
  if ((x.inf && y.inf) || (xz && yz)) return nan();
  if (x.inf || yz) return detail::post(f, infinity(f, neg), m);
  if (y.inf || xz) return detail::post(f, zero(f, neg), m);
  // Numerator with its top bit at 127, so the quotient keeps >= 74 bits.
  u128 num = static_cast<u128>(x.mantissa);
  int lz = detail::clz128(num);
  num <<= lz;
  u128 q = num / y.mantissa;
  bool sticky = num % y.mantissa != 0;
  Exact e{neg, q, x.exponent - lz - y.exponent, sticky};
  return detail::post(f, detail::round_exact(f, e, m), m);
}

std::uint64_t rcp(Format f, std::uint64_t a, const Mode& m) { return div(f, one(f), a, m); }

std::uint64_t sqrt(Format f, std::uint64_t a, const Mode& m) {
  Decoded x = detail::operand(f, a, m.ftz);
  if (x.nan) return detail::post(f, detail::propagate_nan(f, {a}), m);
  if (!x.inf && x.mantissa == 0) return detail::post(f, zero(f, x.neg), m);  // sqrt(-0) = -0
  if (x.neg) return detail::post(f, canonical_nan(f), m);
  if (x.inf) return detail::post(f, infinity(f, false), m);
  // mant * 2^exp with the top bit at 125 or 124 so that exp is even.
  u128 v = x.mantissa;
  int s = detail::clz128(v) - 2;
  if (((x.exponent - s) & 1) != 0) --s;
  v <<= s;
  std::uint64_t r = isqrt(v);
  bool sticky = static_cast<u128>(r) * r != v;
  Exact e{false, r, (x.exponent - s) / 2, sticky};
  return detail::post(f, detail::round_exact(f, e, m), m);
}

namespace {

// |b| > 2^126 for finite b: the reciprocal is subnormal.
bool above_2_126(std::uint64_t b) {
  Decoded d = decode(Format::F32, b);
  if (d.nan || d.inf || d.mantissa == 0) return false;
  return (b & 0x7FFFFFFF) > 0x7E800000;
}

// a * rcp.approx(b) with the operand scaling of the compiled sequence: a subnormal b (no ftz)
// has both operands scaled by 2^24 first, so the reciprocal stays finite.
std::uint32_t times_reciprocal(std::uint64_t a, std::uint64_t b, bool ftz) {
  const Format f = Format::F32;
  const Mode rn{Rounding::RN, ftz};
  if (!ftz && is_subnormal(f, b)) {
    const std::uint64_t two24 = 0x4B800000;
    a = mul(f, a, two24);
    b = mul(f, b, two24);
  }
  return static_cast<std::uint32_t>(mul(f, a, rcp_approx(f, b, ftz), rn));
}

}  // namespace

std::uint32_t div_approx_f32(std::uint32_t a, std::uint32_t b, bool ftz) {
  const Format f = Format::F32;
  std::uint64_t x = flush(f, a, ftz), y = flush(f, b, ftz);
  // |b| > 2^126: the reciprocal would be subnormal and the hardware's is 0 (PTX: the
  // quotient is 0), so the result is a * 0.
  if (above_2_126(y)) return static_cast<std::uint32_t>(mul(f, x, zero(f, is_neg(f, y))));
  return times_reciprocal(x, y, ftz);
}

std::uint32_t div_full_f32(std::uint32_t a, std::uint32_t b, bool ftz) {
  const Format f = Format::F32;
  std::uint64_t x = flush(f, a, ftz), y = flush(f, b, ftz);
  // |b| > 2^126: both operands scaled by 1/4 so that the reciprocal stays normal.
  if (above_2_126(y)) {
    const std::uint64_t quarter = 0x3E800000;
    x = mul(f, x, quarter, Mode{Rounding::RN, ftz});
    y = mul(f, y, quarter, Mode{Rounding::RN, ftz});
  }
  return times_reciprocal(x, y, ftz);
}

}  // namespace racer::ieee
