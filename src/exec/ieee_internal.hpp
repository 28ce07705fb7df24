#pragma once
// Helpers shared by the ieee_*.cpp files; not part of the public API.
#include <initializer_list>

#include "exec/ieee.hpp"

namespace racer::ieee::detail {

inline int clz128(u128 x) {  // x != 0
  auto hi = static_cast<std::uint64_t>(x >> 64);
  if (hi != 0) return __builtin_clzll(hi);
  return 64 + __builtin_clzll(static_cast<std::uint64_t>(x));
}

// An exact value (-1)^neg * (mant + s) * 2^exp, s in (0,1) when sticky, else 0.
struct Exact {
  bool neg = false;
  u128 mant = 0;
  int exp = 0;
  bool sticky = false;
  bool is_zero() const { return mant == 0 && !sticky; }
};

// The finite operand as an Exact (decode of a non-NaN, non-inf value).
inline Exact exact_of(const Decoded& d) { return Exact{d.neg, d.mantissa, d.exponent, false}; }

// round_from_exact on a format descriptor (internal formats such as the 20-bit-fraction
// upper word of f64 that rcp.approx.ftz.f64 produces); overflow_nan is returned where a
// format without infinity overflows.
std::uint64_t round_info(const FormatInfo& fi, bool neg, u128 mant, int exp, bool sticky,
                         Rounding r, bool ftz, bool satfinite, std::uint64_t overflow_nan);

// The NaN an operation of format f returns. F32, F16, BF16 (and the others) return their
// canonical NaN whatever the operands. F64 returns the first NaN among the operands, in the
// order given (the order the hardware prefers, see ieee.hpp), quieted; with none (an invalid
// operation such as inf - inf) its default NaN 0xFFF8000000000000.
std::uint64_t propagate_nan(Format f, std::initializer_list<std::uint64_t> operands);

inline std::uint64_t round_exact(Format f, const Exact& x, const Mode& m) {
  return round_from_exact(f, x.neg, x.mant, x.exp, x.sticky, m.rnd, m.ftz, m.satfinite);
}

// Applies .sat and .relu of m to a result.
inline std::uint64_t post(Format f, std::uint64_t r, const Mode& m) {
  if (m.sat) r = apply_sat(f, r);
  if (m.relu) r = apply_relu(f, r);
  return r;
}

// Unpacks an operand after the ftz flush.
inline Decoded operand(Format f, std::uint64_t bits, bool ftz) {
  return decode(f, flush(f, bits, ftz));
}

}  // namespace racer::ieee::detail
