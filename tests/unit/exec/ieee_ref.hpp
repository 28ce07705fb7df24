#pragma once
// Independent references for the ieee tests: the host CPU's IEEE arithmetic under a rounding
// mode (x86-64 SSE: add, sub, mul, div, sqrt, fma are correctly rounded in every mode), and a
// correctly rounded encoder over exact rationals (GMP) written from the definition, sharing
// nothing with round_from_exact.
#include <gmpxx.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

#include "exec/ieee.hpp"

namespace racer::ieee::test {

inline int fe_mode(Rounding r) {
  switch (r) {
    case Rounding::RN: return FE_TONEAREST;
    case Rounding::RZ: return FE_TOWARDZERO;
    case Rounding::RM: return FE_DOWNWARD;
    case Rounding::RP: return FE_UPWARD;
    case Rounding::RNA: break;
  }
  return FE_TONEAREST;
}

// Sets the host rounding mode for its lifetime.
struct HostRounding {
  explicit HostRounding(Rounding r) { std::fesetround(fe_mode(r)); }
  ~HostRounding() { std::fesetround(FE_TONEAREST); }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;
};

// Host operations, kept out of line so that they run under the mode set by the caller.
template <class T>
struct Host {
  __attribute__((noinline)) static T add(T a, T b) { volatile T x = a, y = b; return x + y; }
  __attribute__((noinline)) static T sub(T a, T b) { volatile T x = a, y = b; return x - y; }
  __attribute__((noinline)) static T mul(T a, T b) { volatile T x = a, y = b; return x * y; }
  __attribute__((noinline)) static T div(T a, T b) { volatile T x = a, y = b; return x / y; }
  __attribute__((noinline)) static T fma(T a, T b, T c) {
    volatile T x = a, y = b, z = c;
    return std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z));
  }
  __attribute__((noinline)) static T sqrt(T a) { volatile T x = a; return std::sqrt(static_cast<T>(x)); }
};
__attribute__((noinline)) inline float host_narrow(double x) { volatile double v = x; return static_cast<float>(v); }

inline std::uint64_t bits_of(float x) { return std::bit_cast<std::uint32_t>(x); }
inline std::uint64_t bits_of(double x) { return std::bit_cast<std::uint64_t>(x); }
inline float f32_of(std::uint64_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b)); }
inline double f64_of(std::uint64_t b) { return std::bit_cast<double>(b); }

// The exact value of a finite float of format f.
inline mpq_class exact_value(Format f, std::uint64_t bits) {
  Decoded d = decode(f, bits);
  mpz_class m(static_cast<unsigned long>(d.mantissa));
  mpq_class v(m);
  if (d.exponent >= 0) {
    mpz_class p;
    mpz_mul_2exp(p.get_mpz_t(), m.get_mpz_t(), static_cast<unsigned long>(d.exponent));
    v = mpq_class(p);
  } else {
    mpz_class den;
    mpz_ui_pow_ui(den.get_mpz_t(), 2, static_cast<unsigned long>(-d.exponent));
    v = mpq_class(m, den);
    v.canonicalize();
  }
  return d.neg ? mpq_class(-v) : v;
}

inline mpq_class pow2(int e) {
  mpz_class p;
  mpz_ui_pow_ui(p.get_mpz_t(), 2, static_cast<unsigned long>(e < 0 ? -e : e));
  if (e >= 0) return mpq_class(p);
  mpq_class q(mpz_class(1), p);
  q.canonicalize();
  return q;
}

// The correctly rounded value of the nonzero rational v in f, as a double (every format is
// exactly representable in double); +-inf on overflow where the mode rounds there; the
// caller compares it with to_double of the result. max_finite is passed in so that the
// reference stays independent of the format tables (it is the only fact taken from them).
inline double ref_round(Format f, const mpq_class& v, Rounding r, double max_fin, bool satfinite) {
  const FormatInfo& fi = info(f);
  bool neg = v < 0;
  mpq_class a = neg ? mpq_class(-v) : v;
  // e = floor(log2(a))
  long e = static_cast<long>(mpz_sizeinbase(a.get_num_mpz_t(), 2)) -
           static_cast<long>(mpz_sizeinbase(a.get_den_mpz_t(), 2));
  while (pow2(static_cast<int>(e)) > a) --e;
  while (pow2(static_cast<int>(e + 1)) <= a) ++e;
  long emin = 1 - fi.bias;
  if (e < emin) e = emin;
  mpq_class ulp = pow2(static_cast<int>(e - fi.man_bits));
  mpq_class q = a / ulp;
  mpz_class k = q.get_num() / q.get_den();  // floor
  mpq_class frac = q - mpq_class(k);
  bool up = false;
  mpq_class half(1, 2);
  switch (r) {
    case Rounding::RN: up = frac > half || (frac == half && mpz_odd_p(k.get_mpz_t())); break;
    case Rounding::RNA: up = frac >= half; break;
    case Rounding::RZ: up = false; break;
    case Rounding::RP: up = !neg && frac > 0; break;
    case Rounding::RM: up = neg && frac > 0; break;
  }
  if (up) k += 1;
  mpq_class res = mpq_class(k) * ulp;
  if (res > mpq_class(max_fin)) {
    bool to_inf = r == Rounding::RN || r == Rounding::RNA || (r == Rounding::RP && !neg) ||
                  (r == Rounding::RM && neg);
    double out = (to_inf && !satfinite) ? HUGE_VAL : max_fin;
    return neg ? -out : out;
  }
  double d = res.get_d();
  return neg ? -d : d;
}

}  // namespace racer::ieee::test
