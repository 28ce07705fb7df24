// add, sub, mul, fma with a rounding mode, ftz, sat and relu: exact on integer significands
// (a 53 x 53-bit product fits 106 bits), rounded once.
#include <initializer_list>
#include <utility>

#include "exec/ieee.hpp"
#include "exec/ieee_internal.hpp"

namespace racer::ieee {

using detail::Exact;

namespace {

// Exact a + b for operands whose mantissas have at most 110 significant bits and no sticky
// bits. The result is exact, or (only when the operands' exponents are far apart) carries
// sticky bits far below its rounding position. An exact zero result has neg = false; the
// caller applies the IEEE sign rule.
Exact exact_sum(const Exact& a0, const Exact& b0) {
  if (a0.mant == 0) return b0;
  if (b0.mant == 0) return a0;
  Exact a = a0, b = b0;
  // Normalize both so that the top bit is bit 125 (two bits of headroom for the carry).
  int la = detail::clz128(a.mant) - 2, lb = detail::clz128(b.mant) - 2;
  a.mant <<= la;
  a.exp -= la;
  b.mant <<= lb;
  b.exp -= lb;
  if (b.exp > a.exp || (b.exp == a.exp && b.mant > a.mant)) std::swap(a, b);
  long d = static_cast<long>(a.exp) - b.exp;
  u128 bm = 0;
  bool sticky = false;
  if (d >= 126) {
    sticky = true;
  } else {
    bm = b.mant >> d;
    sticky = d > 0 && (b.mant & ((u128{1} << d) - 1)) != 0;
  }
  Exact r{a.neg, 0, a.exp, sticky};
  if (a.neg == b.neg) {
    r.mant = a.mant + bm;
  } else {
    // a - (bm + s) = (a - bm - 1) + (1 - s) with 1 - s in (0, 1).
    r.mant = a.mant - bm - (sticky ? 1 : 0);
  }
  if (r.is_zero()) r.neg = false;
  return r;
}

// A NaN result: the F64 operand NaN in the hardware's order of preference, else the format's
// canonical (or, for F64, default) NaN; then .sat / .relu.
std::uint64_t nan_result(Format f, const Mode& m, std::initializer_list<std::uint64_t> ops) {
  return detail::post(f, detail::propagate_nan(f, ops), m);
}

// The IEEE sign of an exact zero sum: the common sign of both addends when they agree,
// otherwise +0 (-0 when rounding toward -inf).
bool zero_sum_sign(bool na, bool nb, Rounding r) { return na == nb ? na : r == Rounding::RM; }

// Rounds an exact sum of two addends whose signs were na and nb.
std::uint64_t finish_sum(Format f, const Exact& s, bool na, bool nb, const Mode& m) {
  if (s.is_zero()) return detail::post(f, zero(f, zero_sum_sign(na, nb, m.rnd)), m);
  return detail::post(f, detail::round_exact(f, s, m), m);
}

}  // namespace

std::uint64_t add(Format f, std::uint64_t a, std::uint64_t b, const Mode& m) {
  Decoded x = detail::operand(f, a, m.ftz), y = detail::operand(f, b, m.ftz);
  if (x.nan || y.nan) return nan_result(f, m, {b, a});
  if (x.inf || y.inf) {
    if (x.inf && y.inf && x.neg != y.neg) return nan_result(f, m, {});
    return detail::post(f, infinity(f, x.inf ? x.neg : y.neg), m);
  }
  Exact s = exact_sum(detail::exact_of(x), detail::exact_of(y));
  return finish_sum(f, s, x.neg, y.neg, m);
}

std::uint64_t sub(Format f, std::uint64_t a, std::uint64_t b, const Mode& m) {
  // a - b = a + (-b); a NaN b keeps its sign.
  return add(f, a, is_nan(f, b) ? b : b ^ sign_bit(f), m);
}

std::uint64_t mul(Format f, std::uint64_t a, std::uint64_t b, const Mode& m) {
  Decoded x = detail::operand(f, a, m.ftz), y = detail::operand(f, b, m.ftz);
  if (x.nan || y.nan) return nan_result(f, m, {b, a});
  bool neg = x.neg != y.neg;
  if (x.inf || y.inf) {
    if ((!x.inf && x.mantissa == 0) || (!y.inf && y.mantissa == 0)) return nan_result(f, m, {});
    return detail::post(f, infinity(f, neg), m);
  }
  u128 p = static_cast<u128>(x.mantissa) * y.mantissa;
  if (p == 0) return detail::post(f, zero(f, neg), m);
  Exact e{neg, p, x.exponent + y.exponent, false};
  return detail::post(f, detail::round_exact(f, e, m), m);
}

std::uint64_t fma(Format f, std::uint64_t a, std::uint64_t b, std::uint64_t c, const Mode& m) {
  Decoded x = detail::operand(f, a, m.ftz), y = detail::operand(f, b, m.ftz),
          z = detail::operand(f, c, m.ftz);
  if (x.nan || y.nan || z.nan) return nan_result(f, m, {b, c, a});
  bool pneg = x.neg != y.neg;
  bool pzero = (!x.inf && x.mantissa == 0) || (!y.inf && y.mantissa == 0);
  if (x.inf || y.inf) {
    if (pzero) return nan_result(f, m, {});  // inf * 0
    if (z.inf && z.neg != pneg) return nan_result(f, m, {});
    return detail::post(f, infinity(f, pneg), m);
  }
  if (z.inf) return detail::post(f, infinity(f, z.neg), m);
  Exact p{pneg, static_cast<u128>(x.mantissa) * y.mantissa, x.exponent + y.exponent, false};
  Exact s = exact_sum(p, detail::exact_of(z));
  return finish_sum(f, s, pneg, z.neg, m);
}

std::uint32_t add_x2(Format f, std::uint32_t a, std::uint32_t b, const Mode& m) {
  return map_x2(a, b, [&](std::uint64_t x, std::uint64_t y) { return add(f, x, y, m); });
}
std::uint32_t sub_x2(Format f, std::uint32_t a, std::uint32_t b, const Mode& m) {
  return map_x2(a, b, [&](std::uint64_t x, std::uint64_t y) { return sub(f, x, y, m); });
}
std::uint32_t mul_x2(Format f, std::uint32_t a, std::uint32_t b, const Mode& m) {
  return map_x2(a, b, [&](std::uint64_t x, std::uint64_t y) { return mul(f, x, y, m); });
}
std::uint32_t fma_x2(Format f, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                     const Mode& m) {
  std::uint32_t lo = static_cast<std::uint32_t>(fma(f, a & 0xFFFF, b & 0xFFFF, c & 0xFFFF, m));
  std::uint32_t hi = static_cast<std::uint32_t>(fma(f, a >> 16, b >> 16, c >> 16, m));
  return (lo & 0xFFFF) | (hi & 0xFFFF) << 16;
}

}  // namespace racer::ieee
