// Formats: layout tables, classification, exact decoding, and the one rounding encoder that
// every operation ends in.
#include <algorithm>
#include <bit>
#include <cmath>
#include <initializer_list>

#include "exec/ieee.hpp"
#include "exec/ieee_internal.hpp"

namespace racer::ieee {

namespace {

constexpr FormatInfo kInfo[] = {
    {"f16", 16, 5, 10, 15, true, 0},   {"bf16", 16, 8, 7, 127, true, 0},
    {"tf32", 32, 8, 10, 127, true, 13}, {"f32", 32, 8, 23, 127, true, 0},
    {"f64", 64, 11, 52, 1023, true, 0}, {"e4m3", 8, 4, 3, 7, false, 0},
    {"e5m2", 8, 5, 2, 15, true, 0},
};

std::uint64_t mask(int bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

// The encoding (sign, exponent, fraction) without the storage shift.
std::uint64_t enc(const FormatInfo& fi, std::uint64_t bits) {
  return (bits >> fi.shift) & mask(1 + fi.exp_bits + fi.man_bits);
}
std::uint64_t store(const FormatInfo& fi, std::uint64_t e) { return e << fi.shift; }
std::uint64_t exp_field(const FormatInfo& fi, std::uint64_t e) {
  return (e >> fi.man_bits) & mask(fi.exp_bits);
}
std::uint64_t man_field(const FormatInfo& fi, std::uint64_t e) { return e & mask(fi.man_bits); }
std::uint64_t enc_sign(const FormatInfo& fi) {
  return std::uint64_t{1} << (fi.exp_bits + fi.man_bits);
}
// Magnitude encoding of the largest finite value.
std::uint64_t max_finite_enc(const FormatInfo& fi) {
  if (!fi.has_inf) return (mask(fi.exp_bits) << fi.man_bits) | (mask(fi.man_bits) - 1);
  return ((mask(fi.exp_bits) - 1) << fi.man_bits) | mask(fi.man_bits);
}
std::uint64_t max_finite_of(const FormatInfo& fi, bool neg) {
  return store(fi, (neg ? enc_sign(fi) : 0) | max_finite_enc(fi));
}
// mant * 2^-shift (plus sticky bits below mant) rounded to an integer under r: the kept bits,
// incremented where the mode rounds away from zero.
u128 round_bits(u128 mant, long shift, bool sticky, Rounding r, bool neg) {
  u128 kept = 0;
  bool half = false, rest = sticky;
  if (shift <= 0) {
    kept = mant << -shift;  // only reachable with mant == 0 (round_from_exact's precondition)
  } else if (shift > 128) {
    rest = rest || mant != 0;
  } else if (shift == 128) {
    half = (mant >> 127) != 0;
    rest = rest || (mant << 1) != 0;
  } else {
    kept = mant >> shift;
    half = ((mant >> (shift - 1)) & 1) != 0;
    rest = rest || (mant & ((u128{1} << (shift - 1)) - 1)) != 0;
  }
  bool up = false;
  switch (r) {
    case Rounding::RN: up = half && (rest || (kept & 1) != 0); break;
    case Rounding::RNA: up = half; break;
    case Rounding::RZ: up = false; break;
    case Rounding::RP: up = !neg && (half || rest); break;
    case Rounding::RM: up = neg && (half || rest); break;
  }
  return kept + (up ? 1 : 0);
}
std::uint64_t infinity_of(const FormatInfo& fi, bool neg) {
  return store(fi, (neg ? enc_sign(fi) : 0) | mask(fi.exp_bits) << fi.man_bits);
}

}  // namespace

const FormatInfo& info(Format f) { return kInfo[static_cast<int>(f)]; }

std::uint64_t canonical_nan(Format f) {
  switch (f) {
    case Format::F16: return 0x7FFF;
    case Format::BF16: return 0x7FFF;
    case Format::TF32: return 0x7FFFFFFF;
    case Format::F32: return 0x7FFFFFFF;
    case Format::F64: return 0xFFF8000000000000;
    case Format::E4M3: return 0x7F;
    case Format::E5M2: return 0x7F;
  }
  return 0;
}

std::uint64_t sign_bit(Format f) { return store(info(f), enc_sign(info(f))); }
std::uint64_t zero(Format f, bool neg) { return neg ? sign_bit(f) : 0; }
std::uint64_t infinity(Format f, bool neg) {
  if (!info(f).has_inf) return canonical_nan(f);
  return infinity_of(info(f), neg);
}
std::uint64_t max_finite(Format f, bool neg) { return max_finite_of(info(f), neg); }
std::uint64_t min_normal(Format f, bool neg) {
  return zero(f, neg) | store(info(f), std::uint64_t{1} << info(f).man_bits);
}
std::uint64_t one(Format f, bool neg) {
  const FormatInfo& fi = info(f);
  return zero(f, neg) | store(fi, static_cast<std::uint64_t>(fi.bias) << fi.man_bits);
}

FpClass classify(Format f, std::uint64_t bits) {
  const FormatInfo& fi = info(f);
  std::uint64_t e = enc(fi, bits);
  std::uint64_t ex = exp_field(fi, e), man = man_field(fi, e);
  if (ex == mask(fi.exp_bits)) {
    if (!fi.has_inf) return man == mask(fi.man_bits) ? FpClass::NaN : FpClass::Normal;
    return man == 0 ? FpClass::Inf : FpClass::NaN;
  }
  if (ex == 0) return man == 0 ? FpClass::Zero : FpClass::Subnormal;
  return FpClass::Normal;
}

bool is_nan(Format f, std::uint64_t bits) { return classify(f, bits) == FpClass::NaN; }
bool is_inf(Format f, std::uint64_t bits) { return classify(f, bits) == FpClass::Inf; }
bool is_zero(Format f, std::uint64_t bits) { return classify(f, bits) == FpClass::Zero; }
bool is_subnormal(Format f, std::uint64_t bits) {
  return classify(f, bits) == FpClass::Subnormal;
}
bool is_neg(Format f, std::uint64_t bits) { return (enc(info(f), bits) & enc_sign(info(f))) != 0; }

std::uint64_t quiet(Format f, std::uint64_t bits) {
  const FormatInfo& fi = info(f);
  if (!is_nan(f, bits) || f == Format::E4M3) return bits;
  return bits | store(fi, std::uint64_t{1} << (fi.man_bits - 1));
}

std::uint64_t flush(Format f, std::uint64_t bits, bool ftz) {
  if (ftz && is_subnormal(f, bits)) return zero(f, is_neg(f, bits));
  return bits;
}

Decoded decode(Format f, std::uint64_t bits) {
  const FormatInfo& fi = info(f);
  Decoded d;
  std::uint64_t e = enc(fi, bits);
  d.neg = (e & enc_sign(fi)) != 0;
  switch (classify(f, bits)) {
    case FpClass::NaN: d.nan = true; return d;
    case FpClass::Inf: d.inf = true; return d;
    case FpClass::Zero: return d;
    case FpClass::Subnormal:
      d.mantissa = man_field(fi, e);
      d.exponent = fi.emin() - fi.man_bits;
      return d;
    case FpClass::Normal:
      d.mantissa = man_field(fi, e) | (std::uint64_t{1} << fi.man_bits);
      d.exponent = static_cast<int>(exp_field(fi, e)) - fi.bias - fi.man_bits;
      return d;
  }
  return d;
}

double to_double(Format f, std::uint64_t bits) {
  if (f == Format::F64) return std::bit_cast<double>(bits);
  // The host's float is binary32 and widens exactly (subnormals too: nothing here sets DAZ);
  // NaN takes the general path, which fixes its payload.
  if (f == Format::F32 && (bits & 0x7f800000u) != 0x7f800000u) return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  Decoded d = decode(f, bits);
  if (d.nan) return d.neg ? -std::nan("") : std::nan("");
  if (d.inf) return d.neg ? -HUGE_VAL : HUGE_VAL;
  double v = std::ldexp(static_cast<double>(d.mantissa), d.exponent);
  return d.neg ? -v : v;
}

std::uint64_t from_double(Format f, double x, Rounding r, bool ftz, bool satfinite) {
  // The host's narrowing to binary32 rounds to nearest even (the default mode, which nothing
  // here changes), overflowing to infinity and keeping subnormals, as the encoder does.
  if (f == Format::F32 && r == Rounding::RN && !ftz && !satfinite && !std::isnan(x))
    return std::bit_cast<std::uint32_t>(static_cast<float>(x));
  return convert(f, Format::F64, std::bit_cast<std::uint64_t>(x),
                 Mode{r, ftz, false, false, satfinite});
}

namespace detail {

std::uint64_t round_info(const FormatInfo& fi, bool neg, u128 mant, int exp, bool sticky,
                         Rounding r, bool ftz, bool satfinite, std::uint64_t overflow_nan) {
  const int p = fi.precision();
  const int qmin = fi.emin() - fi.man_bits;  // exponent of the smallest subnormal
  const std::uint64_t signed_zero = store(fi, neg ? enc_sign(fi) : 0);
  if (mant == 0 && !sticky) return signed_zero;
  // q: the exponent of the result's last bit.
  int q = qmin;
  if (mant != 0) {
    int lz = detail::clz128(mant);
    mant <<= lz;
    exp -= lz;
    q = std::max(127 + exp - p + 1, qmin);
  }
  // .ftz: a result that is tiny after rounding to the format's precision with an unbounded
  // exponent becomes zero (measured on sm_90: 2^-126 - 2^-150 flushes, although the subnormal
  // grid rounds it to 2^-126; 2^-126 (1 - 2^-46) rounds to 2^-126 and stays).
  if (ftz && (mant == 0 || 127 + exp < fi.emin())) {
    bool reaches_min_normal = mant != 0 && 127 + exp == fi.emin() - 1 &&
                              round_bits(mant, 127 - p + 1, sticky, r, neg) == (u128{1} << p);
    if (!reaches_min_normal) return signed_zero;
    return signed_zero | store(fi, std::uint64_t{1} << fi.man_bits);
  }
  u128 kept = round_bits(mant, static_cast<long>(q) - exp, sticky, r, neg);
  if (kept == (u128{1} << p)) {
    kept >>= 1;
    ++q;
  }
  const u128 hidden = u128{1} << (p - 1);
  std::uint64_t magnitude;  // encoding without sign; may exceed the field range
  if (kept >= hidden) {
    long biased = static_cast<long>(q) + (p - 1) + fi.bias;
    biased = std::min(biased, static_cast<long>(mask(fi.exp_bits)) + 1);  // past any overflow
    magnitude = (static_cast<std::uint64_t>(biased) << fi.man_bits) |
                static_cast<std::uint64_t>(kept - hidden);
  } else {
    magnitude = static_cast<std::uint64_t>(kept);  // subnormal or zero
  }
  if (magnitude > max_finite_enc(fi)) {
    bool to_inf = false;
    switch (r) {
      case Rounding::RN:
      case Rounding::RNA: to_inf = true; break;
      case Rounding::RZ: to_inf = false; break;
      case Rounding::RP: to_inf = !neg; break;
      case Rounding::RM: to_inf = neg; break;
    }
    if (satfinite || !to_inf) return max_finite_of(fi, neg);
    return fi.has_inf ? infinity_of(fi, neg) : overflow_nan;
  }
  return signed_zero | store(fi, magnitude);
}

}  // namespace detail

std::uint64_t round_from_exact(Format f, bool neg, u128 mant, int exp, bool sticky, Rounding r,
                               bool ftz, bool satfinite) {
  return detail::round_info(info(f), neg, mant, exp, sticky, r, ftz, satfinite, canonical_nan(f));
}

std::uint64_t apply_sat(Format f, std::uint64_t bits) {
  if (is_nan(f, bits) || is_neg(f, bits)) return zero(f, false);
  std::uint64_t o = one(f);
  return enc(info(f), bits) > enc(info(f), o) ? o : bits;
}

std::uint64_t apply_relu(Format f, std::uint64_t bits) {
  if (is_nan(f, bits)) return canonical_nan(f);
  return is_neg(f, bits) ? zero(f, false) : bits;
}

namespace detail {

std::uint64_t propagate_nan(Format f, std::initializer_list<std::uint64_t> operands) {
  if (f == Format::F64) {
    for (std::uint64_t x : operands) {
      if (is_nan(f, x)) return quiet(f, x);
    }
  }
  return canonical_nan(f);
}

}  // namespace detail
}  // namespace racer::ieee
