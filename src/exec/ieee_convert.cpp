// cvt: float <-> float (rounded once, sat / relu / satfinite), packed pairs, round to
// integral, float <-> integer with PTX's saturation.
#include <algorithm>

#include "exec/ieee.hpp"
#include "exec/ieee_internal.hpp"

namespace racer::ieee {

namespace {

std::uint64_t low_mask(int bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

// Rounds the finite magnitude m * 2^e to an integer under r (sign neg). Magnitudes of 2^64
// and more come back as 2^64 (callers only saturate them).
u128 round_to_int(bool neg, std::uint64_t m, int e, Rounding r) {
  const u128 big = u128{1} << 64;
  if (m == 0) return 0;
  if (e >= 0) return e >= 64 ? big : std::min<u128>(static_cast<u128>(m) << e, big);
  int shift = -e;
  u128 kept = 0;
  bool half = false, rest = false;
  if (shift > 64) {
    rest = true;
  } else {
    u128 mm = m;
    kept = mm >> shift;
    half = ((mm >> (shift - 1)) & 1) != 0;
    rest = (mm & ((u128{1} << (shift - 1)) - 1)) != 0;
  }
  bool up = false;
  switch (r) {
    case Rounding::RN: up = half && (rest || (kept & 1) != 0); break;
    case Rounding::RNA: up = half; break;
    case Rounding::RZ: break;
    case Rounding::RP: up = !neg && (half || rest); break;
    case Rounding::RM: up = neg && (half || rest); break;
  }
  return kept + (up ? 1 : 0);
}

// ftz on cvt applies to the F32 side(s) of the conversion, as in PTX.
bool ftz_on(Format f, const Mode& m) { return m.ftz && f == Format::F32; }

bool ieee_like(Format f) {
  return f == Format::F16 || f == Format::BF16 || f == Format::F32 || f == Format::F64;
}

// The NaN that cvt makes of a NaN (as measured on sm_90): conversions to or from F64 keep the
// sign and the top of the payload and set the quiet bit; bf16 -> f32 is a plain shift; f32 ->
// tf32 truncates the low 13 bits (and .satfinite then subtracts one tf32 ulp, as the hardware
// does); every other pair gives the destination's canonical NaN.
std::uint64_t convert_nan(Format to, Format from, std::uint64_t bits, const Mode& m) {
  if (to == from) return detail::propagate_nan(to, {bits});
  if (from == Format::BF16 && to == Format::F32) return (bits & 0xFFFF) << 16;
  if (from == Format::F32 && to == Format::TF32) {
    std::uint64_t t = bits & 0xFFFFE000;
    return m.satfinite ? t - 0x2000 : t;
  }
  if ((to == Format::F64 || from == Format::F64) && ieee_like(to) && ieee_like(from)) {
    const FormatInfo &ti = info(to), &fi = info(from);
    std::uint64_t payload = (bits >> fi.shift) & low_mask(fi.man_bits);
    payload = fi.man_bits <= ti.man_bits ? payload << (ti.man_bits - fi.man_bits)
                                         : payload >> (fi.man_bits - ti.man_bits);
    payload |= std::uint64_t{1} << (ti.man_bits - 1);
    std::uint64_t e = low_mask(ti.exp_bits) << ti.man_bits | payload;
    return zero(to, is_neg(from, bits)) | e << ti.shift;
  }
  return canonical_nan(to);
}

}  // namespace

std::uint64_t convert(Format to, Format from, std::uint64_t bits, const Mode& m) {
  // cvt.ftz from f32 flushes through an f32 operation, which also canonicalizes a NaN.
  if (ftz_on(from, m) && is_nan(from, bits)) bits = canonical_nan(from);
  Decoded x = decode(from, flush(from, bits, ftz_on(from, m)));
  std::uint64_t r;
  if (x.nan) {
    r = convert_nan(to, from, bits, m);
  } else if (x.inf) {
    r = m.satfinite ? max_finite(to, x.neg) : infinity(to, x.neg);
  } else if (x.mantissa == 0) {
    r = zero(to, x.neg);
  } else {
    r = round_from_exact(to, x.neg, x.mantissa, x.exponent, false, m.rnd, ftz_on(to, m),
                         m.satfinite);
  }
  return detail::post(to, r, m);
}

std::uint64_t convert_pair(Format to, Format from, std::uint64_t a, std::uint64_t b,
                           const Mode& m) {
  int w = info(to).storage_bits;
  return convert(to, from, a, m) << w | convert(to, from, b, m);
}

std::uint64_t convert_x2(Format to, Format from, std::uint64_t packed, const Mode& m) {
  int wf = info(from).storage_bits;
  std::uint64_t lo = packed & low_mask(wf), hi = (packed >> wf) & low_mask(wf);
  return convert_pair(to, from, hi, lo, m);
}

std::uint64_t round_to_integral(Format f, std::uint64_t bits, Rounding r, bool ftz, bool sat) {
  Mode m{Rounding::RN, ftz, sat};
  bits = flush(f, bits, ftz);
  Decoded x = decode(f, bits);
  if (x.nan) return detail::post(f, detail::propagate_nan(f, {bits}), m);
  if (x.inf || x.mantissa == 0 || x.exponent >= 0) return detail::post(f, bits, m);
  u128 k = round_to_int(x.neg, x.mantissa, x.exponent, r);  // < 2^53, exact in f
  return detail::post(f, round_from_exact(f, x.neg, k, 0, false, Rounding::RN), m);
}

int int_bits(IntType t) {
  switch (t) {
    case IntType::S8:
    case IntType::U8: return 8;
    case IntType::S16:
    case IntType::U16: return 16;
    case IntType::S32:
    case IntType::U32: return 32;
    case IntType::S64:
    case IntType::U64: return 64;
  }
  return 64;
}

bool int_signed(IntType t) {
  return t == IntType::S8 || t == IntType::S16 || t == IntType::S32 || t == IntType::S64;
}

std::uint64_t to_int(IntType to, Format from, std::uint64_t bits, Rounding r, bool ftz) {
  Decoded x = decode(from, flush(from, bits, ftz));
  const int w = int_bits(to);
  const bool s = int_signed(to);
  if (x.nan) {
    // 0, except that 64-bit results and conversions from f64 give the "integer indefinite"
    // 0x80...0 of the destination width (measured on sm_90).
    if (w < 64 && from != Format::F64) return 0;
    std::uint64_t top = std::uint64_t{1} << (w - 1);
    return s ? ~(top - 1) : top;
  }
  // Largest magnitude allowed on each side.
  const u128 pos_max = s ? (u128{1} << (w - 1)) - 1 : (u128{1} << w) - 1;
  const u128 neg_max = s ? u128{1} << (w - 1) : 0;
  u128 mag = x.inf ? u128{1} << 64 : round_to_int(x.neg, x.mantissa, x.exponent, r);
  if (!x.neg) return static_cast<std::uint64_t>(std::min(mag, pos_max));
  mag = std::min(mag, neg_max);
  if (mag == 0) return 0;
  return static_cast<std::uint64_t>(-static_cast<std::int64_t>(mag - 1) - 1);  // -mag
}

std::uint64_t from_int(Format to, IntType from, std::uint64_t value, const Mode& m) {
  const int w = int_bits(from);
  std::uint64_t v = value & low_mask(w);
  bool neg = int_signed(from) && ((v >> (w - 1)) & 1) != 0;
  std::uint64_t mag = !neg ? v : w == 64 ? ~v + 1 : (std::uint64_t{1} << w) - v;
  std::uint64_t r = mag == 0 ? zero(to, false)
                             : round_from_exact(to, neg, mag, 0, false, m.rnd, ftz_on(to, m),
                                                m.satfinite);
  return detail::post(to, r, m);
}

}  // namespace racer::ieee
